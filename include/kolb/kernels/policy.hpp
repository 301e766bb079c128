#pragma once
// How kernels iterate over a Region. Site functors provide
// `operator()(int z, int y, int x)`; for_each_site launches them as
//  - host spaces: one work item per x row, the row an inner loop marked
//    independent, so the compiler vectorises the update across sites;
//  - device spaces: one thread per site over a flat index, x fastest, so the
//    threads of a warp touch consecutive sites (coalesced). Not MDRange:
//    Kokkos' CUDA/HIP MDRange puts its *first* index on threadIdx.x whatever
//    the Iterate order, which for (z, y, x) spread a warp across z planes.
// The functor body is the same in both cases; only the launch differs.
// for_each_site_split also runs a functor's lean `bulk(z, y, x)` on the bulk
// run of each row (see block/bulk_rows.hpp).

#include <kolb/block/extents.hpp>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <type_traits>

namespace kolb {

template <class ExecSpace>
constexpr bool is_host_space_v =
    std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value;

template <class ExecSpace>
using region_mdrange =
    Kokkos::MDRangePolicy<ExecSpace,
                          Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                          Kokkos::IndexType<int>>;

// 3-D range over a region (z, y, x), x fastest; used for reductions.
template <class ExecSpace>
region_mdrange<ExecSpace> region_policy(const ExecSpace& exec, const Region& r) {
  using policy = region_mdrange<ExecSpace>;
  using array = typename policy::point_type;
  const array lo{r.lo[2], r.lo[1], r.lo[0]};
  const array hi{r.hi[2], r.hi[1], r.hi[0]};
  if (is_host_space_v<ExecSpace>) return policy(exec, lo, hi, array{1, 1, r.hi[0] - r.lo[0]});
  return policy(exec, lo, hi);
}

namespace impl {

template <class SiteFunctor>
struct RowLoop {
  SiteFunctor m_site;
  int m_lo_x, m_hi_x, m_lo_y, m_ny, m_lo_z;

  KOKKOS_INLINE_FUNCTION void operator()(int row) const {
    const int z = m_lo_z + row / m_ny;
    const int y = m_lo_y + row % m_ny;
    KOLB_SIMD
    for (int x = m_lo_x; x < m_hi_x; ++x) m_site(z, y, x);
  }
};

// Rows split into [lo, begin) general | [begin, end) bulk | [end, hi) general.
template <class SiteFunctor>
struct SplitRowLoop {
  SiteFunctor m_site;
  Kokkos::View<const int* [2], Kokkos::LayoutRight, Kokkos::HostSpace> m_bulk;
  int m_lo_x, m_hi_x, m_lo_y, m_ny, m_lo_z, m_ext_y;

  void operator()(int row) const {
    const int z = m_lo_z + row / m_ny;
    const int y = m_lo_y + row % m_ny;
    const index_t r = y + index_t(m_ext_y) * z;
    const int b = std::min(std::max(m_bulk(r, 0), m_lo_x), m_hi_x);
    const int e = std::min(std::max(m_bulk(r, 1), b), m_hi_x);
    KOLB_SIMD
    for (int x = m_lo_x; x < b; ++x) m_site(z, y, x);
    KOLB_SIMD
    for (int x = b; x < e; ++x) m_site.bulk(z, y, x);
    KOLB_SIMD
    for (int x = e; x < m_hi_x; ++x) m_site(z, y, x);
  }
};

// One device thread per site: i = x + nx (y + ny z) relative to the region.
// 32-bit indices (the divisions are a few instructions, 64-bit ones a call).
template <class SiteFunctor>
struct FlatSiteLoop {
  SiteFunctor m_site;
  int m_lo_x, m_nx, m_lo_y, m_ny, m_lo_z;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int row = i / m_nx;
    m_site(m_lo_z + row / m_ny, m_lo_y + row % m_ny, m_lo_x + i % m_nx);
  }
};

template <class ExecSpace, class SiteFunctor>
void launch_flat(const char* label, const ExecSpace& exec, const Region& r, const SiteFunctor& f) {
  const int nx = r.hi[0] - r.lo[0], ny = r.hi[1] - r.lo[1];
  const long long sites = (long long)nx * ny * (r.hi[2] - r.lo[2]);
  if (sites > INT_MAX)
    throw std::length_error(std::string(label) + ": more than 2^31 sites in one launch");
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int>>(exec, 0, int(sites)),
                       FlatSiteLoop<SiteFunctor>{f, r.lo[0], nx, r.lo[1], ny, r.lo[2]});
}

template <class ExecSpace>
Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>> row_policy(const ExecSpace& exec,
                                                                            const Region& r) {
  const std::size_t rows = std::size_t(r.hi[1] - r.lo[1]) * std::size_t(r.hi[2] - r.lo[2]);
  return {exec, std::size_t(0), rows};
}

}  // namespace impl

template <class ExecSpace, class SiteFunctor>
void for_each_site(const char* label, const ExecSpace& exec, const Region& r,
                   const SiteFunctor& f) {
  if (r.empty()) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    Kokkos::parallel_for(
        label, impl::row_policy(exec, r),
        impl::RowLoop<SiteFunctor>{f, r.lo[0], r.hi[0], r.lo[1], r.hi[1] - r.lo[1], r.lo[2]});
  } else {
    impl::launch_flat(label, exec, r, f);
  }
}

// Like for_each_site, for functors that also have a lean `bulk(z, y, x)`,
// valid where a site and all its upstream neighbours are fluid. `bulk_rows`
// (host memory) comes from find_bulk_rows; devices run the general operator.
template <class ExecSpace, class SiteFunctor, class BulkRows>
void for_each_site_split(const char* label, const ExecSpace& exec, const Region& r,
                         const SiteFunctor& f, const BulkRows& bulk_rows, int ext_y) {
  if (r.empty()) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    Kokkos::parallel_for(label, impl::row_policy(exec, r),
                         impl::SplitRowLoop<SiteFunctor>{f, bulk_rows, r.lo[0], r.hi[0], r.lo[1],
                                                         r.hi[1] - r.lo[1], r.lo[2], ext_y});
  } else {
    impl::launch_flat(label, exec, r, f);
  }
}

}  // namespace kolb
