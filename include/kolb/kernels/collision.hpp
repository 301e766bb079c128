#pragma once
// The collision each lattice runs: BGK with Guo forcing for the isothermal
// lattices (kernels/bgk.hpp), the thermal shifted-field collision for D2Q37
// (thermal/thermal_collision.hpp). Kernels name it collision_t<L, S>.

#include <kolb/kernels/bgk.hpp>
#include <kolb/thermal/thermal_collision.hpp>

namespace kolb {

template <class Lattice, class Scalar>
struct CollisionFor {
  using type = BGK<Lattice, Scalar>;
};
template <class Scalar>
struct CollisionFor<D2Q37, Scalar> {
  using type = ThermalCollision<Scalar>;
};
template <class Lattice, class Scalar>
using collision_t = typename CollisionFor<Lattice, Scalar>::type;

}  // namespace kolb
