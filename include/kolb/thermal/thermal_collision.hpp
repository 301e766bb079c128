#pragma once
// ThermalCollision: the D2Q37 collision with gravity through shifted fields
// (d2q37.md §5-§6), on one site's populations in registers.
//  - bgk: f <- f - (f - f^eq(rho, u + tau g dt, T + tau (1 - tau) |g dt|^2 / 2)) / tau
//  - regularized: Hermite coefficients of orders 2, 3, 4 relax with their own
//    tau_n (tau_n = a_n + b_n / (rho T): constant, or the authors'
//    1/2 + C_n / (rho T)), order 1 gains F = rho g dt, and the populations
//    are rebuilt from orders 0-4 only (orders 5-8 dropped).
// Both add exactly rho g dt to the momentum and leave rho T unchanged.

#include <kolb/thermal/hermite.hpp>

namespace kolb {

template <class Scalar>
struct ThermalCollision {
  static constexpr int Q = D2Q37::q;

  bool regularized = false;
  // tau of Hermite orders 2, 3, 4 = tau_const[n] + tau_per_pressure[n] / (rho T);
  // BGK uses tau_const[0].
  Scalar tau_const[3] = {1, 1, 1};
  Scalar tau_per_pressure[3] = {0, 0, 0};
  Scalar gdt[3] = {0, 0, 0};  // velocity gained per step, g dt (model units)

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Q]) const {
    if (regularized)
      regularized_step(f);
    else
      bgk_step(f);
  }

  KOKKOS_FORCEINLINE_FUNCTION void bgk_step(Scalar (&f)[Q]) const {
    const auto st = thermal::site_state<Scalar>([&](int i) { return f[i]; });
    const Scalar tau = tau_const[0];
    const Scalar inv_tau = Scalar(1) / tau;
    const Scalar inv_rho = Scalar(1) / st.rho;
    const Scalar ux = st.jx * inv_rho + tau * gdt[0];
    const Scalar uy = st.jy * inv_rho + tau * gdt[1];
    const Scalar g2 = gdt[0] * gdt[0] + gdt[1] * gdt[1];
    const Scalar T = st.T + Scalar(0.5) * tau * (Scalar(1) - tau) * g2;
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i)
      f[i] = f[i] - inv_tau * (f[i] - thermal::equilibrium<Scalar>(i, st.rho, ux, uy, T));
  }

  KOKKOS_FORCEINLINE_FUNCTION void regularized_step(Scalar (&f)[Q]) const {
    using namespace thermal;
    Scalar rho = 0, jx = 0, jy = 0, a2[3] = {0, 0, 0}, a3[4] = {0, 0, 0, 0},
           a4[5] = {0, 0, 0, 0, 0};
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      const Scalar fi = f[i];
      rho += fi;
      jx += Scalar(xi(i, 0)) * fi;
      jy += Scalar(xi(i, 1)) * fi;
      KOLB_UNROLL
      for (int k = 0; k < 3; ++k) a2[k] += Scalar(h2(i, k)) * fi;
      KOLB_UNROLL
      for (int k = 0; k < 4; ++k) a3[k] += Scalar(h3(i, k)) * fi;
      KOLB_UNROLL
      for (int k = 0; k < 5; ++k) a4[k] += Scalar(h4(i, k)) * fi;
    }
    const Scalar inv_rho = Scalar(1) / rho;
    const Scalar ux0 = jx * inv_rho, uy0 = jy * inv_rho;
    // tr a2 = sum |xi|^2 f - 2 rho = 2 rho T + rho |u|^2 - 2 rho
    const Scalar T0 =
        Scalar(0.5) * (a2[0] + a2[2]) * inv_rho + Scalar(1) - Scalar(0.5) * (ux0 * ux0 + uy0 * uy0);
    const Scalar inv_p = Scalar(1) / (rho * T0);
    Scalar keep[3], relax[3];  // b_n = keep_n a_n + relax_n a_n^eq
    KOLB_UNROLL
    for (int n = 0; n < 3; ++n) {
      relax[n] = Scalar(1) / (tau_const[n] + tau_per_pressure[n] * inv_p);
      keep[n] = Scalar(1) - relax[n];
    }
    const Scalar tau1 = Scalar(1) / relax[0];
    const Scalar ux = ux0 + tau1 * gdt[0], uy = uy0 + tau1 * gdt[1];
    const Scalar g2 = gdt[0] * gdt[0] + gdt[1] * gdt[1];
    const Scalar T = T0 + Scalar(0.5) * tau1 * (Scalar(1) - tau1) * g2;
    Scalar e2[3], e3[4], e4[5];
    equilibrium_coefficients(rho, ux, uy, T, e2, e3, e4);
    KOLB_UNROLL
    for (int k = 0; k < 3; ++k) a2[k] = keep[0] * a2[k] + relax[0] * e2[k];
    KOLB_UNROLL
    for (int k = 0; k < 4; ++k) a3[k] = keep[1] * a3[k] + relax[1] * e3[k];
    KOLB_UNROLL
    for (int k = 0; k < 5; ++k) a4[k] = keep[2] * a4[k] + relax[2] * e4[k];
    const Scalar bx = jx + rho * gdt[0], by = jy + rho * gdt[1];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      Scalar v = rho + Scalar(xi(i, 0)) * bx + Scalar(xi(i, 1)) * by;
      KOLB_UNROLL
      for (int k = 0; k < 3; ++k) v += Scalar(m2(k) * h2(i, k)) * a2[k];
      KOLB_UNROLL
      for (int k = 0; k < 4; ++k) v += Scalar(m3(k) * h3(i, k)) * a3[k];
      KOLB_UNROLL
      for (int k = 0; k < 5; ++k) v += Scalar(m4(k) * h4(i, k)) * a4[k];
      f[i] = Scalar(D2Q37::w(i)) * v;
    }
  }
};

}  // namespace kolb
