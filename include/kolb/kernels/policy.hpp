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
// Functors are templated on the memory space, the execution space is the
// launch's.
// for_each_site_split also runs a functor's lean `bulk(z, y, x)` on the bulk
// run of each row (see block/bulk_rows.hpp), and the general operator on the
// rest of the row in a second pass; on devices as two flat launches.

#include <kolb/block/bulk_rows.hpp>
#include <kolb/core/fast_divide.hpp>
#include <kolb/kernels/device_launch.hpp>
#include <kolb/kernels/host_rows.hpp>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

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

// Functors whose model has an unforced twin (IsothermalModel: BGK without
// the Guo terms) and that can be rebuilt with it (with_model).
template <class F>
using model_of = std::remove_cv_t<decltype(F::m_model)>;
template <class F, class = void>
struct has_unforced_twin : std::false_type {};
template <class F>
struct has_unforced_twin<
    F, std::void_t<typename F::template with_model<typename model_of<F>::unforced_type>>>
    : std::true_type {};

// What a site kernel may hold: its Args (every datum) and its model.
template <class Args, class Model>
struct ArgsAndModel : Args {
  Model m_model;
};

// f with its model's unforced twin: f's arguments, the other model. A
// kernel holds nothing beside its Args but the model, so nothing is left
// behind in the twin.
template <class F>
auto unforced_twin(const F& f) {
  static_assert(sizeof(F) == sizeof(ArgsAndModel<typename F::Args, model_of<F>>),
                "a site kernel's data belong in its Args");
  using Twin = typename F::template with_model<typename model_of<F>::unforced_type>;
  return Twin(f.args(), f.m_model.unforced());
}

// A region as a flat index for one device thread per site: i = x + nx (y +
// ny z) relative to the region. 32-bit indices, divided by multiplying
// (core/fast_divide.hpp): a GPU's division of runtime ints is ~25
// instructions, and every thread did two before its first load.
struct FlatRegion {
  int lo_x, lo_y, lo_z;
  FastDivisor nx, ny;
  int sites;

  // Throws std::length_error (naming `label`) beyond 2^31 - 1 sites.
  static FlatRegion of(const char* label, const Region& r) {
    const long long n = (long long)(r.hi[0] - r.lo[0]) * (r.hi[1] - r.lo[1]) * (r.hi[2] - r.lo[2]);
    if (n > INT_MAX)
      throw std::length_error(std::string(label) + ": more than 2^31 sites in one launch");
    return {
        r.lo[0], r.lo[1], r.lo[2], FastDivisor(r.hi[0] - r.lo[0]), FastDivisor(r.hi[1] - r.lo[1]),
        int(n)};
  }
  KOKKOS_INLINE_FUNCTION void site(int i, int& z, int& y, int& x) const {
    int row, plane, dx, dy;
    nx.divide(i, row, dx);
    ny.divide(row, plane, dy);
    z = lo_z + plane, y = lo_y + dy, x = lo_x + dx;
  }
};

template <class SiteFunctor>
struct FlatSiteLoop {
  SiteFunctor m_site;
  FlatRegion m_region;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    int z, y, x;
    m_region.site(i, z, y, x);
    m_site(z, y, x);
  }
};

// Functors whose bulk sites have a flat-launch twin, bulk_flat (SoA, CSoA).
template <class F, class = void>
struct has_flat_bulk : std::false_type {};
template <class F>
struct has_flat_bulk<F, std::enable_if_t<F::flat_pointers>> : std::true_type {};

