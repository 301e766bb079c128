#pragma once
// A closed triangle surface placed in the lattice (lattice coordinates, a
// site's centre at index + 0.5), binned for the two questions the set-up
// asks: which points it holds (the voxeliser, by the parity of crossings
// along x) and where a link first meets it (interpolated walls).

#include <kolb/io/mesh_crossings.hpp>
#include <kolb/io/stl.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace kolb {

// Where a mesh goes: p -> R (scale * p) + offset, per axis scale, R the
// rotation about x, then y, then z, by the given angles in degrees
// (right-handed: 90 about z takes x to y).
struct MeshPlacement {
  Point3 scale{1, 1, 1}, rotate{0, 0, 0}, offset{0, 0, 0};
};

class SurfaceMesh {
 public:
  // The triangles placed; each vertex is moved by the same operations, so
  // the vertices triangles share stay equal bit for bit (the crossings'
  // tie rule relies on it). Queries need bin() first.
  SurfaceMesh(const std::vector<Triangle>& triangles, const MeshPlacement& place);
  // Bins the triangles for the queries within [lo, hi] (the lattice and its
  // periodic images): the bins never outgrow the region, whatever the
  // mesh's size. Queries outside it see no triangles.
  void bin(const Point3& lo, const Point3& hi);

  // The placed mesh's bounds: lo, hi per axis (not finite if a vertex is not).
  const Point3& lo() const { return m_lo; }
  const Point3& hi() const { return m_hi; }

  // The x where the line (·, y, z) crosses the surface, sorted, on the
  // line MeshColumns::settle keeps: parity tells inside from out.
  void crossings(double y, double z, std::vector<double>& xs) const;
  // The column bins, pointing into this mesh's host memory (after bin();
  // valid while the mesh lives), for the voxeliser to copy to its space.
  MeshColumns columns() const;
  // How many triangles; the column bins' list has columns().start[cols].
  std::size_t triangle_count() const { return m_triangles.size(); }
  // The placed triangles' coordinates, 9 a triangle (MeshColumns' order).
  const double* coordinates() const;
  // Whether p lies inside: an odd number of crossings below p's x.
  bool holds(const Point3& p) const;
  // The least t in [0, 1] at which from + t (to - from) meets a triangle,
  // or -1 where the segment meets none.
  double first_hit(const Point3& from, const Point3& to) const;

 private:
  std::vector<Triangle> m_triangles;
  Point3 m_lo{}, m_hi{};
  // Triangles by unit column (floor y, floor z) of their bounds (the
  // crossings), and by cubic cell of kCell sites (the links); as offsets
  // into one list each.
  static constexpr double kCell = 4;
  std::array<int, 2> m_col_lo{}, m_cols{};
  std::vector<std::size_t> m_col_start;
  std::vector<std::uint32_t> m_col_list;
  std::array<int, 3> m_cell_lo{}, m_cells{};
  std::vector<std::size_t> m_cell_start;
  std::vector<std::uint32_t> m_cell_list;
};

}  // namespace kolb
