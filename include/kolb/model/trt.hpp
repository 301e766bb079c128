#pragma once
// TRT (two relaxation times; Ginzburg, d'Humieres, Phys. Rev. E 68, 066614,
// 2003): the even part of each population pair relaxes at omega+ = 1/tau+,
// which sets the viscosity cs2 (tau+ - 1/2), and the odd part at
// omega- = 1/tau-, chosen through the magic parameter
// Lambda = (tau+ - 1/2)(tau- - 1/2). Lambda = 3/16 puts half-way
// bounce-back walls exactly half-way for Poiseuille flow at any tau+;
// Lambda = (tau - 1/2)^2 is BGK. A relaxation policy of IsothermalCollision
// (isothermal_collision.hpp).

#include <kolb/model/relaxation.hpp>

namespace kolb {

template <class Scalar>
struct TrtRates {
  static constexpr bool two_rates = true;
  Scalar omega = 1;      // 1 / tau+
  Scalar omega_odd = 1;  // 1 / tau-

  KOKKOS_FORCEINLINE_FUNCTION Scalar even() const { return omega; }
  KOKKOS_FORCEINLINE_FUNCTION Scalar odd() const { return omega_odd; }
  static std::vector<CollisionParameter> parameters() {
    return {{"magic", 3.0 / 16,
             "Λ = (τ⁺ − ½)(τ⁻ − ½) > 0, which sets τ⁻; 3/16 puts "
             "bounce-back walls exactly half-way"}};
  }
  void set(double tau, const std::vector<double>& p) {
    omega = Scalar(1.0 / tau);
    omega_odd = Scalar(1.0 / (0.5 + p.at(0) / (tau - 0.5)));
  }
};
template <>
struct RatesOf<Collision::trt> {
  template <class Scalar>
  using type = TrtRates<Scalar>;
};

}  // namespace kolb
