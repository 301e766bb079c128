// Site loops (kernels/policy.hpp): for_each_site and the split launch
// (for_each_site_split: bulk runs, then general ends) must visit every site
// of a region exactly once and nothing outside it, whether the region has
// many rows (one work item per row) or few long ones (rows cut into
// segments so that every thread has work: D2Q37's wall rows, the thin host
// parts of a GPU node); device launches' flat indices must divide exactly.
#include <kolb/block/extents.hpp>
#include <kolb/kernels/policy.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Counts = Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::HostSpace>;

struct CountVisits {
  Counts m_counts;
  void operator()(int z, int y, int x) const { Kokkos::atomic_add(&m_counts(z, y, x), 1); }
};

// Calls what_is_wrong(x, y, z, inside r) at every site of an nx x ny x nz
// box ("" where nothing is) and reports the first five answers.
template <class Check>
void expect_every_site(const kolb::Region& r, int nx, int ny, int nz, const Check& what_is_wrong) {
  int wrong = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const bool inside = x >= r.lo[0] && x < r.hi[0] && y >= r.lo[1] && y < r.hi[1] &&
                            z >= r.lo[2] && z < r.hi[2];
        const std::string what = what_is_wrong(x, y, z, inside);
        if (!what.empty() && ++wrong <= 5)
          ADD_FAILURE() << "site (" << x << ", " << y << ", " << z << "): " << what;
      }
  EXPECT_EQ(wrong, 0) << "region x [" << r.lo[0] << ", " << r.hi[0] << ") y [" << r.lo[1] << ", "
                      << r.hi[1] << ") z [" << r.lo[2] << ", " << r.hi[2] << ")";
}

// Visits per site of an nx x ny x nz box after one for_each_site over r:
// 1 inside r, 0 elsewhere.
void expect_each_site_once(const kolb::Region& r, int nx, int ny, int nz) {
  Counts counts("counts", nz, ny, nx);
  kolb::for_each_site("test::CountVisits", Exec(), r, CountVisits{counts});
  Exec().fence();
  expect_every_site(r, nx, ny, nz, [&](int x, int y, int z, bool inside) {
    const int n = counts(z, y, x);
    return n == (inside ? 1 : 0) ? std::string() : "visited " + std::to_string(n) + " times";
  });
}

// Counts the visits of the split launch's two paths separately.
struct CountSplitVisits {
  static constexpr int Q = 9;  // a small stencil's row ends (run_ends)
  Counts m_general, m_bulk;
  void operator()(int z, int y, int x) const { Kokkos::atomic_add(&m_general(z, y, x), 1); }
  void bulk(int z, int y, int x) const { Kokkos::atomic_add(&m_bulk(z, y, x), 1); }
};

// After one for_each_site_split over r with bulk runs [begin(y, z),
// end(y, z)) per row: the sites of each row's run (clamped to r) visited
// once by `bulk`, the others of r once by the general operator, the rest
// not at all.
template <class Run>
void expect_split_visits(const kolb::Region& r, int nx, int ny, int nz, const Run& run) {
  kolb::BulkRows rows{decltype(kolb::BulkRows::runs)("runs", std::size_t(ny) * nz), ny, false};
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y) {
      const auto [b, e] = run(y, z);
      rows.runs(y + ny * z, 0) = b, rows.runs(y + ny * z, 1) = e;
    }
  Counts general("general", nz, ny, nx), bulk("bulk", nz, ny, nx);
  kolb::for_each_site_split("test::CountSplitVisits", Exec(), r, CountSplitVisits{general, bulk},
                            rows);
  Exec().fence();
  expect_every_site(r, nx, ny, nz, [&](int x, int y, int z, bool inside) {
    const auto [b, e] = run(y, z);
    const bool in_run = inside && x >= b && x < e;
    const int nb = bulk(z, y, x), ng = general(z, y, x);
    return nb == (in_run ? 1 : 0) && ng == (inside && !in_run ? 1 : 0)
               ? std::string()
               : "bulk " + std::to_string(nb) + ", general " + std::to_string(ng) + " visits";
  });
}

