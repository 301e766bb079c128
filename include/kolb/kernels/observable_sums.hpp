#pragma once
// ObservableSums: global sums over fluid sites (mass, momentum, kinetic and
// internal energy, mean and max speed), in double whatever the storage
// precision. Filled by the Observables kernel, summed over a domain's parts.

#include <Kokkos_Macros.hpp>

namespace kolb {

struct ObservableSums {
  double mass = 0;
  double momentum[3] = {0, 0, 0};
  double kinetic_energy = 0;
  double internal_energy = 0;  // sum rho T^H (models with a temperature; 0 otherwise)
  double speed_sum = 0;
  double max_speed = 0;
  double fluid_sites = 0;

  KOKKOS_INLINE_FUNCTION void add(const ObservableSums& o) {
    mass += o.mass;
    for (int a = 0; a < 3; ++a) momentum[a] += o.momentum[a];
    kinetic_energy += o.kinetic_energy;
    internal_energy += o.internal_energy;
    speed_sum += o.speed_sum;
    // NaN must not be hidden by max(): it propagates through the speed,
    // and once there stays (a NaN compares false either way).
    if (max_speed == max_speed && !(o.max_speed <= max_speed)) max_speed = o.max_speed;
    fluid_sites += o.fluid_sites;
  }
  double mean_speed() const { return fluid_sites > 0 ? speed_sum / fluid_sites : 0.0; }
};

}  // namespace kolb
