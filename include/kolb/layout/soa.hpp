#pragma once
// SoA: one contiguous array per population; the bytes a site update moves are
// Q reads and Q writes of unit-stride streams, which vectorises over sites.

#include <kolb/core/macros.hpp>
#include <kolb/core/variant.hpp>
#include <kolb/layout/population_stride.hpp>

namespace kolb {

struct SoA {
  static constexpr LayoutKind kind = LayoutKind::soa;
  static constexpr int vector_length = 1;  // rows need no padding
  // Population i of site s at i * stride + s (block/population_pointers.hpp).
  static constexpr bool contiguous_populations = true;

  SoA() = default;
  // Every population array starts on a cache line (an AVX-512 vector), the
  // Q of them spread evenly over the 64-byte slots of a 4 KiB page
  // (population_stride.hpp).
  SoA(index_t num_sites, int q, int value_bytes)
      : m_stride(population_stride(num_sites, q, value_bytes)), m_q(q) {}

  KOKKOS_INLINE_FUNCTION index_t operator()(index_t site, int i) const {
    return index_t(i) * m_stride + site;
  }
  index_t allocation_size() const { return m_stride * m_q; }

 private:
  index_t m_stride = 0;
  int m_q = 0;
};

}  // namespace kolb
