// Host site loops (kernels/policy.hpp): for_each_site must visit every site
// of a region exactly once and nothing outside it, whether the region has
// many rows (one work item per row) or few long ones (rows cut into
// segments so that every thread has work: D2Q37's wall rows).
#include <kolb/block/extents.hpp>
#include <kolb/kernels/policy.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Counts = Kokkos::View<int***, Kokkos::LayoutRight, Kokkos::HostSpace>;

struct CountVisits {
  Counts m_counts;
  void operator()(int z, int y, int x) const { Kokkos::atomic_add(&m_counts(z, y, x), 1); }
};

// Visits per site of an nx x ny x nz box after one for_each_site over r:
// 1 inside r, 0 elsewhere.
void expect_each_site_once(const kolb::Region& r, int nx, int ny, int nz) {
  Counts counts("counts", nz, ny, nx);
  kolb::for_each_site("test::CountVisits", Exec(), r, CountVisits{counts});
  Exec().fence();
  int wrong = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const bool inside = x >= r.lo[0] && x < r.hi[0] && y >= r.lo[1] && y < r.hi[1] &&
                            z >= r.lo[2] && z < r.hi[2];
        if (counts(z, y, x) != (inside ? 1 : 0) && ++wrong <= 5)
          ADD_FAILURE() << "site (" << x << ", " << y << ", " << z << ") visited "
                        << counts(z, y, x) << " times";
      }
  EXPECT_EQ(wrong, 0) << "region x [" << r.lo[0] << ", " << r.hi[0] << ") y [" << r.lo[1] << ", "
                      << r.hi[1] << ") z [" << r.lo[2] << ", " << r.hi[2] << ")";
}

TEST(SiteLoops, ThinRegionsAreCutIntoSegmentsForEveryThread) {
  // 3 rows of 2048 (a D2Q37 wall): at least 4 items per thread, each at
  // least 64 sites long, where the row allows it.
  for (const int threads : {2, 16, 64}) {
    const int pieces = kolb::impl::row_pieces(3, 2048, threads);
    EXPECT_GE(3 * pieces, std::min(4 * threads, 3 * 32)) << threads << " threads";
    EXPECT_LE(pieces, 2048 / 64) << threads << " threads";
    // Many rows, or rows too short to cut: one item per row.
    EXPECT_EQ(kolb::impl::row_pieces(std::size_t(4 * threads), 2048, threads), 1);
    EXPECT_EQ(kolb::impl::row_pieces(1, 127, threads), 1);
  }
  EXPECT_EQ(kolb::impl::row_pieces(1, 2048, 1), 1);  // one thread: whole rows
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

}  // namespace
