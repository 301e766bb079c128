#pragma once
// model_t<Lattice, Scalar, Collision>: the model a compiled variant runs.
// Isothermal lattices run IsothermalModel with the collision's relaxation
// policy (RatesOf) and Guo forcing; D2Q37 runs ThermalModel with its bgk or
// regularised collision. One include per relaxation policy.

#include <kolb/core/variant.hpp>
#include <kolb/model/bgk.hpp>
#include <kolb/model/isothermal.hpp>
#include <kolb/model/thermal.hpp>
#include <kolb/model/trt.hpp>

namespace kolb {

template <class Lattice, class Scalar, Collision C>
struct ModelFor {
  static_assert(C != Collision::regularized,
                "regularized is D2Q37's; isothermal lattices: bgk, trt");
  // An isothermal collision is its relaxation policy: RatesOf<C> (bgk.hpp, trt.hpp).
  using type = IsothermalModel<Lattice, Scalar, RatesOf<C>::template type>;
};
template <class Scalar, Collision C>
struct ModelFor<D2Q37, Scalar, C> {
  static_assert(std::is_floating_point<Scalar>::value, "D2Q37 stores populations as computed");
  using type = ThermalModel<Scalar, C == Collision::regularized>;
};
template <class Lattice, class Scalar, Collision C>
using model_t = typename ModelFor<Lattice, Scalar, C>::type;

}  // namespace kolb
