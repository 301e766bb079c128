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

// The x rows a reduction reads: those whose global coordinates have
// y + z = phase (mod every). The run loop's stability checks between
// observables rows read one row in `every` and rotate `phase`, so each costs
// a fraction of a step, a NaN reaches the sampled rows within a few steps
// wherever it starts (every direction with a y or z component carries it),
// and every row is read once per `every` checks, however the lattice is cut
// into parts. every = 1: all rows.
struct RowSample {
  int every = 1, phase = 0;
  // Added to a block's (y, z) to make them global: its origin less its halos.
  int offset = 0;
  KOKKOS_INLINE_FUNCTION bool takes(int y, int z) const {
    return every == 1 || (y + z + offset) % every == phase;
  }
  // The same rows in a block whose (y, z) are the global ones less `shift`.
  RowSample shifted(int shift) const {
    return {every, phase, ((offset + shift) % every + every) % every};
  }
};

}  // namespace kolb
