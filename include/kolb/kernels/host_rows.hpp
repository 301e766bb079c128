#pragma once
// The host side of kernels/policy.hpp's launches: the work items of a
// launch over a region (x rows, or segments of few rows), the vectorised
// loop over a row's sites, and a split launch's two passes (each row's bulk
// run through the functor's lean `bulk`, then the general sites left).

#include <kolb/block/bulk_rows.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/core/macros.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace kolb {

// Whether `layout` keeps population 0 of sites 0..n-1 in n consecutive
// slots, as every population of SoA and CSoA (clusters of n or more) is:
// what host rows that go a cache line of n sites at a time need (not AoS).
template <class Layout>
bool keeps_line_runs(const Layout& layout, int n) {
  return layout(n - 1, 0) == layout(0, 0) + n - 1;
}

// What the in-place kernels (Collide, AAPull) add for run_bulk's
// `prefetches` path: their host bulk rows ask for the lines of the sites
// prefetch_sites on (Functor::prefetch_sources) where their buffer exceeds
// half the last-level cache and the layout keeps each population's sites in
// line-long runs (not AoS). A site reads and writes the same lines, so only
// reads are asked for. Propagate's rows, which store through the cache, ran
// slower with it and do not ask. They ask twice as far ahead as the
// two-buffer rows, which kept them closer to their probe.
template <class Stored>
struct RowPrefetch {
  static constexpr bool prefetches = true;
  static constexpr int line_sites = host::line_values<Stored>;
  static constexpr int prefetch_sites = 2 * host::kPrefetchLines * line_sites;
  bool m_lines = false;  // whether rows prefetch (run_bulk's name)

  // Decides m_lines for a buffer of `bytes` in `layout` (host code).
  template <class Layout>
  void decide(const Layout& layout, std::size_t bytes) {
    m_lines = keeps_line_runs(layout, line_sites) && 2 * bytes > host::last_level_cache_bytes();
  }
};

namespace impl {

// Sites [x0, x1) of one row, out of line: one compiled, vectorised loop per
// functor, shared by every host execution space (OpenMP and Serial parts)
// and by the short general head and tail of split rows.
template <class SiteFunctor>
KOLB_NOINLINE void run_segment(const SiteFunctor& f, int z, int y, int x0, int x1) {
  KOLB_SIMD
  for (int x = x0; x < x1; ++x) f(z, y, x);
}

// Functors with row(z, y, x0, x1) run a row segment themselves (the
// D2Q37 wall rows: one loop per row kind).
template <class F, class = void>
struct runs_rows : std::false_type {};
template <class F>
struct runs_rows<F, std::void_t<decltype(std::declval<const F&>().row(0, 0, 0, 0))>>
    : std::true_type {};

// The x rows of region r.
inline std::size_t region_rows(const Region& r) {
  return std::size_t(r.hi[1] - r.lo[1]) * std::size_t(r.hi[2] - r.lo[2]);
}

// Segments per row so that a region of few rows still has ~4 work items
// per thread, each at least 64 sites long, and where the row allows it the
// same number for every thread (the static schedule gives each a contiguous
// share: 9 items on 2 threads kept one busy 25 % longer), with fewer pieces
// if more cannot share evenly (one row of 192 on 2 threads: 2 pieces, not
// 3); 1 for regions of many rows and for one thread.
inline int row_pieces(std::size_t rows, int nx, int threads) {
  constexpr int kMinSegment = 64;
  const std::size_t want = 4 * std::size_t(threads), t = std::size_t(threads);
  if (threads <= 1 || rows >= want || nx < 2 * kMinSegment) return 1;
  const std::size_t most = std::size_t(nx / kMinSegment);
  std::size_t pieces = std::min((want + rows - 1) / rows, most);
  for (std::size_t p = pieces; p <= most; ++p)
    if (rows * p % t == 0) return int(p);
  for (std::size_t p = pieces - 1; p >= 1 && rows * p >= t; --p)
    if (rows * p % t == 0) return int(p);
  return int(pieces);
}

// The work items of a host launch over a region: one x row each, or, for
// regions of few rows, a segment of one (`pieces` per row, starting 8k
// sites into it): with a row each, the few rows of D2Q37's walls and of the
// thin host parts of a GPU node kept most threads idle.
struct RowPieces {
  int lo_x, nx, lo_y, ny, lo_z, pieces;
  std::size_t rows;

  static RowPieces of(const Region& r, int threads) {
    const int nx = r.hi[0] - r.lo[0];
    const std::size_t rows = region_rows(r);
    return {r.lo[0], nx, r.lo[1], r.hi[1] - r.lo[1], r.lo[2], row_pieces(rows, nx, threads), rows};
  }
  std::size_t items() const { return rows * std::size_t(pieces); }
  int start(int piece) const {
    return piece == pieces ? nx : int((long long)nx * piece / pieces) & ~7;
  }
  // Row (z, y) and sites [x0, x1) of work item `item`.
  void segment(int item, int& z, int& y, int& x0, int& x1) const {
    const int row = item / pieces, piece = item % pieces;
    z = lo_z + row / ny, y = lo_y + row % ny;
    x0 = lo_x + start(piece), x1 = lo_x + start(piece + 1);
  }
};

template <class SiteFunctor>
struct RowLoop {
  SiteFunctor m_site;
  RowPieces m_rows;

