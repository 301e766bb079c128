#pragma once
// BGK (single relaxation time): every moment relaxes at omega = 1/tau. A
// relaxation policy of IsothermalCollision (isothermal_collision.hpp).

#include <kolb/model/relaxation.hpp>

namespace kolb {

template <class Scalar>
struct BgkRates {
  static constexpr bool two_rates = false;
  static constexpr bool local_rates = false;  // LES: TrtRates (trt.hpp)
  Scalar omega = 1;                           // 1 / tau

  KOKKOS_FORCEINLINE_FUNCTION Scalar even() const { return omega; }
  KOKKOS_FORCEINLINE_FUNCTION Scalar odd() const { return omega; }
  // BGK has no parameter beyond tau (the viscosity cs2 (tau - 1/2)).
  static std::vector<CollisionParameter> parameters() { return {}; }
  void set(double tau, const std::vector<double>&) { omega = Scalar(1.0 / tau); }
};
template <>
struct RatesOf<Collision::bgk> {
  template <class Scalar>
  using type = BgkRates<Scalar>;
};

}  // namespace kolb
