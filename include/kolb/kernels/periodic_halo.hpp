#pragma once
// PeriodicHalo: fills the halo layers of a periodic axis with copies of the
// sites one period away, so the pull in StreamCollide needs no wrap-around.
// Axes are filled in the block's fill order (Extents::fill_order; x, y, z
// for a lone block), each over the halos of those before it, which also
// fills edges and corners where several axes are periodic.

#include <kolb/block/block.hpp>
#include <kolb/kernels/halo.hpp>

#include <algorithm>

namespace kolb {

// A periodic fill copies only the populations a pull reads from the halo
// (CrossingPopulations): 5 of 19 (D3Q19) or 3 of 9 (D2Q9) per halo site.
// Nothing else reads periodic halos (D2Q37's wall kernel pulls too); edges
// and corners follow, as the fill of a later axis spans the earlier axes'
// halos and copies its own crossing set, which includes the diagonals.
template <class Lattice, class T, class Layout, class MemorySpace>
struct PeriodicCopy {
  Kokkos::View<T*, MemorySpace> m_data;
  Layout m_layout;
  CrossingPopulations<Lattice> m_comp;
  SiteIndex m_site;
  index_t m_shift;  // site offset from a halo site to its image

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    m_comp.for_each([&](int, int i) KOLB_INLINE_LAMBDA {
      m_data(m_layout(s, i)) = m_data(m_layout(s + m_shift, i));
    });
  }
};

// Fills the halos of axis `a` (over the halos of the axes before it) with
// the populations a pull reads (`swapped`: from an AA buffer), only those
// within `within` if given (the edges over a late face's halo).
template <class Lattice, class ExecSpace, class T, class Layout>
void fill_periodic_axis(const ExecSpace& exec,
                        const Kokkos::View<T*, typename ExecSpace::memory_space>& data,
                        const Layout& layout, const Extents& e, int a, bool swapped,
                        const Region* within = nullptr) {
  if (a >= e.dim || e.halo[a] == 0) return;
  Region r;
  for (int b = 0; b < 3; ++b) {
    // Axes already filled span their halos too; later ones the interior only.
    const bool earlier = e.filled_before(b, a);
    r.lo[b] = earlier ? 0 : e.halo[b];
    r.hi[b] = earlier ? e.ext(b) : e.halo[b] + e.n[b];
    if (within && b != a) {
      r.lo[b] = std::max(r.lo[b], within->lo[b]);
      r.hi[b] = std::min(r.hi[b], within->hi[b]);
    }
  }
  if (r.empty()) return;
  const index_t period = index_t(e.n[a]) * e.stride(a);
  Region low = r, high = r;
  low.lo[a] = 0;
  low.hi[a] = e.halo[a];
  high.lo[a] = e.halo[a] + e.n[a];
  high.hi[a] = e.ext(a);
  using copy = PeriodicCopy<Lattice, T, Layout, typename ExecSpace::memory_space>;
  for_each_site("kolb::PeriodicHalo", exec, low,
                copy{data, layout, CrossingPopulations<Lattice>(a, Side::left, swapped),
                     e.site_index(), period});
  for_each_site("kolb::PeriodicHalo", exec, high,
                copy{data, layout, CrossingPopulations<Lattice>(a, Side::right, swapped),
                     e.site_index(), -period});
}

// Every periodic axis in the fill order.
template <class Lattice, class ExecSpace, class T, class Layout>
void fill_periodic_halo(const ExecSpace& exec,
                        const Kokkos::View<T*, typename ExecSpace::memory_space>& data,
                        const Layout& layout, const Extents& e, const std::array<bool, 3>& periodic,
                        bool swapped) {
  for (const int a : e.fill_order())
    if (periodic[a]) fill_periodic_axis<Lattice>(exec, data, layout, e, a, swapped);
}

}  // namespace kolb
