#pragma once
// LatticeInfo: what the input layer and the driver know about a lattice and
// its model without instantiating a kernel. One row per lattice, generated
// from the descriptors and the model types (src/lattice_info.cpp).

#include <kolb/core/variant.hpp>

#include <cmath>
#include <vector>

namespace kolb {

struct LatticeInfo {
  LatticeId id = LatticeId::D2Q9;
  int dim = 2, q = 9, halo = 1;
  int crossing = 3;          // populations crossing a face (c_x > 0), the same on every axis
  double cs2 = 1.0 / 3;      // lattice units
  double velocity_unit = 1;  // model velocities are this times lattice velocities (D2Q37: r)
  bool has_temperature = false;
  bool in_place_streaming = true;  // the AA scheme (execution.streaming: aa)
  int wall_rows = 0;               // rows next to y walls the model's wall treatment owns
  std::vector<Collision> collisions;

  // Sound speed in the model's velocity units: the Mach scale of inputs and
  // the speed beyond which a run counts as unstable.
  double sound_speed() const { return std::sqrt(cs2) * velocity_unit; }
};

const LatticeInfo& lattice_info(LatticeId lattice);
// The collisions of the isothermal or the thermal model (core/collisions.def).
std::vector<Collision> collisions_of(bool thermal);
// The YAML keys of a collision beyond tau (isothermal collisions: its
// relaxation policy's; D2Q37's read their own).
std::vector<CollisionParameter> collision_parameters(Collision collision);

}  // namespace kolb
