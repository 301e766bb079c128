#pragma once
// PeriodicHalo: fills the halo layers of a periodic axis with copies of the
// sites one period away, so the pull in StreamCollide needs no wrap-around.
// Axes are filled x, then y (over the x-extended rows), then z, which also
// fills edges and corners where several axes are periodic.

#include <kolb/block/block.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class T, class Layout, class MemorySpace>
struct PeriodicCopy {
  Kokkos::View<T*, MemorySpace> m_data;
  Layout m_layout;
  int m_ncomp;
  SiteIndex m_site;
  index_t m_shift;  // site offset from a halo site to its image

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    for (int i = 0; i < m_ncomp; ++i) m_data(m_layout(s, i)) = m_data(m_layout(s + m_shift, i));
  }
};

// Fills the halos of axis `a` (over the halos of the axes before it).
template <class ExecSpace, class T, class Layout>
void fill_periodic_axis(const ExecSpace& exec,
                        const Kokkos::View<T*, typename ExecSpace::memory_space>& data,
                        const Layout& layout, int ncomp, const Extents& e, int a) {
  if (a >= e.dim || e.halo[a] == 0) return;
  Region r;
  for (int b = 0; b < 3; ++b) {
    // Axes already filled span their halos too; later ones the interior only.
    r.lo[b] = b < a ? 0 : e.halo[b];
    r.hi[b] = b < a ? e.ext(b) : e.halo[b] + e.n[b];
  }
  const index_t period = index_t(e.n[a]) * e.stride(a);
  Region low = r, high = r;
  low.lo[a] = 0;
  low.hi[a] = e.halo[a];
  high.lo[a] = e.halo[a] + e.n[a];
  high.hi[a] = e.ext(a);
  using copy = PeriodicCopy<T, Layout, typename ExecSpace::memory_space>;
  for_each_site("kolb::PeriodicHalo", exec, low, copy{data, layout, ncomp, e.site_index(), period});
  for_each_site("kolb::PeriodicHalo", exec, high,
                copy{data, layout, ncomp, e.site_index(), -period});
}

template <class ExecSpace, class T, class Layout>
void fill_periodic_halo(const ExecSpace& exec,
                        const Kokkos::View<T*, typename ExecSpace::memory_space>& data,
                        const Layout& layout, int ncomp, const Extents& e,
                        const std::array<bool, 3>& periodic) {
  for (int a = 0; a < e.dim; ++a)
    if (periodic[a]) fill_periodic_axis(exec, data, layout, ncomp, e, a);
}

}  // namespace kolb
