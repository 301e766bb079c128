#pragma once
// StreamCollide: the fused fast path. Each site pulls its Q incoming
// populations (Pull: bounce-back at walls), collides with BGK + Guo forcing
// in registers and writes the post-collision values to the other buffer:
// one read and one write of every population per step.

#include <kolb/block/bulk_rows.hpp>
#include <kolb/kernels/collision.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/pull.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace,
          class Collision = collision_t<Lattice, Scalar>>
struct StreamCollide {
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int Q = Lattice::q;

  Pull<Lattice, Scalar, Layout, memory_space> m_pull;
  Kokkos::View<Scalar*, memory_space> m_dst;
  Layout m_layout;
  index_t m_sy, m_sz;
  Collision m_collision;

  StreamCollide(const block_type& block, const WallTerms<Lattice, Scalar>& wall,
                const Collision& collision)
      : m_pull(block, wall),
        m_dst(block.next()),
        m_layout(block.layout()),
        m_sy(block.extents().stride(1)),
        m_sz(block.extents().stride(2)),
        m_collision(collision) {}

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    Scalar f[Q];
    const Scalar keep = m_pull(s, f);
    m_collision(f);
    // Solid sites store zeros.
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = keep * f[i];
  }

  // A site in a bulk run (fluid, all upstream neighbours fluid).
  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    Scalar f[Q];
    m_pull.bulk(s, f);
    m_collision(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = f[i];
  }

  // One step on `region` (storage coordinates) of `block`: current -> next.
  static void apply(const ExecSpace& exec, const block_type& block, const Region& region,
                    const WallTerms<Lattice, Scalar>& wall, const Collision& collision,
                    const bulk_rows_view& bulk_rows) {
    for_each_site_split("kolb::StreamCollide", exec, region, StreamCollide(block, wall, collision),
                        bulk_rows, block.extents().ext(1));
  }
};

}  // namespace kolb
