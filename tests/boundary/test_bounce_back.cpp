// Wall ghosts (boundary/bounce_back.hpp): in a box walled on every face (a
// moving lid, an obstacle inside), a step through ghosts and bulk runs must
// give the bits of the general pull at every site, two-buffer and AA, and
// the ghosts must make the rows away from the obstacle bulk from end to end.
// Device parts take no ghosts and launch split kernels flat, one thread per
// site (kernels/policy.hpp, BulkRunsOn): run here on the host, those two
// launches must give the same bits too.
#include <kolb/boundary/bounce_back.hpp>
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/lattice/d3q19.hpp>
#include <kolb/layout/aos.hpp>
#include <kolb/layout/soa.hpp>
#include <kolb/model/models.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstring>

namespace {

using Lattice = kolb::D3Q19;
using Model = kolb::IsothermalModel<Lattice, double>;
using Exec = Kokkos::DefaultHostExecutionSpace;

// Runs follow the layout's strides: SoA rows are whole runs, CSoA8 ones
// break at clusters, AoS ones step by Q.
// `row_align` and `lead` as BlockPart's aligned rows give them
// (block/block.hpp): each row's first interior site on a cache line.
template <class Layout>
struct Box {
  using BlockT = kolb::Block<Lattice, double, Layout, Kokkos::HostSpace>;
  kolb::Extents e;
  kolb::MaterialTable table;
  kolb::WallTerms<Lattice, double> wall;
  Model model;
  BlockT a, b;  // a: general pull everywhere; b: ghosts and bulk runs

  explicit Box(int buffers, std::array<int, 3> n = {11, 9, 7}, int row_align = 1, int lead = 0)
      : e(n, Lattice::halo, 3, row_align),
        a(e, "a", buffers, true, lead),
        b(e, "b", buffers, true, lead) {
    const kolb::material_t lid = table.moving_wall({0.05, 0.0, 0.02});
    wall = kolb::WallTerms<Lattice, double>(table);
    model.collision.rates.omega = 1.0 / 0.7;
    auto mat = Kokkos::create_mirror_view(a.material());
    auto f = Kokkos::create_mirror_view(a.current());
    const kolb::SiteIndex site = e.site_index();
    for (int z = 0; z < e.ext(2); ++z)
      for (int y = 0; y < e.ext(1); ++y)
        for (int x = 0; x < e.ext(0); ++x) {
          const bool halo = x == 0 || y == 0 || z == 0 || x == e.ext(0) - 1 || y == e.ext(1) - 1 ||
                            z == e.ext(2) - 1;
          const bool obstacle = x == 5 && y == 4 && z == 3;
          const kolb::index_t s = site(x, y, z);
          mat(s) = y == e.ext(1) - 1 ? lid : (halo || obstacle ? kolb::kSolid : kolb::kFluid);
          for (int i = 0; i < Lattice::q; ++i)  // distinct values, halos zero as allocated
            f(a.layout()(s, i)) =
                halo ? 0.0 : Lattice::w(i) * (1.0 + 0.01 * ((s * 7 + i * 13) % 17));
        }
    Kokkos::deep_copy(a.material(), mat);
    Kokkos::deep_copy(b.material(), mat);
    Kokkos::deep_copy(a.current(), f);
    Kokkos::deep_copy(b.current(), f);
  }

  // Ghost runs and bulk runs of b; checks that rows clear of the obstacle
  // are whole bulk runs and that the ghost entries join into runs.
  kolb::BulkRows ghosts(bool swapped, Kokkos::View<kolb::GhostRun*, Kokkos::HostSpace>& runs,
                        std::array<bool, 2> lanes = {false, false}, int general_rows = 9) {
    auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.material());
    Kokkos::View<bool*, Kokkos::HostSpace> ghosted("ghosted", e.num_sites());
    kolb::WallFaces walls;
    for (auto& axis : walls) axis = {true, true};
    kolb::mark_wall_ghosts(mat, e, walls, ghosted);
    const kolb::BulkRows bulk = kolb::find_bulk_rows<Lattice>(
        e, Kokkos::View<const kolb::material_t*, Kokkos::HostSpace>(mat), true, ghosted);
    int whole = 0;
    for (int z = 1; z <= e.n[2]; ++z)
      for (int y = 1; y <= e.n[1]; ++y) whole += bulk(y, z, 0) == 1 && bulk(y, z, 1) == 1 + e.n[0];
    EXPECT_EQ(whole, e.n[1] * e.n[2] - general_rows) << "rows next to obstacles keep general sites";
    const kolb::WallGhostPlan plan =
        kolb::wall_ghosts<Lattice>(mat, e, b.layout(), ghosted, bulk, swapped, lanes);
    runs = plan.runs;
    long entries = 0, lane_entries = 0;
    for (const auto* set : {&plan.runs, &plan.lane_runs})
      for (std::size_t r = 0; r < set->extent(0); ++r) {
        const kolb::GhostRun& run = (*set)(r);
        EXPECT_GT(run.stride, 0);
        EXPECT_LT(run.ghost + (run.count - 1) * run.stride, kolb::index_t(b.current().size()));
        EXPECT_LT(run.site + (run.count - 1) * run.stride, kolb::index_t(b.current().size()));
        (set == &plan.runs ? entries : lane_entries) += run.count;
      }
    // The lanes take the x faces' entries: 5 crossing populations a row
    // (fewer at edges and next to general sites), none without lanes.
    EXPECT_EQ(lane_entries > 0, lanes[0] || lanes[1]);
    // Counted from the pulling side: each site of a bulk run pulls from a
    // ghost through every population whose upstream site is ghosted.
    long pulled = 0;
    for (int z = 1; z <= e.n[2]; ++z)
      for (int y = 1; y <= e.n[1]; ++y)
        for (int x = bulk(y, z, 0); x < bulk(y, z, 1); ++x)
          for (int i = 0; i < Lattice::q; ++i)
            pulled += ghosted(
                e.site_index()(x - Lattice::c(i, 0), y - Lattice::c(i, 1), z - Lattice::c(i, 2)));
    EXPECT_EQ(entries + lane_entries, pulled);
    // Rows of 11 (SoA, AoS) or pieces of up to 8 (CSoA8 clusters) along the
    // y and z faces, columns of 9 or 7 down the x faces: far fewer runs.
    EXPECT_LT(long(runs.extent(0)) * 4, entries);
    return bulk;
  }