  void operator()(int item) const {
    int z, y, x0, x1;
    m_rows.segment(item, z, y, x0, x1);
    if constexpr (runs_rows<SiteFunctor>::value)
      m_site.row(z, y, x0, x1);
    else
      run_segment(m_site, z, y, x0, x1);
  }
};

// A few general sites (the ends of a row next to x walls), scalar and out of
// line: entering the vectorised general loop costs its whole set-up (offsets,
// wall terms, blends broadcast and spilled) however short the run.
constexpr int kShortSegment = 4;
template <class SiteFunctor>
KOLB_NOINLINE KOLB_NO_VECTORIZE void run_short_segment(const SiteFunctor& f, int z, int y, int x0,
                                                       int x1) {
  for (int x = x0; x < x1; ++x) f(z, y, x);
}

// Rows of a split launch run in two passes: the bulk run of every row
// (run_bulk), then the general sites left before and after it (run_ends).
// Interleaved row by row, a general site or two between the vectorised bulk
// loops of consecutive rows drained their memory streams; the ends pass
// costs only their cold cache lines.
// Sites of one step are independent in every scheme, so the order is free.

// The clamped bulk run [b, e) of row (y, z) within [lo, hi).
inline void clamp_run(const BulkRows& bulk, int z, int y, int lo, int hi, int& b, int& e) {
  b = std::min(std::max(bulk(y, z, 0), lo), hi);
  e = std::min(std::max(bulk(y, z, 1), b), hi);
}

template <class F, class = void>
struct goes_by_lines : std::false_type {};
template <class F>
struct goes_by_lines<F, std::enable_if_t<F::by_lines>> : std::true_type {};

template <class F, class = void>
struct prefetches : std::false_type {};
template <class F>
struct prefetches<F, std::enable_if_t<F::prefetches>> : std::true_type {};

// n bulk sites from x0: one vector loop of a known trip count.
template <int n, class SiteFunctor>
KOLB_HOST_INLINE void run_bulk_chunk(const SiteFunctor& f, int z, int y, int x0) {
  KOLB_SIMD
  for (int k = 0; k < n; ++k) f.bulk(z, y, x0 + k);
}

// Bulk sites [x0, x1) of a row, site by site (vectorised across them).
template <class SiteFunctor>
KOLB_NOINLINE void run_bulk_sites(const SiteFunctor& f, int z, int y, int x0, int x1) {
  KOLB_SIMD
  for (int x = x0; x < x1; ++x) f.bulk(z, y, x);
}

template <class F, class = void>
struct has_row_start : std::false_type {};
template <class F>
struct has_row_start<F, std::enable_if_t<F::has_row_start>> : std::true_type {};
template <class F, class = void>
struct has_row_end : std::false_type {};
template <class F>
struct has_row_end<F, std::enable_if_t<F::has_row_end>> : std::true_type {};

// Bulk sites [b, e) of row (y, z). Functors with `by_lines`
// (stream_collide.hpp) take them a cache line of sites at a time between an
// unaligned head and tail, functors with `prefetches` a line of sites at a
// time after asking for the inputs of the sites prefetch_sites on; both
// where their m_lines says so. Functors with `has_row_start` get their
// row_last(z, y, b, e) before the row's last line (the in-place kernels).
template <class SiteFunctor>
KOLB_HOST_INLINE void run_bulk_run(const SiteFunctor& f, int z, int y, int b, int e) {
  if constexpr (goes_by_lines<SiteFunctor>::value) {
    if (f.m_lines) {
      constexpr int n = SiteFunctor::line_sites;
      int x = std::min(f.line_start(z, y, b), e);
      run_bulk_sites(f, z, y, b, x);
      for (; x + n <= e; x += n) f.bulk_line(z, y, x);
      run_bulk_sites(f, z, y, x, e);
      return;  // the caller fences the non-temporal stores (BulkShareLoop)
    }
  }
  if constexpr (prefetches<SiteFunctor>::value) {
    if (f.m_lines) {
      constexpr int n = SiteFunctor::line_sites, ahead = SiteFunctor::prefetch_sites;
      int x = b;
      if constexpr (has_row_start<SiteFunctor>::value) {  // all lines but the last
        for (; x + 2 * n <= e; x += n) {
          f.prefetch_sources(f.m_site(x + ahead, y, z));
          run_bulk_chunk<n>(f, z, y, x);
        }
        f.row_last(z, y, b, e);
      }
      for (; x + n <= e; x += n) {
        f.prefetch_sources(f.m_site(x + ahead, y, z));
        run_bulk_chunk<n>(f, z, y, x);
      }
      run_bulk_sites(f, z, y, x, e);
      return;
    }
  }
  if constexpr (has_row_start<SiteFunctor>::value) f.row_last(z, y, b, e);
  run_bulk_sites(f, z, y, b, e);
}

// The bulk run of one row within [lo, hi), between, for functors with
// `has_row_start` and `has_row_end`, their row_start(z, y, b, e) and
// row_end(z, y, b, e) (AAPull and the AA local step: open x faces, and the
// local step's x halos).
template <class SiteFunctor>
KOLB_NOINLINE void run_bulk(const SiteFunctor& f, const BulkRows& bulk, int z, int y, int lo,
                            int hi) {
  int b, e;
  clamp_run(bulk, z, y, lo, hi, b, e);
  if constexpr (has_row_start<SiteFunctor>::value) f.row_start(z, y, b, e);
  run_bulk_run(f, z, y, b, e);
  if constexpr (has_row_end<SiteFunctor>::value) f.row_end(z, y, b, e);
}

// Whether any row of r has sites outside its bulk run within r's x range:
// where none has, the ends pass is not launched. Most regions of a thin host
// part (a few rows a side of a GPU node) are all bulk, and each pass over
// them was a parallel region of every thread for nothing.
inline bool has_general_sites(const Region& r, const BulkRows& bulk) {
  if (bulk.whole) return false;
  for (int z = r.lo[2]; z < r.hi[2]; ++z)
    for (int y = r.lo[1]; y < r.hi[1]; ++y) {
      int b, e;
      clamp_run(bulk, z, y, r.lo[0], r.hi[0], b, e);
      if (b > r.lo[0] || e < r.hi[0]) return true;
    }
  return false;
}

// Small stencils keep a longer head or tail inline (the compiler schedules
// it with the row function, which CAoSoA's gathers are sensitive to); large
// ones (D2Q37) share run_segment: one copy of the collision.
template <class SiteFunctor>
KOLB_NOINLINE void run_ends(const SiteFunctor& f, const BulkRows& bulk, int z, int y, int lo,
                            int hi) {
  constexpr bool inline_edges = SiteFunctor::Q <= 19;
  int b, e;
  clamp_run(bulk, z, y, lo, hi, b, e);
  for (const auto& [x0, x1] : {std::pair<int, int>{lo, b}, std::pair<int, int>{e, hi}}) {
    if (x0 == x1) continue;
    if constexpr (inline_edges) {
      if (x1 - x0 < kShortSegment) {
        run_short_segment(f, z, y, x0, x1);
      } else {
        KOLB_SIMD
        for (int x = x0; x < x1; ++x) f(z, y, x);
      }
    } else {
      run_segment(f, z, y, x0, x1);
    }
  }
}

// One pass of a split launch over rows (or row segments, RowPieces): their
// bulk runs (Ends false) or their general ends (Ends true).
template <class SiteFunctor, bool Ends>
struct SplitRowLoop {
  SiteFunctor m_site;
  BulkRows m_bulk;
  RowPieces m_rows;

