#pragma once
// The collision of the isothermal lattices, applied to one site's
// populations in registers: a relaxation policy (BgkRates, bgk.hpp;
// TrtRates, trt.hpp) times a forcing policy (NoForcing, GuoForcing,
// forcing.hpp). The equilibrium is Hermite order 2. A policy with local
// rates (TRT: Smagorinsky's LES) sets them per site from the stress.
//
// Both policies act on the even and odd parts of each pair of opposite
// populations i, o = opposite(i):
//   f_i' = keep f_i + cross f_o + w_e feq^+ + w_o feq^- (+ the forcing's terms)
// with keep = 1 - (w_e + w_o)/2 and cross = (w_o - w_e)/2, where w_e relaxes
// the even part (the viscosity: 1/tau) and w_o the odd part. One rate (BGK)
// has cross = 0 and keep = 1 - w_e; TRT with equal rates gives BGK's bits.
//
// Written for the compiler to vectorise across sites at full width: every
// lattice constant is a literal (static_for), zero velocity components cost
// nothing (if constexpr), and opposite pairs share their even part (c.u)^2
// and differ only in the sign of the odd part c.u, which halves the
// equilibrium work. w times a rate scales the site's coefficients once per
// weight class, not each pair's terms. The arithmetic is explicit
// (math::fma, no compiler contraction), so every layout, kernel and device
// gives the same bits.

#include <kolb/core/macros.hpp>
#include <kolb/core/static_for.hpp>
#include <kolb/lattice/velocity_dot.hpp>
#include <kolb/model/forcing.hpp>
#include <kolb/model/smagorinsky.hpp>

namespace kolb {

// Equilibrium of Hermite order 2 (initial states; any population index).
template <class Lattice, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar isothermal_equilibrium(int i, Scalar rho, Scalar ux, Scalar uy,
                                                          Scalar uz) {
  constexpr Scalar inv_cs2 = Scalar(1.0 / Lattice::cs2());
  const Scalar cu = Lattice::c(i, 0) * ux + Lattice::c(i, 1) * uy + Lattice::c(i, 2) * uz;
  const Scalar usq = ux * ux + uy * uy + uz * uz;
  return Scalar(Lattice::w(i)) * rho *
         (Scalar(1) + inv_cs2 * cu + Scalar(0.5) * inv_cs2 * inv_cs2 * cu * cu -
          Scalar(0.5) * inv_cs2 * usq);
}

template <class Lattice, class Scalar, class Rates, class Forcing>
struct IsothermalCollision {
  Rates rates;
  Forcing forcing;

  static constexpr int Q = Lattice::q;
  static constexpr int D = Lattice::dim;
  static constexpr Scalar inv_cs2 = Scalar(1.0 / Lattice::cs2());

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Q]) const {
    using math::fma;
    // Moments from the pair sums and differences of f.
    Scalar rho = f[0], jx = 0, jy = 0, jz = 0;
    static_for<Q>([&](auto k) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      if constexpr (i < o) {
        rho += f[i] + f[o];
        const Scalar d = f[i] - f[o];
        impl::accumulate<Lattice::c(i, 0)>(jx, d);
        impl::accumulate<Lattice::c(i, 1)>(jy, d);
        impl::accumulate<Lattice::c(i, 2)>(jz, d);
      }
    });
    const Scalar inv_rho = Scalar(1) / rho;
    const Scalar u[3] = {forcing.velocity(0, jx, inv_rho), forcing.velocity(1, jy, inv_rho),
                         D < 3 ? Scalar(0) : forcing.velocity(2, jz, inv_rho)};
    Scalar usq = u[0] * u[0];
    usq = fma(u[1], u[1], usq);
    if constexpr (D == 3) usq = fma(u[2], u[2], usq);
    Scalar even_rate = rates.even(), odd_rate = rates.odd();
    if constexpr (Rates::local_rates) {
      const Scalar h[3] = {forcing.shift(0), forcing.shift(1), forcing.shift(2)};
      rates.site(rho, nonequilibrium_stress_squared<Lattice>(f, rho, u, h), even_rate, odd_rate);
    }
    const Scalar keep =
        Rates::two_rates ? Scalar(1) - Scalar(0.5) * (even_rate + odd_rate) : Scalar(1) - even_rate;
    // f_eq = w rho (1 - usq / (2 cs2) + (c.u)^2 / (2 cs4)) +- w rho (c.u) / cs2
    const Scalar rho_even = rho * fma(Scalar(-0.5) * inv_cs2, usq, Scalar(1));
    const Scalar rho_sq = rho * (Scalar(0.5) * inv_cs2 * inv_cs2);
    const Scalar rho_odd = rho * inv_cs2;
    const typename Forcing::Site site =
        forcing.template site<Lattice>(rho, u, even_rate, odd_rate, inv_cs2);
    // Rest population: c = 0, even only.
    {
      const Scalar keep0 = Rates::two_rates ? Scalar(1) - even_rate : keep;
      f[0] = fma(keep0, f[0], forcing.rest(Scalar(Lattice::w(0)), even_rate, rho_even, site));
    }
    [[maybe_unused]] const Scalar cross = Scalar(0.5) * (odd_rate - even_rate);  // two rates only
    static_for<Q>([&](auto k) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      if constexpr (i < o) {
        constexpr Scalar w = Scalar(Lattice::w(i));
        const Scalar cu = velocity_dot<Lattice, i>(u);
        // w times the rates: the same products for every pair of a weight
        // class, which the compiler computes once.
        const Scalar we = w * even_rate, wo = w * odd_rate;
        Scalar even = fma(we * rho_sq, cu * cu, we * rho_even), odd;
        forcing.template pair<Lattice, i>(w, cu, wo * rho_odd, site, even, odd);
        if constexpr (Rates::two_rates) {
          const Scalar fi = f[i];
          f[i] = fma(keep, f[i], fma(cross, f[o], even + odd));
          f[o] = fma(keep, f[o], fma(cross, fi, even - odd));
        } else {
          f[i] = fma(keep, f[i], even + odd);
          f[o] = fma(keep, f[o], even - odd);
        }
      }
    });
  }
};

}  // namespace kolb