  template <bool Return>
  void apply(const Kokkos::View<kolb::GhostRun*, Kokkos::HostSpace>& runs) {
    Kokkos::parallel_for(
        Kokkos::RangePolicy<Exec, Kokkos::IndexType<kolb::index_t>>(0, runs.extent(0)),
        kolb::WallGhosts<Lattice, double, Kokkos::HostSpace, Return>{b.current(), runs, wall});
  }

  // First interior population where the two arrays differ (-1: none).
  long first_difference(const typename BlockT::population_view& fa,
                        const typename BlockT::population_view& fb) {
    auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fa);
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fb);
    for (int z = 1; z <= e.n[2]; ++z)
      for (int y = 1; y <= e.n[1]; ++y)
        for (int x = 1; x <= e.n[0]; ++x)
          for (int i = 0; i < Lattice::q; ++i) {
            const kolb::index_t k = a.layout()(e.site_index()(x, y, z), i);
            if (std::memcmp(&ha(k), &hb(k), sizeof(double)) != 0) return long(k);
          }
    return -1;
  }
};

// One step of Kernel (StreamCollide or AAPull) on box.a through the general
// pull everywhere, and on box.b through the ghosts and the bulk runs.
template <class Kernel, class Layout>
void step_both(Box<Layout>& box, bool aa) {
  const kolb::Region all = kolb::interior_region(box.e);
  kolb::for_each_site("general", Exec(), all, Kernel(box.a, box.wall, box.model));
  Kokkos::View<kolb::GhostRun*, Kokkos::HostSpace> runs;
  const kolb::BulkRows bulk = box.ghosts(aa, runs);
  box.template apply<false>(runs);
  kolb::for_each_site_split("ghosts", Exec(), all, Kernel(box.b, box.wall, box.model), bulk);
  if (aa) box.template apply<true>(runs);
  Exec().fence();
}

// One step on box.a through the general operator everywhere, and on box.b
// through the flat split launches of device parts (bulk sites through
// `bulk` and the unforced twin, the others through the general operator).
// `neighbours`: bulk sites need all upstream neighbours fluid (pulls) or
// only themselves (kernels that read their own site).
template <class Layout, class Make>
void step_flat_split(Box<Layout>& box, bool neighbours, const Make& make) {
  const kolb::Region all = kolb::interior_region(box.e);
  kolb::for_each_site("general", Exec(), all, make(box.a));
  auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), box.b.material());
  const kolb::BulkRows rows = kolb::find_bulk_rows<Lattice>(
      box.e, Kokkos::View<const kolb::material_t*, Kokkos::HostSpace>(mat), neighbours);
  long bulk_sites = 0;
  for (int z = 1; z <= box.e.n[2]; ++z)
    for (int y = 1; y <= box.e.n[1]; ++y) bulk_sites += rows(y, z, 1) - rows(y, z, 0);
  EXPECT_GT(bulk_sites, 0);  // both launches have sites to update
  EXPECT_LT(bulk_sites, long(box.e.n[0]) * box.e.n[1] * box.e.n[2]);
  kolb::for_each_site_split("flat split", Exec(), all, make(box.b),
                            kolb::bulk_runs_on<Kokkos::HostSpace>(rows));
  Exec().fence();
}

template <class Layout>
class WallGhosts : public ::testing::Test {};
using Layouts = ::testing::Types<kolb::SoA, kolb::CSoA<8>, kolb::AoS>;
TYPED_TEST_SUITE(WallGhosts, Layouts);

