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

#include <kolb/core/macros.hpp>
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
  // Gathering the 37 inputs first made gcc spill them (and the 37 outputs;
  // docs/performance.md, "D2Q37").
  // Both sums go one mirror orbit at a time (hermite.hpp): a term sees an
  // orbit's 2 or 4 populations through one of their 4 parity sums, and an
  // orbit's outputs are 4 parity sums of terms, each used by all of them;
  // that executes 2.3x fewer operations than a term per population.
  static constexpr bool streams = Regularized;
  KOLB_EXEC_CHECK_DISABLE
  template <class Get, class Put>
  KOKKOS_FORCEINLINE_FUNCTION void streamed(const Get& get, const Put& put) const {
    using namespace thermal;
    using math::fma;
    // Hermite projections m_t = sum_i f_i term_t(xi_i); zero terms skipped.
    Scalar m[kTerms] = {};
    static_for<kOrbits>([&](auto o) KOLB_INLINE_LAMBDA {
      constexpr int r = orbit_rep(decltype(o)::value);
      Scalar s[2][2];  // s[px][py] = sum over the orbit of (+-1)^parity f
      parity_sums<r>(get, s);
      static_for<kTerms>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int t = decltype(q)::value;
        constexpr double h = term(r, t);
        const Scalar& v = s[term_parity(t, 0)][term_parity(t, 1)];
        if constexpr (h == 1)
          m[t] += v;
        else if constexpr (h != 0)
          m[t] = fma(Scalar(h), v, m[t]);
      });
    });
    const Scalar rho = m[0], jx = m[1], jy = m[2];
    const Scalar inv_rho = Scalar(1) / rho;
    const Scalar ux0 = jx * inv_rho, uy0 = jy * inv_rho;
    // tr a2 = sum |xi|^2 f - 2 rho = 2 rho T + rho |u|^2 - 2 rho
    const Scalar T0 =
        Scalar(0.5) * (m[3] + m[5]) * inv_rho + Scalar(1) - Scalar(0.5) * (ux0 * ux0 + uy0 * uy0);
    // 1 / tau_n = p / (tau_const p + tau_per_pressure), p = rho T, and tau1
    // (order 2's tau, which shifts u and T by the force): four divisions that
    // depend on p alone and overlap. Through 1/p and then tau1 = 1/relax_0
    // they were up to four in a row, which ran slower.
    const Scalar p = rho * T0;
    Scalar keep[3], relax[3];  // b_n = keep_n a_n + relax_n a_n^eq
    for (int n = 0; n < 3; ++n) {
      relax[n] = p / fma(tau_const[n], p, tau_per_pressure[n]);
      keep[n] = Scalar(1) - relax[n];
    }
    const Scalar tau1 = tau_const[0] + tau_per_pressure[0] / p;
    const Scalar ux = ux0 + tau1 * gdt[0], uy = uy0 + tau1 * gdt[1];
    const Scalar g2 = gdt[0] * gdt[0] + gdt[1] * gdt[1];
    const Scalar T = T0 + Scalar(0.5) * tau1 * (Scalar(1) - tau1) * g2;
    Scalar e2[3], e3[4], e4[5];
    equilibrium_coefficients(rho, ux, uy, T, e2, e3, e4);
    // The post-collision coefficients, with the 1/n! multiplicities folded in.
    m[1] = jx + rho * gdt[0];
    m[2] = jy + rho * gdt[1];
    for (int k = 0; k < 3; ++k) m[3 + k] = Scalar(m2(k)) * (keep[0] * m[3 + k] + relax[0] * e2[k]);
    for (int k = 0; k < 4; ++k) m[6 + k] = Scalar(m3(k)) * (keep[1] * m[6 + k] + relax[1] * e3[k]);
    for (int k = 0; k < 5; ++k)
      m[10 + k] = Scalar(m4(k)) * (keep[2] * m[10 + k] + relax[2] * e4[k]);
    // f_i = w_i sum_t m_t term_t(xi_i), by orbit: e[px][py] sums the terms of
    // one parity on the representative.
    static_for<kOrbits>([&](auto o) KOLB_INLINE_LAMBDA {
      constexpr int r = orbit_rep(decltype(o)::value);
      Scalar e[2][2];
      static_for<kTerms>([&](auto q) KOLB_INLINE_LAMBDA {
        constexpr int t = decltype(q)::value, px = term_parity(t, 0), py = term_parity(t, 1);
        constexpr double h = term(r, t);
        if constexpr (t == first_term(r, px, py))
          e[px][py] = h == 1 ? m[t] : Scalar(h) * m[t];
        else if constexpr (h != 0)
          e[px][py] = fma(Scalar(h), m[t], e[px][py]);
      });
      put_orbit<r>(put, e);
    });
  }

  // The parity sums of orbit r's populations (hermite.hpp), read with get.
  KOLB_EXEC_CHECK_DISABLE
  template <int r, class Get>
  KOKKOS_FORCEINLINE_FUNCTION static void parity_sums(const Get& get, Scalar (&s)[2][2]) {
    using thermal::index_of;
    constexpr int a = D2Q37::c(r, 0), b = D2Q37::c(r, 1);
    if constexpr (a != 0 && b != 0) {
      const Scalar fpp = get(r), fmp = get(index_of(-a, b));
      const Scalar fpm = get(index_of(a, -b)), fmm = get(D2Q37::opposite(r));
      const Scalar p = fpp + fmp, q = fpm + fmm, dp = fpp - fmp, dq = fpm - fmm;
      s[0][0] = p + q, s[0][1] = p - q, s[1][0] = dp + dq, s[1][1] = dp - dq;
    } else if constexpr (a != 0 || b != 0) {  // on an axis: terms odd in the other component vanish
      const Scalar fp = get(r), fm = get(D2Q37::opposite(r));
      s[0][0] = fp + fm;
      s[a != 0][b != 0] = fp - fm;
    } else {
      s[0][0] = get(r);
    }
  }

  // Writes orbit r's populations from its parity sums e (each times w).
  KOLB_EXEC_CHECK_DISABLE
  template <int r, class Put>
  KOKKOS_FORCEINLINE_FUNCTION static void put_orbit(const Put& put, const Scalar (&e)[2][2]) {
    using thermal::index_of;
    constexpr int a = D2Q37::c(r, 0), b = D2Q37::c(r, 1);
    const Scalar w = Scalar(D2Q37::w(r));
    if constexpr (a != 0 && b != 0) {
      const Scalar p = e[0][0] + e[0][1], dp = e[1][0] + e[1][1];
      const Scalar q = e[0][0] - e[0][1], dq = e[1][0] - e[1][1];
      put(r, w * (p + dp));
      put(index_of(-a, b), w * (p - dp));
      put(index_of(a, -b), w * (q + dq));
      put(D2Q37::opposite(r), w * (q - dq));
    } else if constexpr (a != 0 || b != 0) {
      const Scalar& odd = e[a != 0][b != 0];
      put(r, w * (e[0][0] + odd));
      put(D2Q37::opposite(r), w * (e[0][0] - odd));
    } else {
      put(r, w * e[0][0]);
    }
  }
};

}  // namespace kolb
