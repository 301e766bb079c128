#pragma once
// Propagate: the streaming half of a step on its own: pulls the incoming
// populations of every site of a region from the current buffer into the
// next one. Followed by Collide it gives bit for bit the result of
// StreamCollide, with twice the traffic (16-bit storage: the stored bits are
// copied, Pull::stored).

#include <kolb/block/population_pointers.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/pull.hpp>

namespace kolb {

template <class Lattice, class S, class Layout, class MemorySpace>
struct Propagate {
  using Scalar = real_t<S>;
  static constexpr int Q = Lattice::q;
  // 16-bit storage: a load and a store may change a value's bits, so the
  // stored bits are copied (the native path's arithmetic gives the same
  // values, and +-0 as StreamCollide does at solid sites).
  static constexpr bool kCopiesBits = Storage<S>::converts;

  Pull<Lattice, S, Layout, MemorySpace> m_pull;
  Kokkos::View<stored_t<S>*, MemorySpace> m_dst;
  Layout m_layout;
  SiteIndex m_site;
  // SoA, CSoA: the flat launches' addresses (bulk_flat), upstream in, own out.
  static constexpr bool flat_pointers = has_population_pointers_v<Layout>;
  FlatAddresses<const stored_t<S>, stored_t<S>, Q> m_flat;

  template <class Block>
  Propagate(const Block& block, const WallTerms<Lattice, Scalar>& wall)
      : m_pull(block, wall),
        m_dst(block.next()),
        m_layout(block.layout()),
        m_site(block.site_index()) {
    if constexpr (flat_pointers) {
      m_flat = {block, m_pull.sources(), own_populations<Lattice>(m_dst, m_layout)};
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    if constexpr (kCopiesBits) {
      stored_t<S> f[Q];
      m_pull.stored(s, f);
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = f[i];
    } else {
      Scalar f[Q];
      const Scalar keep = m_pull(s, f);
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = keep * f[i];
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    if constexpr (kCopiesBits) {
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i)
        m_dst(m_layout(s, i)) = m_pull.m_src(m_layout(s + m_pull.m_offset[i], i));
    } else {
      Scalar f[Q];
      m_pull.bulk(s, f);
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = f[i];
    }
  }

  // bulk() in flat launches on SoA and CSoA: both of its paths copy the
  // stored values (Pull::bulk converts nothing where bits are not copied).
  KOKKOS_FORCEINLINE_FUNCTION void bulk_flat(int z, int y, int x) const {
    const std::uint32_t s = m_flat.site(x, y, z);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_flat.out(i, s) = m_flat.in(i, s);
  }
};

}  // namespace kolb
