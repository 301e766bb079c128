#pragma once
// population_stride: the distance in elements between consecutive population
// arrays of the SoA-like layouts (SoA, CSoA).
//
// Where arrays start within a 4 KiB page decides two things on x86 CPUs. The
// same offset means the same L1 set: with a stride of a whole number of
// pages all Q streams of a site update share one 12-way set, and D3Q19's 19
// thrash it. Offsets a line apart mean false store-to-load dependencies (the
// load/store queue compares the low 12 address bits): an in-place row stores
// population i at x and next loads population j a line further on, so
// arrays one line apart alias on every iteration. So the arrays go on
// 64-byte slots of the page spaced evenly, as far apart as 64 / Q lines
// allow: D3Q19 every 3 lines, D2Q9 every 7, D2Q37 every line.

#include <kolb/core/cache_lines.hpp>
#include <kolb/core/macros.hpp>

#include <algorithm>

namespace kolb {

// The page whose low address bits the L1 sets and the load/store queue use.
constexpr index_t kPageBytes = 4096;

/// Elements between the `q` population arrays of `num_sites` sites of
/// `value_bytes` each: at least num_sites, a whole number of cache lines, and
/// such that array i starts on 64-byte slot i * s of a 4 KiB page (mod 64)
/// with s = 64 / q lines rounded down (at least one). The granule is the line
/// even where a CSoA cluster is longer (FP64 CSoA16: 128 bytes): rows stay
/// line-aligned, which is what vector loads need, and D3Q19's arrays keep
/// SoA's 3 lines between them instead of the 2 a cluster granule allows.
inline index_t population_stride(index_t num_sites, int q, int value_bytes) {
  const index_t line = std::max<index_t>(host::kLineBytes / value_bytes, 1);  // values
  const index_t lines = (num_sites + line - 1) / line;
  const index_t slots = kPageBytes / host::kLineBytes;
  const index_t step = std::max<index_t>(slots / q, 1);
  const index_t pad = ((step - lines) % slots + slots) % slots;  // lines + pad = step (mod slots)
  return (lines + pad) * line;
}

}  // namespace kolb
