#pragma once
// TRT (two relaxation times; Ginzburg, d'Humieres, Phys. Rev. E 68, 066614,
// 2003): the even part of each population pair relaxes at omega+ = 1/tau+,
// which sets the viscosity cs2 (tau+ - 1/2), and the odd part at
// omega- = 1/tau-, chosen through the magic parameter
// Lambda = (tau+ - 1/2)(tau- - 1/2). Lambda = 3/16 puts half-way
// bounce-back walls exactly half-way for Poiseuille flow at any tau+;
// Lambda = (tau - 1/2)^2 is BGK. A relaxation policy of IsothermalCollision
// (isothermal_collision.hpp).
//
// Its rates may vary per site: Smagorinsky's LES (smagorinsky.hpp) raises
// tau+ by the eddy viscosity and sets tau- from Lambda. BGK with LES runs
// here too, as TRT whose odd rate follows the even one (equal rates give
// BGK's bits), so LES costs no compiled unit of its own.

#include <kolb/model/relaxation.hpp>
#include <kolb/model/smagorinsky.hpp>

namespace kolb {

template <class Scalar>
struct TrtRates {
  static constexpr bool two_rates = true;
  static constexpr bool local_rates = true;
  Scalar omega = 1;      // 1 / tau+
  Scalar omega_odd = 1;  // 1 / tau-
  Scalar tau = 1;        // tau+ without eddy viscosity
  Scalar magic = 0;      // Lambda
  // 1: the odd rate equals the even one (BGK). A Scalar, not a bool: GCC
  // does not vectorise the site loops over a select on a bool member.
  Scalar equal_rates = 0;
  Scalar les = 0;  // smagorinsky_factor (0: no LES)

  KOKKOS_FORCEINLINE_FUNCTION Scalar even() const { return omega; }
  KOKKOS_FORCEINLINE_FUNCTION Scalar odd() const { return omega_odd; }
  // The rates of a site of density rho with |Pi|^2 = pi2 (before collision).
  // Selects, not branches: the site loops stay vectorised, and without LES
  // the rates keep their bits.
  KOKKOS_FORCEINLINE_FUNCTION void site(Scalar rho, Scalar pi2, Scalar& even, Scalar& odd) const {
    // Members read into values first: a select between a value and a
    // member became a select of addresses, and the loops went scalar.
    const Scalar factor = les, constant_even = omega, constant_odd = omega_odd;
    const Scalar lambda = magic, same = equal_rates;
    const Scalar t = smagorinsky_tau(tau, factor, rho, pi2), h = t - Scalar(0.5);
    const Scalar e = Scalar(1) / t;
    const Scalar o = same != Scalar(0) ? e : h / math::fma(Scalar(0.5), h, lambda);
    even = factor != Scalar(0) ? e : constant_even;
    odd = factor != Scalar(0) ? o : constant_odd;
  }
  static std::vector<CollisionParameter> parameters() {
    return {{"magic", 3.0 / 16,
             "Λ = (τ⁺ − ½)(τ⁻ − ½) > 0, which sets τ⁻; 3/16 puts "
             "bounce-back walls exactly half-way"}};
  }
  // No values: BGK's rates (BGK with LES, run by this policy).
  void set(double tau0, const std::vector<double>& p) {
    omega = Scalar(1.0 / tau0);
    omega_odd = p.empty() ? omega : Scalar(1.0 / (0.5 + p[0] / (tau0 - 0.5)));
    tau = Scalar(tau0);
    equal_rates = p.empty() ? Scalar(1) : Scalar(0);
    magic = p.empty() ? Scalar(0) : Scalar(p[0]);
  }
  // Smagorinsky's constant C_s (0: no LES).
  void smagorinsky(double c_s, double cs2) { les = Scalar(smagorinsky_factor(c_s, cs2)); }
};
template <>
struct RatesOf<Collision::trt> {
  template <class Scalar>
  using type = TrtRates<Scalar>;
};

}  // namespace kolb
