#pragma once
// BGK collision with Guo forcing, applied to one site's populations in
// registers. Velocity u = (sum f c + F/2) / rho, F = rho g.
//
// Written for the compiler to vectorise across sites at full width: every
// lattice constant is a literal (static_for), zero velocity components cost
// nothing (if constexpr), and opposite pairs share their even part (c.u)^2
// and differ only in the sign of the odd part c.u, which halves the
// equilibrium work. w omega scales the site's coefficients once per weight
// class, not each pair's terms (7 instead of 11 operations a pair). The
// arithmetic is explicit (math::fma, no compiler contraction), so every
// layout, kernel and device gives the same bits.
//
// Forced = false is the same collision with g = 0 and the Guo terms left
// out: each of them is then an exact zero added to a non-zero term, so it
// gives Forced's bits at g = 0 (test_lattice checks) with fewer
// instructions per site. Host bulk rows of cases without a body force take
// it (IsothermalModel::unforced, for_each_site_split).

#include <kolb/core/macros.hpp>
#include <kolb/core/static_for.hpp>

namespace kolb {

template <class Lattice, class Scalar, bool Forced = true>
struct BGK {
  Scalar omega = 1;         // 1 / tau
  Scalar g[3] = {0, 0, 0};  // body acceleration (read only when Forced)

  static constexpr int Q = Lattice::q;
  static constexpr int D = Lattice::dim;
  static constexpr Scalar inv_cs2 = Scalar(1.0 / Lattice::cs2());

  // Equilibrium of Hermite order 2 (initial states; any population index).
  KOKKOS_FORCEINLINE_FUNCTION static Scalar equilibrium(int i, Scalar rho, Scalar ux, Scalar uy,
                                                        Scalar uz) {
    const Scalar cu = Lattice::c(i, 0) * ux + Lattice::c(i, 1) * uy + Lattice::c(i, 2) * uz;
    const Scalar usq = ux * ux + uy * uy + uz * uz;
    return Scalar(Lattice::w(i)) * rho *
           (Scalar(1) + inv_cs2 * cu + Scalar(0.5) * inv_cs2 * inv_cs2 * cu * cu -
            Scalar(0.5) * inv_cs2 * usq);
  }

  // c_I . v for a moving population I, with its literal components: zeros
  // skipped, +-1 an add or a subtraction.
  template <int I>
  KOKKOS_FORCEINLINE_FUNCTION static Scalar dot(const Scalar (&v)[3]) {
    constexpr int c0 = Lattice::c(I, 0), c1 = Lattice::c(I, 1), c2 = Lattice::c(I, 2);
    if constexpr (c0 != 0) {
      Scalar s = c0 > 0 ? v[0] : -v[0];
      accumulate<c1>(s, v[1]);
      accumulate<c2>(s, v[2]);
      return s;
    } else if constexpr (c1 != 0) {
      Scalar s = c1 > 0 ? v[1] : -v[1];
      accumulate<c2>(s, v[2]);
      return s;
    } else {
      static_assert(c2 != 0, "dot of the rest population");
      return c2 > 0 ? v[2] : -v[2];
    }
  }

  // s += c d for a velocity component c in {-1, 0, 1}.
  template <int C>
  KOKKOS_FORCEINLINE_FUNCTION static void accumulate(Scalar& s, Scalar d) {
    if constexpr (C == 1) {
      s += d;
    } else if constexpr (C == -1) {
      s -= d;
    } else {
      static_assert(C == 0, "velocity components beyond +-1");
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Q]) const {
    using math::fma;
    // Moments from the pair sums and differences of f.
    Scalar rho = f[0], jx = 0, jy = 0, jz = 0;
    static_for<Q>([&](auto k) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      if constexpr (i < o) {
        rho += f[i] + f[o];
        const Scalar d = f[i] - f[o];
        accumulate<Lattice::c(i, 0)>(jx, d);
        accumulate<Lattice::c(i, 1)>(jy, d);
        accumulate<Lattice::c(i, 2)>(jz, d);
      }
    });
    const Scalar inv_rho = Scalar(1) / rho;
    // u = j / rho + g / 2 (u.g enters the Guo term).
    const Scalar u[3] = {Forced ? fma(jx, inv_rho, Scalar(0.5) * g[0]) : jx * inv_rho,
                         Forced ? fma(jy, inv_rho, Scalar(0.5) * g[1]) : jy * inv_rho,
                         D < 3    ? Scalar(0)
                         : Forced ? fma(jz, inv_rho, Scalar(0.5) * g[2])
                                  : jz * inv_rho};
    Scalar usq = u[0] * u[0], ug = Forced ? u[0] * g[0] : Scalar(0);
    usq = fma(u[1], u[1], usq);
    if constexpr (Forced) ug = fma(u[1], g[1], ug);
    if constexpr (D == 3) {
      usq = fma(u[2], u[2], usq);
      if constexpr (Forced) ug = fma(u[2], g[2], ug);
    }
    const Scalar keep = Scalar(1) - omega;
    // f_eq = w rho (1 - usq / (2 cs2) + (c.u)^2 / (2 cs4)) +- w rho (c.u) / cs2
    const Scalar rho_even = rho * fma(Scalar(-0.5) * inv_cs2, usq, Scalar(1));
    const Scalar rho_sq = rho * (Scalar(0.5) * inv_cs2 * inv_cs2);
    const Scalar rho_odd = rho * inv_cs2;
    // Guo: (1 - omega/2) rho w [ ((c - u).g) / cs2 + (c.u)(c.g) / cs4 ]
    //      even part (1 - omega/2) rho w [ (c.u)(c.g) / cs4 - u.g / cs2 ],
    //      odd part  (1 - omega/2) rho w (c.g) / cs2.
    // (computed only when Forced: the unforced collision reads none of them)
    Scalar guo_cu = 0, guo_even0 = 0, guo_odd = 0;
    if constexpr (Forced) {
      const Scalar force_scale = (Scalar(1) - Scalar(0.5) * omega) * rho;
      guo_cu = force_scale * (inv_cs2 * inv_cs2);
      guo_even0 = -(force_scale * inv_cs2) * ug;
      guo_odd = force_scale * inv_cs2;
    }
    // Rest population: c = 0.
    {
      constexpr Scalar w = Scalar(Lattice::w(0));
      f[0] = fma(keep, f[0], w * (Forced ? fma(omega, rho_even, guo_even0) : omega * rho_even));
    }
    static_for<Q>([&](auto k) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      if constexpr (i < o) {
        constexpr Scalar w = Scalar(Lattice::w(i));
        const Scalar cu = dot<i>(u);
        // w omega times the site's coefficients: the same products for every
        // pair of a weight class, which the compiler computes once.
        const Scalar wo = w * omega;
        Scalar even = fma(wo * rho_sq, cu * cu, wo * rho_even), odd;
        if constexpr (Forced) {
          const Scalar cg = dot<i>(g);
          even += fma((w * guo_cu) * cg, cu, w * guo_even0);
          odd = fma(wo * rho_odd, cu, (w * guo_odd) * cg);
        } else {
          odd = (wo * rho_odd) * cu;
        }
        f[i] = fma(keep, f[i], even + odd);
        f[o] = fma(keep, f[o], even - odd);
      }
    });
  }
};

}  // namespace kolb
