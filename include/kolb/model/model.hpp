#pragma once
// What every model gives the kernels (IsothermalModel and ThermalModel are
// the two; kernels never ask which lattice they run):
//  - operator()(f): the collision of one site's populations, in registers;
//  - fields(f): the physical fields (SiteFields) of a site's stored populations;
//  - equilibrium(i, fields): population i of the stored state with those fields;
//  - wall_rows(): rows next to the y walls that the model's own wall
//    treatment completes (max_wall_rows = 0: bounce-back only; else also
//    wall_kernel(block) and wall_model(), the rows' collision);
//  - has_temperature, in_place_streaming: what the model outputs and runs.

#include <kolb/block/storage.hpp>
#include <kolb/core/macros.hpp>

namespace kolb {

template <class T>
struct SiteFields {
  T rho = 0;
  T u[3] = {0, 0, 0};
  T temperature = 0;  // models with a temperature (D2Q37: T^H); 0 otherwise
};

// The part every model shares: its lattice, arithmetic type, collision, and
// the variant's scalar S (block/storage.hpp: how populations are stored).
template <class Lattice, class Scalar, class Collision, class S = Scalar>
struct CollisionModel {
  using lattice_type = Lattice;
  using value_type = Scalar;
  using scalar_type = S;

  Collision collision;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Lattice::q]) const { collision(f); }
};

}  // namespace kolb
