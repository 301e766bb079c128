#pragma once
// AoS: the Q populations of a site are adjacent. A site update touches one
// contiguous run of Q values (cache friendly on CPUs without vectorisation,
// uncoalesced on GPUs).

#include <kolb/core/macros.hpp>
#include <kolb/core/variant.hpp>

namespace kolb {

struct AoS {
  static constexpr LayoutKind kind = LayoutKind::aos;
  static constexpr int vector_length = 1;  // rows need no padding
  static constexpr bool contiguous_populations = false;

  AoS() = default;
  AoS(index_t num_sites, int q, int /*value_bytes*/) : m_sites(num_sites), m_q(q) {}

  KOKKOS_INLINE_FUNCTION index_t operator()(index_t site, int i) const { return site * m_q + i; }
  index_t allocation_size() const { return m_sites * m_q; }

 private:
  index_t m_sites = 0;
  int m_q = 0;
};

}  // namespace kolb
