#pragma once
// Collide: the collision half of a step on its own, in place on the buffer
// Propagate wrote (the next one): load a site's Q populations, BGK + Guo,
// store them back. Solid sites stay zero.

#include <kolb/block/block.hpp>
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

  static void apply(const ExecSpace& exec, const block_type& block, const Region& region,
                    const Collision& collision) {
    const Extents& e = block.extents();
    for_each_site(SwappedOut ? "kolb::AALocal" : "kolb::Collide", exec, region,
                  Collide{block.next(), block.material(), block.layout(), e.stride(1), e.stride(2),
                          collision});
  }
};

}  // namespace kolb
