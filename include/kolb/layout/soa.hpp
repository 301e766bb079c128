#pragma once
// SoA: one contiguous array per population; the bytes a site update moves are
// Q reads and Q writes of unit-stride streams, which vectorises over sites.
// CSoA<VL> (clustered SoA): SoA whose x rows are padded to a multiple of VL
// sites, so each row starts a cluster of VL sites of one population on an
// aligned address: a vector of VL lanes never straddles two rows.

#include <kolb/core/macros.hpp>
#include <kolb/core/variant.hpp>
#include <kolb/layout/population_stride.hpp>

namespace kolb {

template <LayoutKind Kind, int VL>
struct StridedLayout {
  static_assert(VL > 0 && (VL & (VL - 1)) == 0, "VL must be a power of two");
  static constexpr LayoutKind kind = Kind;
  static constexpr int vector_length = VL;  // rows padded to a multiple of VL sites
  // Population i of site s at i * stride + s (block/population_pointers.hpp).
  static constexpr bool contiguous_populations = true;

  StridedLayout() = default;
  // Every population array starts on a cache line (an AVX-512 vector), the
  // Q of them spread evenly over the 64-byte slots of a 4 KiB page
  // (population_stride.hpp).
  StridedLayout(index_t num_sites, int q, int value_bytes)
      : m_stride(population_stride(num_sites, q, value_bytes)), m_q(q) {}

  KOKKOS_INLINE_FUNCTION index_t operator()(index_t site, int i) const {
    return index_t(i) * m_stride + site;
  }
  index_t allocation_size() const { return m_stride * m_q; }

 private:
  index_t m_stride = 0;
  int m_q = 0;
};

using SoA = StridedLayout<LayoutKind::soa, 1>;
template <int VL>
using CSoA = StridedLayout<LayoutKind::csoa, VL>;

}  // namespace kolb
