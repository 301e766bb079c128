#pragma once
// Bulk rows: for every x row of a block, the longest run of sites that are
// fluid and whose Q upstream neighbours are all fluid. Host launches update
// that run with the lean pull (no material loads, no bounce-back blend) and
// the rest of the row with the general one; both give the same bits. Kernels
// that read only their own site (Collide, the AA local step) need the sites
// fluid only (`neighbours` false): then a row between x walls is bulk from
// end to end, with no scalar general sites at its ends.

#include <kolb/block/extents.hpp>
#include <kolb/block/materials.hpp>

namespace kolb {

// [begin, end) in storage x coordinates per row (y, z) (storage
// coordinates); begin == end when the row has no bulk site. Host memory
// (device parts launch with a copy, BulkRunsOn).
struct BulkRows {
  Kokkos::View<int* [2], Kokkos::LayoutRight, Kokkos::HostSpace> runs;
  int ext_y = 1;
  bool whole = false;  // every interior row is one bulk run (no general site)
  // The run of row (y, z): end = 1 gives its end, 0 its begin.
  int operator()(int y, int z, int end) const { return runs(y + index_t(ext_y) * z, end); }
};

// The runs of a BulkRows in another memory space, for the flat launches of
// device parts (kernels/policy.hpp): a thread takes the lean path when its
// site lies in its row's run.
template <class MemorySpace>
struct BulkRunsOn {
  Kokkos::View<const int* [2], Kokkos::LayoutRight, MemorySpace> runs;
  int ext_y = 1;
  bool whole = false;
  // Whether interior site (x, y, z) (storage coordinates) is in its row's
  // run; where every row is one run (a periodic box), without reading the
  // runs. Both ends are loaded before either is compared: `&&` made a GPU
  // thread wait for one load, then issue the other, before its populations'
  // loads.
  KOKKOS_INLINE_FUNCTION bool contains(int x, int y, int z) const {
    if (whole) return true;
    const index_t row = y + index_t(ext_y) * z;
    const int begin = runs(row, 0), end = runs(row, 1);
    return (x >= begin) & (x < end);
  }
};

// A copy of `rows` in MemorySpace (the same View where that is host memory).
template <class MemorySpace>
BulkRunsOn<MemorySpace> bulk_runs_on(const BulkRows& rows) {
  return {Kokkos::create_mirror_view_and_copy(MemorySpace(), rows.runs), rows.ext_y, rows.whole};
}

// `ghosted` (optional, host, one flag per site): solid sites a fluid
// neighbour may pull from as if fluid (boundary/bounce_back.hpp).
template <class Lattice, class MemorySpace>
BulkRows find_bulk_rows(const Extents& e,
                        const Kokkos::View<const material_t*, MemorySpace>& material,
                        bool neighbours = true,
                        const Kokkos::View<const bool*, Kokkos::HostSpace>& ghosted = {}) {
  auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), material);
  BulkRows rows{decltype(BulkRows::runs)("kolb::bulk_rows", std::size_t(e.ext(1)) * e.ext(2)),
                e.ext(1), true};
  const SiteIndex site = e.site_index();
  index_t offset[Lattice::q];
  for (int i = 0; i < Lattice::q; ++i)
    offset[i] = -site(Lattice::c(i, 0), Lattice::c(i, 1), Lattice::c(i, 2));
  // Rows stored without x halos wrap x themselves: the upstream neighbour
  // across x is the row's other end (its periodic image).
  const bool wraps_x = e.halo[0] == 0;
  for (int z = e.halo[2]; z < e.halo[2] + e.n[2]; ++z)
    for (int y = e.halo[1]; y < e.halo[1] + e.n[1]; ++y) {
      const index_t row = y + index_t(e.ext(1)) * z;
      int best_begin = 0, best_end = 0, begin = -1;
      for (int x = e.halo[0]; x <= e.halo[0] + e.n[0]; ++x) {
        bool bulk = x < e.halo[0] + e.n[0];
        if (bulk) {
          const index_t s = site(x, y, z);
          bulk = mat(s) == kFluid;
          for (int i = 0; neighbours && bulk && i < Lattice::q; ++i) {
            index_t n = s + offset[i];
            if (wraps_x) {
              const int xn = x - Lattice::c(i, 0);
              n += xn < 0 ? e.n[0] : xn >= e.n[0] ? -e.n[0] : 0;
            }
            bulk = mat(n) == kFluid || (ghosted.size() > 0 && ghosted(n));
          }
        }
        if (bulk && begin < 0) begin = x;
        if (!bulk && begin >= 0) {
          if (x - begin > best_end - best_begin) best_begin = begin, best_end = x;
          begin = -1;
        }
      }
      rows.runs(row, 0) = best_begin;
      rows.runs(row, 1) = best_end;
      rows.whole = rows.whole && best_end - best_begin == e.n[0];
    }
  return rows;
}

}  // namespace kolb
