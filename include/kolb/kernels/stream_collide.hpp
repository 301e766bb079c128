#pragma once
// StreamCollide: the fused fast path. Each site pulls its Q incoming
// populations (Pull: bounce-back at walls), collides with the model in
// registers and writes the post-collision values to the other buffer: one
// read and one write of every population per step.

#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/pull.hpp>

namespace kolb {

template <class Model, class Layout, class MemorySpace>
struct StreamCollide {
  using Lattice = typename Model::lattice_type;
  using Scalar = typename Model::value_type;
  using S = typename Model::scalar_type;
  using P = Storage<S>;
  static constexpr int Q = Lattice::q;

  Pull<Lattice, S, Layout, MemorySpace> m_pull;
  Kokkos::View<stored_t<S>*, MemorySpace> m_dst;
  Layout m_layout;
  SiteIndex m_site;
  Model m_model;

  // One step of `block`: current -> next.
  template <class Block>
  StreamCollide(const Block& block, const WallTerms<Lattice, Scalar>& wall, const Model& model)
      : m_pull(block, wall),
        m_dst(block.next()),
        m_layout(block.layout()),
        m_site(block.site_index()),
        m_model(model) {}

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    Scalar f[Q];
    const Scalar keep = m_pull(s, f);
    m_model(f);
    // Solid sites store zeros.
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = P::template store<Lattice>(keep * f[i], i);
  }

  // A site in a bulk run (fluid, all upstream neighbours fluid).
  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    Scalar f[Q];
    m_pull.bulk(s, f);
    m_model(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = P::template store<Lattice>(f[i], i);
  }
};

}  // namespace kolb
