#pragma once
// Extents: the box of lattice sites a block stores, interior plus halo layers.
// Storage coordinates run over [0, ext) on each axis; the interior starts at
// `halo`. Sites are numbered x-fastest.

#include <kolb/core/macros.hpp>

#include <algorithm>
#include <array>

namespace kolb {

// The axes in the order their halos are filled when `first`'s come first:
// first, then the others in order x, y, z.
inline std::array<int, 3> fill_order(int first) {
  std::array<int, 3> order{first, 0, 0};
  for (int a = 0, k = 1; a < 3; ++a)
    if (a != first) order[k++] = a;
  return order;
}

// Storage index of a site from storage coordinates (x fastest).
struct SiteIndex {
  index_t sy = 0, sz = 0;
  KOKKOS_INLINE_FUNCTION index_t operator()(int x, int y, int z) const {
    return x + sy * y + sz * z;
  }
};

struct Extents {
  std::array<int, 3> n{1, 1, 1};     // interior sites per axis
  std::array<int, 3> halo{0, 0, 0};  // halo layers per side and axis
  int dim = 2;
  int row_length = 1;  // stored sites per x row: ext(0) padded for the layout
  // The axis whose halos are filled first (a node's split axis: its faces
  // come from the neighbouring parts); the others follow in order x, y, z,
  // each over the halos of those before it, which fills edges and corners.
  int first_axis = 0;

  Extents() = default;
  // Halo of width `h` on each of the first `dim` axes (but x where `x_halo`
  // is false: rows that wrap x themselves, RowStorage::aligned_without_x_halo);
  // x rows padded to a multiple of `row_align` sites (a layout's vector
  // length; the padding sites are never updated nor read).
  Extents(std::array<int, 3> interior, int h, int dimension, int row_align = 1, int first = 0,
          bool x_halo = true)
      : n(interior), dim(dimension), first_axis(first) {
    for (int a = 0; a < dim; ++a) halo[a] = a == 0 && !x_halo ? 0 : h;
    for (int a = dim; a < 3; ++a) n[a] = 1;
    row_length = (ext(0) + row_align - 1) / row_align * row_align;
  }

  int ext(int a) const { return n[a] + 2 * halo[a]; }
  // Whether the halos of axis b are filled before those of axis a.
  bool filled_before(int b, int a) const {
    return b != a && (b == first_axis || (a != first_axis && b < a));
  }
  // The axes in the order their halos are filled.
  std::array<int, 3> fill_order() const { return kolb::fill_order(first_axis); }
  index_t stride(int a) const {
    return a == 0 ? 1 : (a == 1 ? index_t(row_length) : index_t(row_length) * ext(1));
  }
  SiteIndex site_index() const { return {stride(1), stride(2)}; }
  index_t num_sites() const { return index_t(row_length) * ext(1) * ext(2); }
  index_t num_interior() const { return index_t(n[0]) * n[1] * n[2]; }
  // Site index of interior coordinates (may be negative / >= n for halos).
  index_t site(int x, int y, int z) const {
    return site_index()(x + halo[0], y + halo[1], z + halo[2]);
  }
};

// The low-x and high-x faces of a block.
enum class Side { left, right };
inline Side opposite(Side s) { return s == Side::left ? Side::right : Side::left; }

// A box of storage coordinates [lo, hi) a kernel works on.
struct Region {
  std::array<int, 3> lo{0, 0, 0};
  std::array<int, 3> hi{1, 1, 1};
  bool empty() const { return hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]; }
  index_t size() const {
    return empty() ? 0 : index_t(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  }
};

// Device-friendly map from storage coordinates of an interior site to its
// compact index x + nx (y + ny z) in interior-only arrays (output fields).
struct InteriorIndex {
  int hx = 0, hy = 0, hz = 0;
  index_t nx = 1, ny = 1;
  InteriorIndex() = default;
  explicit InteriorIndex(const Extents& e)
      : hx(e.halo[0]), hy(e.halo[1]), hz(e.halo[2]), nx(e.n[0]), ny(e.n[1]) {}
  KOKKOS_INLINE_FUNCTION index_t operator()(int x, int y, int z) const {
    return (x - hx) + nx * ((y - hy) + ny * (z - hz));
  }
};

inline Region interior_region(const Extents& e) {
  Region r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = e.halo[a];
    r.hi[a] = e.halo[a] + e.n[a];
  }
  return r;
}

// The interior of e without the halo-wide layers next to the faces that
// `late` marks ([axis][side]: their halos arrive during an update).
inline Region inner_region(const Extents& e, const std::array<std::array<bool, 2>, 3>& late) {
  Region inner = interior_region(e);
  for (int a = 0; a < e.dim; ++a) {
    if (late[a][0]) inner.lo[a] += e.halo[a];
    if (late[a][1]) inner.hi[a] -= e.halo[a];
    inner.hi[a] = std::max(inner.hi[a], inner.lo[a]);
  }
  return inner;
}

// f(slab) for each non-empty slab of `all` outside `inner` (inside it):
// along x, then y, then z, each slab without what earlier ones covered.
template <class F>
void for_each_border_slab(const Region& all, const Region& inner, F&& f) {
  Region rest = all;
  for (int a = 0; a < 3; ++a) {
    Region lo = rest, hi = rest;
    lo.hi[a] = inner.lo[a];
    hi.lo[a] = std::max(inner.hi[a], inner.lo[a]);
    for (const Region& slab : {lo, hi})
      if (!slab.empty()) f(slab);
    rest.lo[a] = inner.lo[a];
    rest.hi[a] = std::max(inner.hi[a], inner.lo[a]);
  }
}

}  // namespace kolb
