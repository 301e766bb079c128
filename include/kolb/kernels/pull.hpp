#pragma once
// Pull: gathers the Q populations that arrive at a site in one step, shared
// by the fused StreamCollide and the separate Propagate kernel. Where the
// upstream neighbour is solid, the population bounced back at the half-way
// wall is taken instead, plus the moving-wall momentum term.
//
// Branch-free so that host builds vectorise it across a row of sites: both
// the pulled and the bounced value are loaded and blended with exact 0/1
// weights (a ?: select becomes a masked load gcc does not vectorise in this
// mixed-width loop). Solid sites get the rest state w_i (finite, never read).

#include <kolb/block/block.hpp>
#include <kolb/block/population_pointers.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/lattice/slot.hpp>

#include <algorithm>

namespace kolb {

// S is the variant's scalar (block/storage.hpp). Swapped = true reads the AA
// pattern's swapped storage (kernels/aa.hpp): the population moving along
// c_i sits in slot opposite(i).
template <class Lattice, class S, class Layout, class MemorySpace, bool Swapped = false>
struct Pull {
  using Scalar = real_t<S>;
  using P = Storage<S>;
  static constexpr int Q = Lattice::q;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int slot(int i) {
    return stored_slot<Lattice>(i, Swapped);
  }

  Kokkos::View<const stored_t<S>*, MemorySpace> m_src;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  Kokkos::Array<index_t, Q> m_offset;  // site offset to the upstream neighbour
  WallTerms<Lattice, Scalar> m_wall;
  // Sites below this have all their upstream neighbours in the block
  // (prefetch asks for no site beyond it).
  index_t m_prefetch_end = 0;

  template <class Block>
  Pull(const Block& block, const WallTerms<Lattice, Scalar>& wall)
      : m_src(block.current()),
        m_material(block.material()),
        m_layout(block.layout()),
        m_wall(wall) {
    const SiteIndex site = block.site_index();
    index_t reach = 0;  // the farthest upstream neighbour, in sites
    for (int i = 0; i < Q; ++i) {
      m_offset[i] = -site(Lattice::c(i, 0), Lattice::c(i, 1), Lattice::c(i, 2));
      reach = std::max(reach, m_offset[i]);
    }
    m_prefetch_end = block.extents().num_sites() - reach;
  }

  // Fills f with the incoming populations of site s; returns 1 for a fluid
  // site, 0 for a solid one.
  KOKKOS_FORCEINLINE_FUNCTION Scalar operator()(index_t s, Scalar (&f)[Q]) const {
    const Scalar keep = m_material(s) == kFluid ? Scalar(1) : Scalar(0);
    if constexpr (P::converts) {  // 16-bit storage: pick the stored bits, convert once
      stored_t<S> in[Q];
      stored(s, in);
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i)
        f[i] =
            keep * P::template load<Lattice>(in[i], i) + (Scalar(1) - keep) * Scalar(Lattice::w(i));
    } else {
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) {
        const index_t n = s + m_offset[i];
        const material_t m = m_material(n);
        const Scalar pulled = m_src(m_layout(n, slot(i)));
        const Scalar bounced = m_src(m_layout(s, slot(Lattice::opposite(i)))) + m_wall(m, i);
        const Scalar from_fluid = m == kFluid ? Scalar(1) : Scalar(0);
        const Scalar fi = from_fluid * pulled + (Scalar(1) - from_fluid) * bounced;
        f[i] = keep * fi + (Scalar(1) - keep) * Scalar(Lattice::w(i));
      }
    }
    return keep;
  }

  // The stored values of the incoming populations of site s (16-bit storage:
  // copied, not converted; solid sites get the stored zero). Both values are
  // loaded and one is selected (vectorises; a conditional load would not).
  KOKKOS_FORCEINLINE_FUNCTION void stored(index_t s, stored_t<S> (&f)[Q]) const {
    const bool fluid = m_material(s) == kFluid;
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      const index_t n = s + m_offset[i];
      const material_t m = m_material(n);
      const stored_t<S> own = m_src(m_layout(s, slot(Lattice::opposite(i))));
      f[i] = !fluid        ? P::template store<Lattice>(Scalar(0), i)
             : m == kFluid ? m_src(m_layout(n, slot(i)))
                           : P::template bounce<Lattice>(own, m_wall(m, i), i);
    }
  }

  // The same for a fluid site whose upstream neighbours are all fluid: the
  // general path then computes 1 * pulled + 0 * bounced, i.e. these bits.
  KOKKOS_FORCEINLINE_FUNCTION Scalar bulk(index_t s, int i) const {
    return P::template load<Lattice>(m_src(m_layout(s + m_offset[i], slot(i))), i);
  }
  KOKKOS_FORCEINLINE_FUNCTION void bulk(index_t s, Scalar (&f)[Q]) const {
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) f[i] = bulk(s, i);
  }

  // Asks for the lines bulk(s, i) reads, one per population, into every
  // cache level (host rows), unless some lie beyond the block
  // (s >= m_prefetch_end): callers may run on past their rows.
  KOLB_HOST_INLINE void prefetch(index_t s) const {
    prefetch(s, [&](int i) { return &m_src(m_layout(s + m_offset[i], slot(i))); });
  }
  // The same, with the line of population i at at(i) (e.g. through the
  // pointers of sources()).
  template <class At>
  KOLB_HOST_INLINE void prefetch(index_t s, const At& at) const {
    if (s >= m_prefetch_end) return;
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) host::prefetch_read(at(i));
  }

  // For flat launches on SoA and CSoA (block/population_pointers.hpp):
  // pointer i reads, at site s, the value bulk(s, i) loads.
  PopulationPointers<const stored_t<S>, Q> sources() const {
    return {m_src, m_layout, [](int i) { return slot(i); }, [this](int i) { return m_offset[i]; }};
  }
  // Pointer i addresses, at site s, slot i of the downstream neighbour along
  // c_i in `f`: where the AA pull step pushes population i (aa.hpp).
  template <class View>
  PopulationPointers<typename View::value_type, Q> pushes(const View& f) const {
    return {f, m_layout, [](int i) { return i; }, [this](int i) { return -m_offset[i]; }};
  }
};

}  // namespace kolb
