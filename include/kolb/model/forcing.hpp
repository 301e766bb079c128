#pragma once
// Forcing policies of the isothermal collisions: how a body acceleration g
// (force F = rho g) enters a site's collision (isothermal_collision.hpp).
//  - NoForcing: none. The bulk rows of cases without a body force run it:
//    each Guo term at g = 0 is an exact zero added to a non-zero term, so it
//    gives GuoForcing's bits there with fewer instructions.
//  - GuoForcing (Guo, Zheng, Shi, Phys. Rev. E 65, 046308, 2002): the
//    velocity u = (sum f c + F/2) / rho, and the source
//    (1 - omega/2) w rho [(c - u).g / cs2 + (c.u)(c.g) / cs4], whose even
//    part relaxes with the even rate and odd part with the odd rate (TRT).
// A policy gives the collision the velocity, a site's coefficients (site)
// and the terms of the rest population (rest) and of each pair (pair).
// Each forms its sums itself, so that NoForcing adds no zero terms: x + 0
// is not x for x = -0, so a compiler keeps such an addition.

#include <kolb/core/macros.hpp>
#include <kolb/lattice/velocity_dot.hpp>

namespace kolb {

template <class Scalar>
struct NoForcing {
  struct Site {};

  // Whether any component of g is non-zero.
  bool forced() const { return false; }
  // u - j / rho: none.
  KOKKOS_FORCEINLINE_FUNCTION Scalar shift(int) const { return 0; }
  KOKKOS_FORCEINLINE_FUNCTION Scalar velocity(int, Scalar j, Scalar inv_rho) const {
    return j * inv_rho;
  }
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION Site site(Scalar, const Scalar (&)[3], Scalar, Scalar, Scalar) const {
    return {};
  }
  // The rest population's relaxation term w (rate eq).
  KOKKOS_FORCEINLINE_FUNCTION Scalar rest(Scalar w, Scalar rate, Scalar eq, const Site&) const {
    return w * (rate * eq);
  }
  // Pair I: `even` gains the forcing's even term, `odd` is the odd
  // equilibrium term w_odd rho/cs2 (c.u) plus the forcing's.
  template <class Lattice, int I>
  KOKKOS_FORCEINLINE_FUNCTION void pair(Scalar, Scalar cu, Scalar odd_rho, const Site&, Scalar&,
                                        Scalar& odd) const {
    odd = odd_rho * cu;
  }
};

template <class Scalar>
struct GuoForcing {
  Scalar g[3] = {0, 0, 0};  // body acceleration

  // A site's Guo coefficients: (1 - omega_even/2) rho / cs4 (the (c.u)(c.g)
  // term), -(1 - omega_even/2) rho (u.g) / cs2 (every even term), and
  // (1 - omega_odd/2) rho / cs2 (the odd (c.g) term).
  struct Site {
    Scalar cu, even0, odd;
  };

  bool forced() const { return g[0] != 0 || g[1] != 0 || g[2] != 0; }
  // u = j / rho + shift: half the acceleration of a step.
  KOKKOS_FORCEINLINE_FUNCTION Scalar shift(int a) const { return Scalar(0.5) * g[a]; }
  KOKKOS_FORCEINLINE_FUNCTION Scalar velocity(int a, Scalar j, Scalar inv_rho) const {
    return math::fma(j, inv_rho, shift(a));
  }
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION Site site(Scalar rho, const Scalar (&u)[3], Scalar omega_even,
                                        Scalar omega_odd, Scalar inv_cs2) const {
    Scalar ug = u[0] * g[0];
    ug = math::fma(u[1], g[1], ug);
    if constexpr (Lattice::dim == 3) ug = math::fma(u[2], g[2], ug);
    const Scalar even_scale = (Scalar(1) - Scalar(0.5) * omega_even) * rho;
    const Scalar odd_scale = (Scalar(1) - Scalar(0.5) * omega_odd) * rho;
    return {even_scale * (inv_cs2 * inv_cs2), -(even_scale * inv_cs2) * ug, odd_scale * inv_cs2};
  }
  KOKKOS_FORCEINLINE_FUNCTION Scalar rest(Scalar w, Scalar rate, Scalar eq, const Site& s) const {
    return w * math::fma(rate, eq, s.even0);
  }
  template <class Lattice, int I>
  KOKKOS_FORCEINLINE_FUNCTION void pair(Scalar w, Scalar cu, Scalar odd_rho, const Site& s,
                                        Scalar& even, Scalar& odd) const {
    const Scalar cg = velocity_dot<Lattice, I>(g);
    even += math::fma((w * s.cu) * cg, cu, w * s.even0);
    odd = math::fma(odd_rho, cu, (w * s.odd) * cg);
  }
};

}  // namespace kolb
