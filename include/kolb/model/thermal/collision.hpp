#pragma once
// ThermalCollision: the D2Q37 collision with gravity through shifted fields
// (docs/reference/d2q37.md §5-§6), on one site's populations in registers.
//  - bgk: f <- f - (f - f^eq(rho, u + tau g dt, T + tau (1 - tau) |g dt|^2 / 2)) / tau
//  - regularized: Hermite coefficients of orders 2, 3, 4 relax with their own
//    tau_n (tau_n = a_n + b_n / (rho T): constant, or the authors'
//    1/2 + C_n / (rho T)), order 1 gains F = rho g dt, and the populations
//    are rebuilt from orders 0-4 only (orders 5-8 dropped).
// Both add exactly rho g dt to the momentum and leave rho T unchanged. The
// choice is a template parameter, so the per-site body has no branch and
// the compiler vectorises it across sites.

#include <kolb/model/thermal/hermite.hpp>

namespace kolb {

template <class Scalar, bool Regularized>
struct ThermalCollision {
  static constexpr int Q = D2Q37::q;

  // tau of Hermite orders 2, 3, 4 = tau_const[n] + tau_per_pressure[n] / (rho T);
  // BGK uses tau_const[0].
  Scalar tau_const[3] = {1, 1, 1};
  Scalar tau_per_pressure[3] = {0, 0, 0};
  Scalar gdt[3] = {0, 0, 0};  // velocity gained per step, g dt (model units)

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Q]) const {
    if constexpr (Regularized) {
      regularized_step(f);
    } else {
      bgk_step(f);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void bgk_step(Scalar (&f)[Q]) const {
    using namespace thermal;
    using math::fma;
    const auto st = site_state<Scalar>([&](int i) { return f[i]; });
    const Scalar tau = tau_const[0];
    const Scalar inv_tau = Scalar(1) / tau;
    const Scalar keep = Scalar(1) - inv_tau;
    const Scalar inv_rho = Scalar(1) / st.rho;
    const Scalar ux = fma(st.jx, inv_rho, tau * gdt[0]);
    const Scalar uy = fma(st.jy, inv_rho, tau * gdt[1]);
    const Scalar g2 = fma(gdt[0], gdt[0], gdt[1] * gdt[1]);
    const Scalar th = st.T + Scalar(0.5) * tau * (Scalar(1) - tau) * g2 - Scalar(1);
    const Scalar U = fma(ux, ux, uy * uy);
    // f^eq / (w rho) = P0(C) + s (P1(C) + s (P2(C) + s (1/6 + s/24))), with
    // s = xi.u, C = |xi|^2 and P0..P2 polynomials in C (the expanded form of
    // hermite.hpp regrouped by powers of s), evaluated once per shell.
    const Scalar a0 = Scalar(1) - Scalar(0.5) * U + Scalar(0.125) * U * U - th + th * U + th * th;
    const Scalar a1 = Scalar(0.5) * th - Scalar(0.25) * th * U - th * th;
    const Scalar a2 = Scalar(0.125) * th * th;
    const Scalar b0 = Scalar(1) - Scalar(0.5) * U - Scalar(2) * th, b1 = Scalar(0.5) * th;
    const Scalar c0 = Scalar(0.5) - Scalar(0.25) * U - Scalar(1.5) * th, c1 = Scalar(0.25) * th;
    const Scalar rho_relax = st.rho * inv_tau;
    Scalar p0[11], p1[11], p2[11], wr[11];  // by shell |c|^2 (0..10; 3, 6, 7 unused)
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value;
      constexpr int shell = D2Q37::c(i, 0) * D2Q37::c(i, 0) + D2Q37::c(i, 1) * D2Q37::c(i, 1);
      // The lowest-index population of each shell fills that shell's entries.
      if constexpr (first_of_shell(i)) {
        constexpr double C = xi2(i);
        p0[shell] = fma(fma(a2, Scalar(C), a1), Scalar(C), a0);
        p1[shell] = fma(b1, Scalar(C), b0);
        p2[shell] = fma(c1, Scalar(C), c0);
        wr[shell] = Scalar(D2Q37::w(i)) * rho_relax;
      }
    });
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value;
      constexpr int shell = D2Q37::c(i, 0) * D2Q37::c(i, 0) + D2Q37::c(i, 1) * D2Q37::c(i, 1);
      constexpr double x = xi(i, 0), y = xi(i, 1);
      Scalar s;
      if constexpr (x == 0)
        s = Scalar(y) * uy;
      else if constexpr (y == 0)
        s = Scalar(x) * ux;
      else
        s = fma(Scalar(x), ux, Scalar(y) * uy);
      Scalar poly = fma(s, Scalar(1.0 / 24), Scalar(1.0 / 6));
      poly = fma(poly, s, p2[shell]);
      poly = fma(poly, s, p1[shell]);
      poly = fma(poly, s, p0[shell]);
      f[i] = fma(f[i], keep, wr[shell] * poly);  // f - (f - f^eq) / tau
    });
  }

  // Whether population i is the lowest index of its shell (|c|^2).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr bool first_of_shell(int i) {
    const int shell = D2Q37::c(i, 0) * D2Q37::c(i, 0) + D2Q37::c(i, 1) * D2Q37::c(i, 1);
    for (int k = 0; k < i; ++k)
      if (D2Q37::c(k, 0) * D2Q37::c(k, 0) + D2Q37::c(k, 1) * D2Q37::c(k, 1) == shell) return false;
    return true;
  }

  KOKKOS_FORCEINLINE_FUNCTION void regularized_step(Scalar (&f)[Q]) const {
    streamed([&](int i) { return f[i]; }, [&](int i, Scalar v) { f[i] = v; });
  }

  // The regularised collision as a stream (model.hpp, CollisionModel::collide):
  // each input feeds the Hermite sums as it is read and each output is
  // written as it is rebuilt, so a fused kernel holds ~20 sums in registers.
  // Gathering the 37 inputs first made gcc spill them (and the 37 outputs):
  // ~300 stack moves per 8 sites (docs/performance.md, "D2Q37").
  static constexpr bool streams = Regularized;
  template <class Get, class Put>
  KOKKOS_FORCEINLINE_FUNCTION void streamed(const Get& get, const Put& put) const {
    using namespace thermal;
    using math::fma;
    Scalar rho = 0, jx = 0, jy = 0, a2[3] = {0, 0, 0}, a3[4] = {0, 0, 0, 0},
           a4[5] = {0, 0, 0, 0, 0};
    // Hermite projections a_n = sum_i f_i H_n(xi_i); zero coefficients skipped.
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value;
      const Scalar fi = get(i);
      rho += fi;
      if constexpr (xi(i, 0) != 0) jx = fma(Scalar(xi(i, 0)), fi, jx);
      if constexpr (xi(i, 1) != 0) jy = fma(Scalar(xi(i, 1)), fi, jy);
      static_for<3>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h2(i, k);
        if constexpr (h != 0) a2[k] = fma(Scalar(h), fi, a2[k]);
      });
      static_for<4>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h3(i, k);
        if constexpr (h != 0) a3[k] = fma(Scalar(h), fi, a3[k]);
      });
      static_for<5>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h4(i, k);
        if constexpr (h != 0) a4[k] = fma(Scalar(h), fi, a4[k]);
      });
    });
    const Scalar inv_rho = Scalar(1) / rho;
    const Scalar ux0 = jx * inv_rho, uy0 = jy * inv_rho;
    // tr a2 = sum |xi|^2 f - 2 rho = 2 rho T + rho |u|^2 - 2 rho
    const Scalar T0 =
        Scalar(0.5) * (a2[0] + a2[2]) * inv_rho + Scalar(1) - Scalar(0.5) * (ux0 * ux0 + uy0 * uy0);
    const Scalar inv_p = Scalar(1) / (rho * T0);
    Scalar keep[3], relax[3];  // b_n = keep_n a_n + relax_n a_n^eq
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
    // Fold the 1/n! multiplicities in once per site.
    for (int k = 0; k < 3; ++k) a2[k] = Scalar(m2(k)) * (keep[0] * a2[k] + relax[0] * e2[k]);
    for (int k = 0; k < 4; ++k) a3[k] = Scalar(m3(k)) * (keep[1] * a3[k] + relax[1] * e3[k]);
    for (int k = 0; k < 5; ++k) a4[k] = Scalar(m4(k)) * (keep[2] * a4[k] + relax[2] * e4[k]);
    const Scalar bx = jx + rho * gdt[0], by = jy + rho * gdt[1];
    // f_i = w_i sum_n a_n : H_n(xi_i) / n! over orders 0..4.
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value;
      Scalar v = rho;
      if constexpr (xi(i, 0) != 0) v = fma(Scalar(xi(i, 0)), bx, v);
      if constexpr (xi(i, 1) != 0) v = fma(Scalar(xi(i, 1)), by, v);
      static_for<3>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h2(i, k);
        if constexpr (h != 0) v = fma(Scalar(h), a2[k], v);
      });
      static_for<4>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h3(i, k);
        if constexpr (h != 0) v = fma(Scalar(h), a3[k], v);
      });
      static_for<5>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int k = decltype(q)::value;
        constexpr double h = h4(i, k);
        if constexpr (h != 0) v = fma(Scalar(h), a4[k], v);
      });
      constexpr double w = D2Q37::w(i);
      put(i, Scalar(w) * v);
    });
  }
};

}  // namespace kolb
