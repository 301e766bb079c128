#pragma once
// Collide: the collision half of a step on its own, in place on the buffer
// Propagate wrote (the next one): load a site's Q populations, BGK + Guo,
// store them back. Solid sites stay zero. Host launches take fluid runs
// (bulk rows) without the material load and the solid blend.

#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/kernels/collision.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

// SwappedOut = true stores population i in slot opposite(i): the AA
// pattern's local step (AALocal in aa.hpp). One buffer there, so next() is
// the current array.
template <class Lattice, class Scalar, class Layout, class ExecSpace, bool SwappedOut = false,
          class Collision = collision_t<Lattice, Scalar>>
struct Collide {
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  static constexpr int Q = Lattice::q;

  Kokkos::View<Scalar*, memory_space> m_f;
  Kokkos::View<const material_t*, memory_space> m_material;
  Layout m_layout;
  index_t m_sy, m_sz;
  Collision m_collision;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    // The same arithmetic as Pull + StreamCollide, so both paths agree bit for bit.
    const Scalar keep = m_material(s) == kFluid ? Scalar(1) : Scalar(0);
    Scalar f[Q];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i)
      f[i] = keep * m_f(m_layout(s, i)) + (Scalar(1) - keep) * Scalar(Lattice::w(i));
    m_collision(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i)
      m_f(m_layout(s, SwappedOut ? Lattice::opposite(i) : i)) = keep * f[i];
  }

  // A fluid site (any site of a bulk run): the general path computes
  // 1 * f + 0 * w_i and stores 1 * f, i.e. these bits.
  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    Scalar f[Q];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) f[i] = m_f(m_layout(s, i));
    m_collision(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_f(m_layout(s, SwappedOut ? Lattice::opposite(i) : i)) = f[i];
  }

  static void apply(const ExecSpace& exec, const block_type& block, const Region& region,
                    const Collision& collision, const bulk_rows_view& bulk_rows) {
    const Extents& e = block.extents();
    for_each_site_split(SwappedOut ? "kolb::AALocal" : "kolb::Collide", exec, region,
                        Collide{block.next(), block.material(), block.layout(), e.stride(1),
                                e.stride(2), collision},
                        bulk_rows, e.ext(1));
  }
};

}  // namespace kolb
