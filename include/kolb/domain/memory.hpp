#pragma once
// Memory checked before allocation: what a Domain of a tile will allocate,
// by memory space, against what is free there, so that a case too big for
// the machine stops with a message instead of dying inside Kokkos or being
// killed by the kernel's OOM killer half-way through first touch.

#include <kolb/comm/tiling.hpp>
#include <kolb/io/case.hpp>

#include <algorithm>
#include <string>

namespace kolb {

// Bytes a Domain of `tile` allocates: its parts' populations (one or two
// buffers, plus the AA scheme's scratch copy for outputs) and materials,
// on the accelerator's memory or the host's, plus the host-side set-up
// (the lattice's materials and initial fields, the tile's gathered fields).
struct MemoryNeed {
  double accelerator = 0;  // 0 in CPU-only builds: everything counts as host
  double host = 0;
};
MemoryNeed memory_need(const Case& c, const Tile& tile);

// Whether a host part pads its x rows of `row_sites` interior sites to whole
// cache lines of `line_values` values (the plan's RowStorage, which also
// asks that its buffers exceed the cache; memory_need counts it whatever the
// size): SoA and CSoA parts (one population's sites contiguous) of fused
// two-buffer runs whose values go by lines with non-temporal stores
// (`by_lines`), rows of a line at least (shorter ones store no whole line).
inline bool pads_rows(const ExecutionSettings& e, bool by_lines, double row_sites,
                      double line_values) {
  const bool contiguous = e.layout.kind == LayoutKind::soa || e.layout.kind == LayoutKind::csoa;
  return by_lines && contiguous && e.streaming == Streaming::two_buffer &&
         e.kernel == KernelPath::fused && row_sites >= line_values;
}

// The multiple of sites an x row is padded to: the layout's cluster
// (`vector_length`, 1 for AoS and SoA), and whole lines of `line_values`
// too where pads_rows pads (both powers of two: the larger is a multiple
// of the other).
inline int row_align_sites(bool padded, int line_values, int vector_length) {
  return padded ? std::max(line_values, vector_length) : vector_length;
}

// Bytes free for kolb on the accelerator (`accelerator`) or the host: the
// device's free memory (CUDA/HIP), or the host's available memory within
// the process's cgroup and address-space (ulimit -v) limits. The
// environment variable KOLB_MEMORY_LIMIT (bytes, or with a K/M/G/T suffix)
// caps either; KOLB_MEMORY_LIMIT=none turns the check off (infinite).
double free_memory(bool accelerator);

// What is wrong with the memory the case needs on this tile (empty: it
// fits): names the space, the need and what is free.
std::string memory_problem(const Case& c, const Tile& tile);

// While one is alive, host memory that large arrays free stays with the
// process and the next allocation reuses it, pages already touched: the
// harnesses that build one Domain after another (`kolb bench`, one per
// variant) would otherwise spend most of their system time in the kernel
// clearing every page again. glibc only; off where the host has several NUMA
// nodes, since reused pages keep the placement of the first touch, not the
// next kernel's. On leaving, the memory is given back. Not nestable.
class HostMemoryReuse {
 public:
  HostMemoryReuse();
  ~HostMemoryReuse();
  HostMemoryReuse(const HostMemoryReuse&) = delete;
  HostMemoryReuse& operator=(const HostMemoryReuse&) = delete;
  // Whether freed memory is kept on this host.
  bool active() const { return m_active; }

 private:
  bool m_active = false;
};

// Bytes the process has freed and keeps for its next allocations (glibc's
// free chunks: small, unless a HostMemoryReuse kept large blocks). The
// host's free_memory() counts them.
double kept_host_bytes();

// "1.50 GiB"
std::string byte_text(double bytes);

}  // namespace kolb