// One pass of a split launch on a device, one thread per site: the bulk
// pass (Bulk) runs `bulk` on the sites in their row's run, the general pass
// the general operator on the others.
template <class SiteFunctor, class MemorySpace, bool Bulk>
struct FlatSplitLoop {
  SiteFunctor m_site;
  BulkRunsOn<MemorySpace> m_bulk;
  FlatRegion m_region;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    int z, y, x;
    m_region.site(i, z, y, x);
    // Where every row is one run (a periodic box) the general pass is not
    // launched and the bulk pass takes every site (contains reads no run).
    if (m_bulk.contains(x, y, z) != Bulk) return;
    if constexpr (!Bulk)
      m_site(z, y, x);
    else if constexpr (has_flat_bulk<SiteFunctor>::value)
      m_site.bulk_flat(z, y, x);  // 32-bit addresses (block/population_pointers.hpp)
    else
      m_site.bulk(z, y, x);
  }
};

template <class ExecSpace, class SiteFunctor>
void launch_flat(const char* label, const ExecSpace& exec, const Region& r, const SiteFunctor& f) {
  const FlatRegion flat = FlatRegion::of(label, r);
  for_each_index(label, exec, flat.sites, FlatSiteLoop<SiteFunctor>{f, flat});
}

// Runs `pass(g)` with the functor a split launch's bulk sites take: f's
// unforced twin where the model has one and no body force acts, else f.
template <class SiteFunctor, class Pass>
void with_bulk_functor(const SiteFunctor& f, const Pass& pass) {
  if constexpr (has_unforced_twin<SiteFunctor>::value) {
    if (f.m_model.forced())
      pass(f);
    else
      pass(unforced_twin(f));
  } else {
    pass(f);
  }
}

// The sites of the rows a functor takes (takes_row), for device launches.
template <class SiteFunctor>
struct TakenRows {
  using value_type = typename SiteFunctor::value_type;
  SiteFunctor m_site;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x, value_type& sum) const {
    if (m_site.takes_row(z, y)) m_site(z, y, x, sum);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { m_site.init(v); }
  KOKKOS_INLINE_FUNCTION void join(value_type& a, const value_type& b) const { m_site.join(a, b); }
#if KOKKOS_VERSION < 30700
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& a, const volatile value_type& b) const {
    m_site.join(a, b);
  }
#endif
};

}  // namespace impl

template <class ExecSpace, class SiteFunctor>
void for_each_site(const char* label, const ExecSpace& exec, const Region& r,
                   const SiteFunctor& f) {
  if (r.empty()) return;
  if constexpr (is_host_space_v<ExecSpace>) {
    const auto rows = impl::RowPieces::of(r, exec.concurrency());
    Kokkos::parallel_for(label, impl::row_policy(exec, rows), impl::RowLoop<SiteFunctor>{f, rows});
  } else {
    impl::launch_flat(label, exec, r, f);
  }
}

// Like for_each_site, for functors that also have a lean `bulk(z, y, x)`,
// valid where a site and all its upstream neighbours are fluid (the bulk
// runs of `bulk`): a host launch runs every row's bulk run, then the general
// sites left (see run_bulk). Without a body force, bulk sites collide with
// the model's unforced twin (the same bits, fewer instructions).
template <class ExecSpace, class SiteFunctor>
void for_each_site_split(const char* label, const ExecSpace& exec, const Region& r,
                         const SiteFunctor& f, const BulkRows& bulk) {
  static_assert(is_host_space_v<ExecSpace>, "device launches take the runs in device memory");
  if (r.empty()) return;
  const auto rows = impl::RowPieces::of(r, exec.concurrency());
  impl::with_bulk_functor(f, [&](const auto& g) {
    using G = std::decay_t<decltype(g)>;
    if constexpr (impl::goes_by_lines<G>::value) {
      const int shares = std::max(1, exec.concurrency());
      Kokkos::parallel_for(
          label,
          Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>(exec, 0, shares)
              .set_chunk_size(1),
          impl::BulkShareLoop<G>{{g, bulk, rows}, shares});
    } else {
      Kokkos::parallel_for(label, impl::row_policy(exec, rows),
                           impl::SplitRowLoop<G, false>{g, bulk, rows});
    }
  });
  if (impl::has_general_sites(r, bulk))
    Kokkos::parallel_for(label, impl::row_policy(exec, rows),
                         impl::SplitRowLoop<SiteFunctor, true>{f, bulk, rows});
}

