#pragma once
// CAoSoA<VL> (clustered array of structures of arrays): clusters of VL
// consecutive sites; a cluster stores population 0 of its VL sites, then
// population 1, ... so a site update reads Q aligned vectors from one
// contiguous block (SoA-like vectors with AoS-like locality). Rows are padded
// to a multiple of VL so that clusters never straddle rows.
// AoS (the clustered indexing with VL = 1): the Q populations of a site are
// adjacent, one contiguous run per site update (cache friendly on CPUs
// without vectorisation, uncoalesced on GPUs).

#include <kolb/core/macros.hpp>
#include <kolb/core/variant.hpp>

namespace kolb {

template <LayoutKind Kind, int VL>
struct ClusteredLayout {
  static_assert(VL > 0 && (VL & (VL - 1)) == 0, "VL must be a power of two");
  static constexpr LayoutKind kind = Kind;
  static constexpr int vector_length = VL;  // rows padded to a multiple of VL sites
  static constexpr bool contiguous_populations = false;

  ClusteredLayout() = default;
  ClusteredLayout(index_t num_sites, int q, int /*value_bytes*/)
      : m_clusters((num_sites + VL - 1) / VL), m_q(q) {}

  KOKKOS_INLINE_FUNCTION index_t operator()(index_t site, int i) const {
    // site >= 0: shift and mask are the division and remainder by VL.
    return (site >> kShift) * (index_t(m_q) * VL) + index_t(i) * VL + (site & (VL - 1));
  }
  index_t allocation_size() const { return m_clusters * VL * m_q; }

 private:
  static constexpr int log2(int v) { return v <= 1 ? 0 : 1 + log2(v / 2); }
  static constexpr int kShift = log2(VL);
  index_t m_clusters = 0;
  int m_q = 0;
};

using AoS = ClusteredLayout<LayoutKind::aos, 1>;
template <int VL>
using CAoSoA = ClusteredLayout<LayoutKind::caosoa, VL>;

}  // namespace kolb