  void operator()(int item) const {
    int z, y, x0, x1;
    m_rows.segment(item, z, y, x0, x1);
    if constexpr (Ends)
      run_ends(m_site, m_bulk, z, y, x0, x1);
    else
      run_bulk(m_site, m_bulk, z, y, x0, x1);
  }
};

// The bulk pass of functors that go by lines: one work item per thread, each
// a contiguous share of the rows (as the static schedule of SplitRowLoop
// would give), and one store fence after its last row for the non-temporal
// line stores. A fence per row drained the write-combining buffers of 2Q
// streams every few lines (rows are short).
template <class SiteFunctor>
struct BulkShareLoop {
  SplitRowLoop<SiteFunctor, false> m_items;
  int m_shares;

  void operator()(int share) const {
    const std::size_t n = m_items.m_rows.items();
    const std::size_t end = n * std::size_t(share + 1) / std::size_t(m_shares);
    for (std::size_t item = n * std::size_t(share) / std::size_t(m_shares); item < end; ++item)
      m_items(int(item));
    host::stream_fence();
  }
};

// A reduction over one x row (or row segment, RowPieces) per work item,
// summed into a local value first: on CPUs a per-site MDRange reduction cost
// the run loop's stability check as much as several steps.
template <class SiteFunctor>
struct RowReduce {
  using value_type = typename SiteFunctor::value_type;
  SiteFunctor m_site;
  RowPieces m_rows;

  void operator()(int item, value_type& sum) const {
    int z, y, x0, x1;
    m_rows.segment(item, z, y, x0, x1);
    // A row at a time: a test per site slowed the sampled stability check.
    if (!m_site.takes_row(z, y)) return;
    value_type local;
    m_site.init(local);
    for (int x = x0; x < x1; ++x) m_site(z, y, x, local);
    m_site.join(sum, local);
  }
  void init(value_type& v) const { m_site.init(v); }
  void join(value_type& a, const value_type& b) const { m_site.join(a, b); }
#if KOKKOS_VERSION < 30700
  void join(volatile value_type& a, const volatile value_type& b) const { m_site.join(a, b); }
#endif
};

// One work item per row or row segment of `rows`.
template <class ExecSpace>
Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>> row_policy(const ExecSpace& exec,
                                                                            const RowPieces& rows) {
  return {exec, std::size_t(0), rows.items()};
}

}  // namespace impl

}  // namespace kolb
