#pragma once
// population_stride: the distance in elements between consecutive population
// arrays of the SoA-like layouts (SoA, CSoA).
//
// Where arrays start within a 4 KiB page decides two things on x86 CPUs. The
// same offset means the same L1 set: with a stride of a whole number of
// pages all Q streams of a site update share one 12-way set, and D3Q19's 19
// thrash it (FP64 SoA collide at 160x40x8, 133 pages per array: 76-86 MLUPS
// in the cache against 265-270 with this stride). Offsets a line apart mean
// false store-to-load dependencies (the load/store queue compares the low 12
// address bits): an in-place row stores population i at x and next loads
// population j a line further on, so arrays one line apart alias on every
// iteration (nine in-place streams ran 26-28 % slower one line apart than
// three or more apart). So the arrays go on 64-byte slots of the page spaced
// evenly, as far apart as 64 / Q lines allow: D3Q19 every 3 lines, D2Q9
// every 7, D2Q37 every line (docs/performance.md, "Population strides").

#include <kolb/core/cache_lines.hpp>
#include <kolb/core/macros.hpp>

#include <algorithm>

namespace kolb {

// The page whose low address bits the L1 sets and the load/store queue use.
constexpr index_t kPageBytes = 4096;

/// Elements between the `q` population arrays of `num_sites` sites of
/// `value_bytes` each: at least num_sites, a whole number of granules (a
/// cache line, or `min_granule` elements if larger, e.g. a CSoA cluster; both
/// powers of two), and such that array i starts on 64-byte slot i * s of a
/// 4 KiB page (mod 64) with s = 64 / q lines rounded down to whole granules
/// (at least one).
inline index_t population_stride(index_t num_sites, int q, int value_bytes,
                                 index_t min_granule = 1) {
  const index_t granule = std::max<index_t>(host::kLineBytes / value_bytes, min_granule);
  const index_t granules = (num_sites + granule - 1) / granule;
  // Granules per page: the slots there are. A granule of a page or more
  // starts every array on the same offset whatever the stride.
  const index_t slots = kPageBytes / (granule * value_bytes);
  if (slots < 2) return granules * granule;
  const index_t step = std::max<index_t>(slots / q, 1);
  const index_t pad =
      ((step - granules) % slots + slots) % slots;  // granules + pad = step (mod slots)
  return (granules + pad) * granule;
}

}  // namespace kolb
