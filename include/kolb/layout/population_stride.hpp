#pragma once
// population_stride: the distance in elements between consecutive population
// arrays of the SoA-like layouts (SoA, CSoA).
//
// Arrays that start at the same offset within 4 KiB pages share their L1
// sets and alias in the load/store queue (x86 compares the low 12 address
// bits). A site update touches every population at the same site index, so
// with a stride of a whole number of 4 KiB all Q streams fall into one
// 12-way L1 set: D3Q19 FP64 SoA at 160x40x8 (stride 133 x 4 KiB) collided
// at 94 MLUPS in the cache against 254 for CSoA8 next to it
// (docs/performance.md, "Population strides"). Padding the stride to an odd
// number of granules puts arrays 0 .. 64/k - 1 (k = cache lines per granule) on
// distinct 64-byte slots of the page, whatever the lattice size.

#include <kolb/core/macros.hpp>

namespace kolb {

/// Elements between population arrays for `num_sites` sites of `value_bytes`
/// each: at least num_sites, a whole number of granules (64 bytes, or
/// `min_granule` elements if larger, e.g. a CSoA cluster), and an odd number
/// of granules, so that the arrays start on distinct 64-byte slots of a
/// 4 KiB page (as many of them as 4 KiB holds granules).
inline index_t population_stride(index_t num_sites, int value_bytes, index_t min_granule = 1) {
  constexpr index_t line_bytes = 64, page_bytes = 4096;
  index_t granule = line_bytes / value_bytes;
  if (granule < 1) granule = 1;
  while (granule < min_granule) granule *= 2;
  index_t granules = (num_sites + granule - 1) / granule;
  // More than one page per granule: every array starts on the same offset anyway.
  if (granule * value_bytes <= page_bytes && granules % 2 == 0) ++granules;
  return granules * granule;
}

}  // namespace kolb