TYPED_TEST(WallGhosts, TwoBufferStepEqualsGeneralPull) {
  Box<TypeParam> box(2);
  step_both<kolb::StreamCollide<Model, TypeParam, Kokkos::HostSpace>>(box, false);
  EXPECT_EQ(box.first_difference(box.a.next(), box.b.next()), -1);
}

// Rows between x walls on aligned lines (the plan's EndLane::wall): the
// fused rows' end lines bounce the x walls in the lanes that read the x
// halo, so the pass fills only the y and z faces. The x halo holds 1e30 (a
// general site's blend weighs it by an exact 0, a NaN would not vanish): a
// lane read from it instead would show in the bits. One site next to the
// low x face is an obstacle (its row's run starts further in), and rows of
// 16 sites are two lines (whole lines at both ends).
TYPED_TEST(WallGhosts, TwoBufferEndLinesBounceXWallsAsGeneralPull) {
  using Kernel = kolb::StreamCollide<Model, TypeParam, Kokkos::HostSpace>;
  if constexpr (!Kernel::lines_by_pointers) {
    GTEST_SKIP() << "lines through pointers: SoA and CSoA";
  } else {
    constexpr int line = kolb::host::line_values<double>;
    Box<TypeParam> box(2, {2 * line, 6, 5}, line, kolb::aligned_row_lead<double>(Lattice::halo));
    const kolb::Extents& e = box.e;
    const kolb::SiteIndex site = e.site_index();
    auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), box.b.material());
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), box.b.current());
    mat(site(1, 2, 4)) = kolb::kSolid;
    for (int z = 0; z < e.ext(2); ++z)
      for (int y = 0; y < e.ext(1); ++y)
        for (const int x : {0, e.ext(0) - 1})
          for (int i = 0; i < Lattice::q; ++i) f(box.b.layout()(site(x, y, z), i)) = 1e30;
    Kokkos::deep_copy(box.a.material(), mat);
    Kokkos::deep_copy(box.b.material(), mat);
    Kokkos::deep_copy(box.b.current(), f);

    const kolb::Region all = kolb::interior_region(e);
    kolb::for_each_site("general", Exec(), all, Kernel(box.a, box.wall, box.model));
    Kokkos::View<kolb::GhostRun*, Kokkos::HostSpace> runs;
    Kernel lanes(box.b, box.wall, box.model);
    ASSERT_EQ(lanes.line_start(1, 1, 1), 1) << "rows start on a line";
    lanes.m_lines = true;
    lanes.m_end_first = 1, lanes.m_end_last = e.n[0], lanes.m_end_walls = true;
    // 16 rows next to either obstacle (9 each, 2 shared) keep general sites.
    const kolb::BulkRows bulk = box.ghosts(false, runs, {true, true}, 16);
    EXPECT_EQ(bulk(2, 4, 0), 3) << "the obstacle's row starts after it and its neighbour";
    box.template apply<false>(runs);
    kolb::for_each_site_split("lanes", Exec(), all, lanes, bulk);
    Exec().fence();
    EXPECT_EQ(box.first_difference(box.a.next(), box.b.next()), -1);
  }
}

TYPED_TEST(WallGhosts, AAGhostsTakeNoLanes) {
  Box<TypeParam> box(1);
  Kokkos::View<kolb::GhostRun*, Kokkos::HostSpace> runs;
  EXPECT_THROW(box.ghosts(true, runs, {true, false}), std::invalid_argument);
}

TYPED_TEST(WallGhosts, AAPullStepEqualsGeneralPull) {
  Box<TypeParam> box(1);
  step_both<kolb::AAPull<Model, TypeParam, Kokkos::HostSpace>>(box, true);
  EXPECT_EQ(box.first_difference(box.a.current(), box.b.current()), -1);
}

TYPED_TEST(WallGhosts, FlatSplitTwoBufferStepEqualsGeneralPull) {
  Box<TypeParam> box(2);
  step_flat_split(box, true, [&](auto& block) {
    return kolb::StreamCollide<Model, TypeParam, Kokkos::HostSpace>(block, box.wall, box.model);
  });
  EXPECT_EQ(box.first_difference(box.a.next(), box.b.next()), -1);
}

TYPED_TEST(WallGhosts, FlatSplitAAStepsEqualGeneralPull) {
  Box<TypeParam> box(1);
  step_flat_split(box, true, [&](auto& block) {
    return kolb::AAPull<Model, TypeParam, Kokkos::HostSpace>(block, box.wall, box.model);
  });
  EXPECT_EQ(box.first_difference(box.a.current(), box.b.current()), -1);
  step_flat_split(box, false, [&](auto& block) {
    return kolb::AALocal<Model, TypeParam, Kokkos::HostSpace>(block, box.model);
  });
  EXPECT_EQ(box.first_difference(box.a.current(), box.b.current()), -1);
}

}  // namespace