// The same two passes as device launches (one thread per site, any
// execution space): the bulk sites through `bulk` (no material loads, no
// bounce-back branches), then, unless every row is one run, the others
// through the general operator. Two kernels rather than one with a branch:
// a kernel gets the registers of its heaviest path, and the general one
// (material tests, wall terms) needs more.
template <class ExecSpace, class SiteFunctor, class MemorySpace>
void for_each_site_split(const char* label, const ExecSpace& exec, const Region& r,
                         const SiteFunctor& f, const BulkRunsOn<MemorySpace>& bulk) {
  if (r.empty()) return;
  const impl::FlatRegion flat = impl::FlatRegion::of(label, r);
  if constexpr (impl::has_flat_bulk<SiteFunctor>::value)
    if (!f.m_flat.site.fits)
      throw std::length_error(std::string(label) +
                              ": a block of 2^32 sites or more (with halos) in one device part");
  impl::with_bulk_functor(f, [&](const auto& g) {
    using G = std::decay_t<decltype(g)>;
    for_each_index(label, exec, flat.sites,
                   impl::FlatSplitLoop<G, MemorySpace, true>{g, bulk, flat});
  });
  if (!bulk.whole)
    for_each_index(label, exec, flat.sites,
                   impl::FlatSplitLoop<SiteFunctor, MemorySpace, false>{f, bulk, flat});
}

// Reduces a site functor (operator()(z, y, x, value_type&), init, join) over
// the rows of region r it takes (takes_row(z, y); Observables' sampled
// stability checks read one in 8): rows on host spaces, a 3-D range on
// devices.
template <class ExecSpace, class SiteFunctor>
typename SiteFunctor::value_type reduce_sites(const char* label, const ExecSpace& exec,
                                              const Region& r, const SiteFunctor& f) {
  typename SiteFunctor::value_type sum;
  f.init(sum);
  if (r.empty()) return sum;
  if constexpr (is_host_space_v<ExecSpace>) {
    const auto rows = impl::RowPieces::of(r, exec.concurrency());
    Kokkos::parallel_reduce(label, impl::row_policy(exec, rows),
                            impl::RowReduce<SiteFunctor>{f, rows}, sum);
  } else {
    Kokkos::parallel_reduce(label, region_policy(exec, r), impl::TakenRows<SiteFunctor>{f}, sum);
  }
  return sum;
}

// Reduces f (operator()(index_t, value_type&), init, join) over [begin,
// end). On host spaces a range shorter than `serial_below` runs on the
// calling thread: a few thousand items take microseconds, less than waking
// the threads for them.
template <class ExecSpace, class F>
typename F::value_type reduce_range(const char* label, const ExecSpace& exec, index_t begin,
                                    index_t end, const F& f, index_t serial_below = 4096) {
  typename F::value_type sum;
  f.init(sum);
  if constexpr (is_host_space_v<ExecSpace>) {
    if (end - begin < serial_below) {
      exec.fence();
      for (index_t k = begin; k < end; ++k) f(k, sum);
      return sum;
    }
  }
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>>(exec, begin, end), f, sum);
  return sum;
}

// Seconds of the fastest of `repeats` launches of f over [0, n) (one more
// launch first, to warm up).
template <class ExecSpace, class F>
double best_time(const char* label, const ExecSpace& exec, index_t n, const F& f, int repeats) {
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>> policy(exec, 0, n);
  double best = 1e300;
  for (int r = 0; r < repeats + 1; ++r) {
    exec.fence();
    Kokkos::Timer timer;
    Kokkos::parallel_for(label, policy, f);
    exec.fence();
    if (r > 0) best = std::min(best, timer.seconds());
  }
  return best;
}

}  // namespace kolb
