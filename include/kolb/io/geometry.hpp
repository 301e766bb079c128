#pragma once
// Host set-up of a case: the material of every storage site of the whole
// lattice and the initial physical fields. Runs once, before any kernel.

#include <kolb/block/extents.hpp>
#include <kolb/io/case.hpp>
#include <kolb/io/fields.hpp>

namespace kolb {

// Material ids of every storage site of `extents` (the whole lattice with
// its halos): walls in the halos of non-periodic faces, obstacles inside,
// periodic halos copied from the sites one period away; and the wall
// velocities.
struct Geometry {
  std::vector<material_t> material;
  MaterialTable table;
};
Geometry build_geometry(const Case& c, const Extents& extents);

// The case's initial rho, u (3 per site) and, for models with a
// temperature, T on the interior sites (else `temperature` stays empty).
HostFields initial_fields(const Case& c);

}  // namespace kolb
