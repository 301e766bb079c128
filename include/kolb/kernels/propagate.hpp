#pragma once
// Propagate: the streaming half of a step on its own (seed 004's separate
// propagate kernel): pulls the incoming populations of every site of a
// region from the current buffer into the next one. Followed by Collide it
// gives bit for bit the result of StreamCollide, with twice the traffic.

#include <kolb/block/bulk_rows.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/pull.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace>
struct Propagate {
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int Q = Lattice::q;

  Pull<Lattice, Scalar, Layout, memory_space> m_pull;
  Kokkos::View<Scalar*, memory_space> m_dst;
  Layout m_layout;
  index_t m_sy, m_sz;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    Scalar f[Q];
    const Scalar keep = m_pull(s, f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = keep * f[i];
  }

  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    Scalar f[Q];
    m_pull.bulk(s, f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = f[i];
  }

  static void apply(const ExecSpace& exec, const block_type& block, const Region& region,
                    const WallTerms<Lattice, Scalar>& wall, const bulk_rows_view& bulk_rows) {
    const Extents& e = block.extents();
    for_each_site_split(
        "kolb::Propagate", exec, region,
        Propagate{{block, wall}, block.next(), block.layout(), e.stride(1), e.stride(2)}, bulk_rows,
        e.ext(1));
  }
};

}  // namespace kolb