TEST(SiteLoops, ThinRegionsAreCutIntoSegmentsForEveryThread) {
  // 3 rows of 2048 (a D2Q37 wall): at least 4 items per thread, each at
  // least 64 sites long, where the row allows it.
  for (const int threads : {2, 16, 64}) {
    const int pieces = kolb::impl::row_pieces(3, 2048, threads);
    EXPECT_GE(3 * pieces, std::min(4 * threads, 3 * 32)) << threads << " threads";
    EXPECT_LE(pieces, 2048 / 64) << threads << " threads";
    // As many items for every thread where the row allows it (not 64
    // threads: 3 rows give at most 96 segments of 64 sites).
    if (threads <= 16) {
      EXPECT_EQ(3 * pieces % threads, 0) << threads << " threads";
      EXPECT_EQ(6 * kolb::impl::row_pieces(6, 2048, threads) % threads, 0) << threads;
    }
    // Many rows, or rows too short to cut: one item per row.
    EXPECT_EQ(kolb::impl::row_pieces(std::size_t(4 * threads), 2048, threads), 1);
    EXPECT_EQ(kolb::impl::row_pieces(1, 127, threads), 1);
  }
  EXPECT_EQ(kolb::impl::row_pieces(1, 2048, 1), 1);  // one thread: whole rows
  // Fewer pieces where more cannot be shared evenly: one row of 192 (3
  // segments at most) on 2 threads, 3 rows of 320 (5 at most) on 4.
  EXPECT_EQ(kolb::impl::row_pieces(1, 192, 2), 2);
  EXPECT_EQ(kolb::impl::row_pieces(3, 320, 4), 4);
  EXPECT_EQ(kolb::impl::row_pieces(1, 192, 16), 3);  // nothing shares evenly: the most
}

TEST(SiteLoops, EverySiteOnceWhateverTheRegionsShape) {
  // (ctest runs this on 2 threads: the first, second and last regions are cut.)
  // Few long rows at an offset (cut into segments), a row just long enough
  // to cut in two, a row too short to cut, and a box of many rows.
  expect_each_site_once({{3, 2, 0}, {2045, 5, 1}}, 2050, 8, 1);
  expect_each_site_once({{1, 0, 1}, {131, 1, 2}}, 133, 2, 3);
  expect_each_site_once({{0, 1, 0}, {127, 2, 1}}, 127, 3, 1);
  expect_each_site_once({{1, 1, 1}, {70, 9, 7}}, 72, 10, 8);
  // Three planes of short rows (rows < 4 per thread only on few threads).
  expect_each_site_once({{0, 0, 0}, {300, 2, 3}}, 300, 2, 3);
}

TEST(SiteLoops, SplitLaunchesTakeEachSiteOnceByItsPath) {
  // Runs of every kind: empty, whole row, inside, from the row's start, to
  // its end, reaching beyond the region on both sides.
  const auto mixed = [](int y, int z) -> std::pair<int, int> {
    switch ((y + 3 * z) % 6) {
      case 0: return {0, 0};
      case 1: return {0, 4096};
      case 2: return {100, 1500};
      case 3: return {0, 700};
      case 4: return {900, 4096};
      default: return {67, 1999};
    }
  };
  // Three long rows (cut into segments on 2 or more threads), six, and a
  // box of many short rows (one item per row).
  expect_split_visits({{3, 2, 0}, {2045, 5, 1}}, 2050, 8, 1, mixed);
  expect_split_visits({{0, 0, 0}, {2048, 6, 1}}, 2048, 6, 1, mixed);
  expect_split_visits({{1, 1, 1}, {70, 9, 7}}, 72, 10, 8, mixed);
}

