#pragma once
// StreamCollide: the fused fast path. Each fluid site pulls its Q incoming
// populations (half-way bounce-back where the upstream neighbour is solid,
// with the moving-wall momentum term), collides with BGK + Guo forcing in
// registers, and writes the post-collision values to the other buffer.

#include <kolb/block/block.hpp>
#include <kolb/kernels/bgk.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace>
struct StreamCollide {
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int Q = Lattice::q;

  Kokkos::View<const Scalar*, memory_space> m_src;
  Kokkos::View<Scalar*, memory_space> m_dst;
  Kokkos::View<const material_t*, memory_space> m_material;
  Layout m_layout;
  index_t m_sy, m_sz;
  Kokkos::Array<index_t, Q> m_offset;  // site offset to the upstream neighbour
  WallTerms<Lattice, Scalar> m_wall;
  BGK<Lattice, Scalar> m_collision;

  StreamCollide(const block_type& block, const WallTerms<Lattice, Scalar>& wall,
                const BGK<Lattice, Scalar>& collision)
      : m_src(block.current()),
        m_dst(block.next()),
        m_material(block.material()),
        m_layout(block.layout()),
        m_sy(block.extents().stride(1)),
        m_sz(block.extents().stride(2)),
        m_wall(wall),
        m_collision(collision) {
    for (int i = 0; i < Q; ++i)
      m_offset[i] = -(Lattice::c(i, 0) + Lattice::c(i, 1) * m_sy + Lattice::c(i, 2) * m_sz);
  }

  // Branch-free so that host builds vectorise it across a row of sites:
  // both the pulled and the bounced value are loaded and blended with exact
  // 0/1 weights (a ?: select becomes a masked load gcc cannot vectorise in
  // this mixed-width loop). Solid sites collide a rest state (finite, never
  // read) and store zeros.
  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    const Scalar keep = m_material(s) == kFluid ? Scalar(1) : Scalar(0);
    Scalar f[Q];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      const index_t n = s + m_offset[i];
      const material_t m = m_material(n);
      const Scalar pulled = m_src(m_layout(n, i));
      const Scalar bounced = m_src(m_layout(s, Lattice::opposite(i))) + m_wall(m, i);
      const Scalar from_fluid = m == kFluid ? Scalar(1) : Scalar(0);
      const Scalar fi = from_fluid * pulled + (Scalar(1) - from_fluid) * bounced;
      f[i] = keep * fi + (Scalar(1) - keep) * Scalar(Lattice::w(i));
    }
    m_collision(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = keep * f[i];
  }

  // One step on `region` (storage coordinates) of `block`: current -> next.
  static void apply(const ExecSpace& exec, const block_type& block, const Region& region,
                    const WallTerms<Lattice, Scalar>& wall, const BGK<Lattice, Scalar>& collision) {
    for_each_site("kolb::StreamCollide", exec, region, StreamCollide(block, wall, collision));
  }
};

}  // namespace kolb
