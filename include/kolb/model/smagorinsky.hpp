#pragma once
// Smagorinsky's eddy viscosity for the isothermal collisions (Hou, Sterling,
// Chen, Doolen, Fields Inst. Commun. 6, 151, 1996): nu = nu0 + (C_s dx)^2 |S|
// with |S| = sqrt(2 S:S), the filter width one lattice spacing. The strain
// rate is read from the site's own non-equilibrium stress,
// Pi = sum c c (f - f_eq) = -2 rho cs2 tau S, so no neighbour is needed and
// the relaxation time solves tau = tau0 + C_s^2 |S| / cs2 in closed form:
//   tau = (tau0 + sqrt(tau0^2 + 18 sqrt(2) C_s^2 |Pi| / rho)) / 2,
// |Pi| = sqrt(Pi:Pi) (cs2 = 1/3). Pi is taken before collision with the
// velocity the collision uses. Guo's forcing adds -(u F + F u)/2 to the
// measured stress (a uniform flow accelerated by F has Pi = -(u F + F u)/2
// and no strain), so that is added back. No near-wall (van Driest)
// damping: at walls the eddy viscosity is that of the resolved shear.

#include <kolb/core/macros.hpp>
#include <kolb/core/static_for.hpp>

namespace kolb {

// |Pi|^2 = Pi:Pi of a site's populations f (before collision) with density
// rho and velocity u, Guo's part taken out: h is half the body acceleration
// (zeros without a force). Opposite populations share c c, so it sums the
// pairs.
template <class Lattice, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar nonequilibrium_stress_squared(const Scalar (&f)[Lattice::q],
                                                                 Scalar rho, const Scalar (&u)[3],
                                                                 const Scalar (&h)[3]) {
  constexpr int D = Lattice::dim;
  // xx, yy, zz, xy, xz, yz
  Scalar p[6] = {0, 0, 0, 0, 0, 0};
  static_for<Lattice::q>([&](auto k) KOLB_INLINE_LAMBDA {
    constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
    if constexpr (i < o) {
      constexpr int cx = Lattice::c(i, 0), cy = Lattice::c(i, 1), cz = Lattice::c(i, 2);
      const Scalar s = f[i] + f[o];
      if constexpr (cx != 0) p[0] += s;
      if constexpr (cy != 0) p[1] += s;
      if constexpr (cz != 0) p[2] += s;
      if constexpr (cx * cy != 0) p[3] += cx * cy > 0 ? s : -s;
      if constexpr (cx * cz != 0) p[4] += cx * cz > 0 ? s : -s;
      if constexpr (cy * cz != 0) p[5] += cy * cz > 0 ? s : -s;
    }
  });
  constexpr Scalar cs2 = Scalar(Lattice::cs2());
  // Pi_ab = p_ab - rho (cs2 delta_ab + u_a u_b) + rho (u_a h_b + h_a u_b)
  const auto pi = [&](int k, int a, int b) KOLB_INLINE_LAMBDA {
    return p[k] - rho * (u[a] * (u[b] - h[b]) - h[a] * u[b] + (a == b ? cs2 : Scalar(0)));
  };
  Scalar sum = 0;
  for (int a = 0; a < D; ++a) {
    const Scalar d = pi(a, a, a);
    sum += d * d;
  }
  const Scalar xy = pi(3, 0, 1);
  sum += Scalar(2) * xy * xy;
  if constexpr (D == 3) {
    const Scalar xz = pi(4, 0, 2), yz = pi(5, 1, 2);
    sum += Scalar(2) * (xz * xz + yz * yz);
  }
  return sum;
}

// The relaxation time of a site: tau0 raised by the eddy viscosity.
// `factor`: smagorinsky_factor; pi2 = |Pi|^2.
template <class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar smagorinsky_tau(Scalar tau0, Scalar factor, Scalar rho,
                                                   Scalar pi2) {
  const Scalar q = math::sqrt(pi2);
  return Scalar(0.5) * (tau0 + math::sqrt(math::fma(tau0, tau0, factor * q / rho)));
}

// The factor of |Pi| / rho under the root: tau (tau - tau0) = C_s^2 |S| tau / cs2
// with |S| tau = sqrt(2) |Pi| / (2 rho cs2), so 4 C_s^2 sqrt(2) / (2 cs2^2) =
// 2 sqrt(2) C_s^2 / cs2^2 (18 sqrt(2) C_s^2 where cs2 = 1/3).
inline double smagorinsky_factor(double c_s, double cs2) {
  return 2 * 1.4142135623730951 * c_s * c_s / (cs2 * cs2);
}

}  // namespace kolb