TEST(SiteLoops, TheEndsPassRunsOnlyWhereARowHasGeneralSites) {
  // Rows of 100 whose runs are [2, 98), but for the last row's empty run.
  constexpr int nx = 100, ny = 4;
  const auto runs = [](int y, int) { return y < ny - 1 ? std::pair{2, 98} : std::pair{0, 0}; };
  kolb::BulkRows rows{decltype(kolb::BulkRows::runs)("runs", std::size_t(ny)), ny, false};
  for (int y = 0; y < ny; ++y) std::tie(rows.runs(y, 0), rows.runs(y, 1)) = runs(y, 0);
  using kolb::impl::has_general_sites;
  EXPECT_FALSE(has_general_sites({{2, 0, 0}, {98, 3, 1}}, rows));  // inside the runs
  EXPECT_FALSE(has_general_sites({{40, 1, 0}, {60, 2, 1}}, rows));
  EXPECT_TRUE(has_general_sites({{1, 0, 0}, {98, 3, 1}}, rows));   // a general head
  EXPECT_TRUE(has_general_sites({{2, 0, 0}, {99, 3, 1}}, rows));   // a general tail
  EXPECT_TRUE(has_general_sites({{40, 2, 0}, {60, 4, 1}}, rows));  // a row without a run
  rows.whole = true;
  EXPECT_FALSE(has_general_sites({{0, 0, 0}, {nx, ny, 1}}, rows));
  // Launched: an all-bulk region (no ends pass) and one with a general row.
  expect_split_visits({{2, 0, 0}, {98, 3, 1}}, nx, ny, 1, runs);
  expect_split_visits({{2, 1, 0}, {98, 4, 1}}, nx, ny, 1, runs);
}

}  // namespace

// Device launches turn a thread's flat index into (z, y, x) with FastDivisor
// (core/fast_divide.hpp): a multiply and a shift that must give exactly
// n / d and n % d for every divisor and every index below 2^31.
TEST(SiteLoops, FlatIndicesDivideExactly) {
  std::vector<int> divisors;
  for (int d = 1; d <= 3000; ++d) divisors.push_back(d);
  for (int b = 12; b <= 30; ++b)
    for (const int e : {-1, 0, 1}) divisors.push_back((1 << b) + e);
  for (const int d : {6561, 46341, 99991, 1000003, 123456789, INT_MAX - 1, INT_MAX})
    divisors.push_back(d);
  std::uint64_t state = 12345;  // a fixed LCG: the same indices every run
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return int(state >> 33);  // 31 bits
  };
  long long wrong = 0;
  for (const int d : divisors) {
    const kolb::FastDivisor div(d);
    std::vector<int> ns = {0, 1, d - 1, d, INT_MAX, INT_MAX - 1, INT_MAX - d + 1};
    for (const long long k : {1LL, 2LL, 3LL, 1000LL, 46340LL, (long long)(INT_MAX / d)})
      for (const long long e : {-1LL, 0LL, 1LL})
        if (k * d + e >= 0 && k * d + e <= INT_MAX) ns.push_back(int(k * d + e));
    for (int j = 0; j < 200; ++j) ns.push_back(next());
    for (const int n : ns) {
      int q = -1, r = -1;
      div.divide(n, q, r);
      if ((q != n / d || r != n % d) && ++wrong <= 5)
        ADD_FAILURE() << n << " / " << d << ": " << q << " rest " << r;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_THROW(kolb::FastDivisor(0), std::invalid_argument);
}

// FlatRegion::site visits every site of a region once, in x-fastest order.
TEST(SiteLoops, FlatIndexMapsToEverySiteInOrder) {
  const kolb::Region r{{2, 1, 3}, {9, 6, 7}};
  const kolb::impl::FlatRegion flat = kolb::impl::FlatRegion::of("test", r);
  ASSERT_EQ(flat.sites, 7 * 5 * 4);
  int i = 0;
  for (int z = r.lo[2]; z < r.hi[2]; ++z)
    for (int y = r.lo[1]; y < r.hi[1]; ++y)
      for (int x = r.lo[0]; x < r.hi[0]; ++x, ++i) {
        int zz, yy, xx;
        flat.site(i, zz, yy, xx);
        ASSERT_TRUE(zz == z && yy == y && xx == x) << "flat index " << i;
      }
}
