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
  std::array<int, 3> origin{0, 0, 0};  // global coordinates of site (0, 0, 0) (MPI tiles)
  std::vector<double> rho;             // 0 on solid sites
  std::vector<double> u;               // 3 values per site
  std::vector<double> temperature;     // models with a temperature (D2Q37: T^H); else empty
  std::vector<material_t> material;
  std::size_t index(int x, int y, int z) const {
    return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * z);
  }
  std::size_t size() const { return std::size_t(n[0]) * n[1] * n[2]; }
  // Sized for `sites` per axis at `at` (temperature only when `thermal`),
  // every entry zero.
  void allocate(std::array<int, 3> sites, std::array<int, 3> at, bool thermal) {
    *this = HostFields();
    resize(sites, at, thermal);
  }
  // The same keeping the entries there are (for callers that write every
  // entry): no new memory where the size stays.
  void resize(std::array<int, 3> sites, std::array<int, 3> at, bool thermal) {
    n = sites;
    origin = at;
    rho.resize(size());
    u.resize(3 * size());
    temperature.resize(thermal ? size() : 0);
    material.resize(size());
  }
};

// Copies a box of `sites` from `from` at `from_at` into `to` at `to_at`
// (local coordinates of each; material only where both hold it).
inline void copy_box(const HostFields& from, std::array<int, 3> from_at, HostFields& to,
                     std::array<int, 3> to_at, std::array<int, 3> sites) {
  const bool thermal = !from.temperature.empty() && !to.temperature.empty();
  const bool material = !from.material.empty() && !to.material.empty();
  for (int z = 0; z < sites[2]; ++z)
    for (int y = 0; y < sites[1]; ++y)
      for (int x = 0; x < sites[0]; ++x) {
        const std::size_t s = from.index(x + from_at[0], y + from_at[1], z + from_at[2]);
        const std::size_t d = to.index(x + to_at[0], y + to_at[1], z + to_at[2]);
        to.rho[d] = from.rho[s];
        for (int a = 0; a < 3; ++a) to.u[3 * d + a] = from.u[3 * s + a];
        if (thermal) to.temperature[d] = from.temperature[s];
        if (material) to.material[d] = from.material[s];
      }
}

// Material ids of every storage site of `extents` (the whole lattice with
// its halos): walls in the halos of non-periodic faces, obstacles inside,
// periodic halos copied from the sites one period away; and the wall
// velocities. `body`: k + 1 on the sites of obstacle k (the last listed
// wins where they overlap), 0 elsewhere; the forces on bodies sum by it.
// `halfway`: 1 on the sites an obstacle with half-way walls holds (masks
// included), whichever owns them: no link into them is interpolated.
// Shapes reach across periodic faces (one period at most): a site is
// solid where a shape holds it or its image a period away. Across other
// faces they are clipped.
struct Geometry {
  std::vector<material_t> material;
  std::vector<std::uint8_t> body, halfway;
  MaterialTable table;
};
// The sites a rank's parts read: its tile [begin, end) and `margin` layers
// around it. build_geometry places STL meshes there only (each rank
// voxelises its own); the default, the whole lattice.
struct SiteRegion {
  std::array<int, 3> begin{0, 0, 0}, end{1 << 30, 1 << 30, 1 << 30};
  int margin = 0;
};
Geometry build_geometry(const Case& c, const Extents& extents, const SiteRegion& region = {});

// Whether the point p (lattice coordinates) lies in obstacle `o`'s shape
// (a box, sphere, cylinder or mesh; a mask: never). Periodic images are
// the caller's.
bool shape_holds(const Obstacle& o, const std::array<double, 3>& p, int dim);

// Where obstacle `o`'s surface cuts the link from a fluid site to the solid
// site whose centre is `solid` (lattice coordinates, a site's centre at
// index + 0.5) along c: the fraction q in (0, 1] of the link from the
// fluid centre (boundary/interpolated_bounce.hpp). A mask: 1/2.
double wall_fraction(const Obstacle& o, const std::array<double, 3>& solid, const int* c, int dim);

// The least wall_fraction of the link along c into the solid centre
// `solid` (inside the lattice) over the obstacles that hold it, at any
// periodic image; 1 where none does. Masks are skipped (half-way walls).
double link_fraction(const Case& c, const std::array<double, 3>& solid, const int* into);

// The case's initial rho, u (3 per site) and, for models with a
// temperature, T on the interior sites (else `temperature` stays empty).
HostFields initial_fields(const Case& c);

}  // namespace kolb
