#pragma once
// Where a line along x crosses a closed triangle surface: the arithmetic
// that tells inside from outside, written once for the host's queries
// (io/surface_mesh.hpp) and for the voxeliser's kernels on any execution
// space. Plain pointers into one memory space, so that a copy of the
// struct is all a kernel needs; no contraction (the build's
// KOLB_IEEE_ORDER), so every space gets the same bits.

#include <kolb/core/macros.hpp>

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>

namespace kolb {

// A surface's triangles binned by the unit column (floor y, floor z) their
// bounds reach. Triangle t's vertex k has coordinate a at
// triangles[9 t + 3 k + a]; column (j, k), counted from lo, holds
// list[start[c] .. start[c + 1]) with c = k cols[0] + j.
struct MeshColumns {
  const double* triangles = nullptr;
  const std::size_t* start = nullptr;
  const std::uint32_t* list = nullptr;
  int lo[2] = {0, 0}, cols[2] = {0, 0};

  // Calls f(x) for each x at which the line (·, y, z) crosses a triangle,
  // in the bin's order; returns how many. A line through an edge or vertex
  // counts it once where the surface passes through and twice or not at
  // all where it only touches, by a tie rule both triangles of an edge
  // agree on.
  KOLB_EXEC_CHECK_DISABLE
  template <class F>
  KOKKOS_INLINE_FUNCTION int for_each(double y, double z, const F& f) const {
    const long j = floor_of(y) - lo[0], k = floor_of(z) - lo[1];
    if (j < 0 || k < 0 || j >= cols[0] || k >= cols[1]) return 0;
    const std::size_t c = std::size_t(k) * std::size_t(cols[0]) + std::size_t(j);
    int count = 0;
    for (std::size_t n = start[c]; n < start[c + 1]; ++n) {
      double x = 0;
      if (crossing(triangles + 9 * std::size_t(list[n]), y, z, x)) f(x), ++count;
    }
    return count;
  }

  // Moves the line (y, z) where round-off leaves it an odd number of
  // crossings (a closed surface has an even one): by k 1e-9 sites, k = 1
  // to 3, until the count is even. Returns the count on the line it keeps.
  KOKKOS_INLINE_FUNCTION int settle(double& y, double& z) const {
    const double y0 = y, z0 = z;
    const double my = y0 < 0 ? (y0 < -1 ? -y0 : 1) : (y0 > 1 ? y0 : 1);
    const double mz = z0 < 0 ? (z0 < -1 ? -z0 : 1) : (z0 > 1 ? z0 : 1);
    int n = for_each(y, z, Ignore{});
    for (int k = 1; k <= 3 && n % 2 == 1; ++k) {
      y = y0 + 1e-9 * k * my, z = z0 + 0.7e-9 * k * mz;
      n = for_each(y, z, Ignore{});
    }
    return n;
  }

 private:
  struct Ignore {
    KOKKOS_INLINE_FUNCTION void operator()(double) const {}
  };
  KOKKOS_INLINE_FUNCTION static long floor_of(double v) {
    const long i = long(v);
    return double(i) > v ? i - 1 : i;
  }
  // (y, z) before (y', z'): the order that picks each edge's one direction.
  KOKKOS_INLINE_FUNCTION static bool before(const double* a, const double* b) {
    return a[1] < b[1] || (a[1] == b[1] && a[2] < b[2]);
  }
  // Twice the signed area of (p0, p1, (y, z)) projected on (y, z).
  KOKKOS_INLINE_FUNCTION static double side(const double* p0, const double* p1, double y,
                                            double z) {
    return (p1[1] - p0[1]) * (z - p0[2]) - (p1[2] - p0[2]) * (y - p0[1]);
  }
  // Whether the line (·, y, z) crosses triangle v (three vertices of three
  // coordinates); if so, x is where.
  KOKKOS_INLINE_FUNCTION static bool crossing(const double* v, double y, double z, double& x) {
    if (side(v, v + 3, v[7], v[8]) == 0) return false;  // edge-on: its neighbours count it
    // Each edge's side of (y, z), computed along the edge's one direction
    // (`before`), so both triangles of an edge get the same number. The
    // orientation is their sum's sign (not the vertices' own area), so a
    // sliver's edges and orientation cannot disagree. On an edge, the
    // triangle on the left of that direction holds the point: one of two
    // triangles meeting there, and one of a vertex's fan.
    double e[3];
    bool forward[3];
    for (int k = 0; k < 3; ++k) {
      const double* a = v + 3 * k;
      const double* b = v + 3 * ((k + 1) % 3);
      forward[k] = before(a, b);
      e[k] = forward[k] ? side(a, b, y, z) : -side(b, a, y, z);
    }
    const double sum = e[0] + e[1] + e[2];
    if (sum == 0) return false;
    for (int k = 0; k < 3; ++k) {
      const double s = sum > 0 ? e[k] : -e[k];
      if (!(s > 0 || (s == 0 && (forward[k] == (sum > 0))))) return false;
    }
    // Barycentric: edge k's share weighs the vertex opposite it.
    x = (e[0] * v[6] + e[1] * v[0] + e[2] * v[3]) / sum;
    return true;
  }
};

}  // namespace kolb
