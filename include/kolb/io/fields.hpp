#pragma once
// Host data of a case: HostFields, the physical fields of the interior
// (compact index x + nx (y + ny z): what VTK files hold and initial states
// are), and the set-up of a case: the materials of every site and the
// initial fields. Set-up runs once, before any kernel.

#include <kolb/block/extents.hpp>
#include <kolb/block/materials.hpp>
#include <kolb/io/case.hpp>

#include <array>
#include <vector>

namespace kolb {

struct HostFields {
  std::array<int, 3> n{1, 1, 1};
  std::vector<double> rho;          // 0 on solid sites
  std::vector<double> u;            // 3 values per site
  std::vector<double> temperature;  // models with a temperature (D2Q37: T^H); else empty
  std::vector<material_t> material;
  std::size_t index(int x, int y, int z) const {
    return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * z);
  }
  std::size_t size() const { return std::size_t(n[0]) * n[1] * n[2]; }
};

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
