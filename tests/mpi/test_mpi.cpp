// MPI tiles (run under mpiexec -n 1..4): every rank's tile of the lattice,
// advanced by the Domains of all ranks together, holds the populations of
// the whole lattice advanced on one process, bit for bit, for every tiling
// of the ranks (1-D slabs, 2-D tiles, pencils), periodic and walled faces,
// obstacles and a moving lid crossing tile borders, D2Q9, D3Q19 and D2Q37
// (thermal wall rows on y tiles), both kernel paths, with and without a
// host/accelerator split on each rank; observables are global sums.
#include "support/cases.hpp"
#include "support/mpi_main.hpp"

#include <kolb/comm/communicator.hpp>
#include <kolb/comm/tiling.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/model/lattice_info.hpp>

#include <kolb/core/wait_policy.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstring>

namespace {

using kolb::Ranks;

// Walled or periodic along x; a lid, a sphere and a box that cross the
// borders of the tiles of 2 to 4 ranks.
std::string isothermal_case(const std::string& lattice, bool periodic_x) {
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  return kolb::test::lid_case(
      lattice, periodic_x, d3 ? "[17, 10, 9]" : "[29, 14]",
      std::string("[{type: sphere, center: ") +
          (d3 ? "[8, 5, 4], radius: 2.2" : "[14, 7], radius: 3") + "}, {type: box, min: " +
          (d3 ? "[3, 2, 0], max: [6, 4, 5]" : "[6, 3], max: [9, 12]") + "}]");
}

// The thermal case: 26 rows leave at least 6 to each of 4 y tiles.
const std::string kThermalCase = kolb::test::thermal_case(24, 26);

// The populations of `tile` cut from those of the whole lattice.
std::vector<double> tile_of(const std::vector<double>& all, const kolb::Case& c,
                            const kolb::Tile& t, int q) {
  std::vector<double> out;
  for (int z = 0; z < t.size[2]; ++z)
    for (int y = 0; y < t.size[1]; ++y)
      for (int x = 0; x < t.size[0]; ++x) {
        const std::size_t g =
            std::size_t(x + t.offset[0]) +
            std::size_t(c.size[0]) * (y + t.offset[1] + std::size_t(c.size[1]) * (z + t.offset[2]));
        out.insert(out.end(), all.begin() + g * q, all.begin() + (g + 1) * q);
      }
  return out;
}

using kolb::test::first_difference;

using kolb::test::compiled;

// Every valid tiling of the ranks, each rank's tile against the one-process run.
void expect_tiles_match(const std::string& yaml, const std::vector<std::string>& sets, int steps) {
  const kolb::Case c = kolb::test::make_case(yaml, sets);
  const int q = kolb::lattice_info(c.lattice).q;
  kolb::Domain reference(c);  // the whole lattice, on this process alone
  reference.advance(steps);
  const auto expected_forces = reference.body_forces();
  const auto expected = reference.populations();
  const auto expected_obs = reference.observe();
  for (const auto& f : expected_forces)
    EXPECT_GT(std::abs(f[0]) + std::abs(f[1]) + std::abs(f[2]), 1e-8) << "the lid's flow pushes";
  int tested = 0;
  for (const Ranks& ranks : kolb::tilings(c, kolb::comm::size())) {
    if (!kolb::tiling_problem(c, ranks).empty()) continue;
    ++tested;
    auto grid = std::make_shared<kolb::comm::CartGrid>(ranks, c.periodic());
    kolb::Domain domain(c, grid);
    // Every schedule in turn: overlapped (inner sites, then borders),
    // exchange-then-update, and on a node the GPU nodes' swap while the
    // accelerator updates (the host parts' MPI faces meanwhile).
    domain.set_overlap(true);
    domain.advance(steps / 3);
    domain.set_overlap(false);
    domain.advance(steps / 3);
    domain.set_swap_overlap(true);
    domain.advance(steps - 2 * (steps / 3));
    const auto forces = domain.body_forces();
    const auto got = domain.populations();
    const auto want = tile_of(expected, c, domain.tile(), q);
    ASSERT_EQ(got.size(), want.size());
    const std::size_t d = first_difference(got, want);
    EXPECT_EQ(d, got.size()) << c.source << " " << yaml.substr(0, 14) << " tiling "
                             << kolb::to_string(ranks, c.dim) << " rank " << kolb::comm::rank()
                             << ": first difference at population " << d << " (site " << d / q
                             << " of the tile at " << domain.tile().offset[0] << ", "
                             << domain.tile().offset[1] << ", " << domain.tile().offset[2] << ")";
    // Global sums: equal up to summation order.
    const auto obs = domain.observe();
    EXPECT_EQ(obs.fluid_sites, expected_obs.fluid_sites);
    EXPECT_NEAR(obs.mass, expected_obs.mass, 1e-12 * expected_obs.mass);
    EXPECT_EQ(obs.max_speed, expected_obs.max_speed);
    // The forces on obstacles crossing tile borders, each rank's links
    // summed: equal up to summation order.
    ASSERT_EQ(forces.size(), expected_forces.size());
    for (std::size_t b = 0; b < forces.size(); ++b)
      for (std::size_t a = 0; a < 3; ++a)
        EXPECT_NEAR(forces[b][a], expected_forces[b][a], 1e-14)
            << "obstacle " << b << " axis " << a << " tiling " << kolb::to_string(ranks, c.dim);
    EXPECT_EQ(domain.step(), steps);
  }
  EXPECT_GT(tested, 0) << "no valid tiling for " << kolb::comm::size() << " ranks";
}

struct Isothermal : ::testing::TestWithParam<std::tuple<std::string, bool, std::string>> {};

TEST_P(Isothermal, TilesBitwiseIdenticalToOneProcess) {
  const auto [lattice, periodic_x, kernel] = GetParam();
  // aa: slabs along x only (other tilings are skipped as tiling problems);
  // 19 steps end on a pull step, whose pushes cross the tiles.
  expect_tiles_match(isothermal_case(lattice, periodic_x),
                     {kernel == "aa" ? "execution.streaming=aa" : "execution.kernel=" + kernel},
                     19);
}

INSTANTIATE_TEST_SUITE_P(Lattices, Isothermal,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19"), ::testing::Bool(),
                                            ::testing::Values("fused", "split", "aa")),
                         [](const auto& info) {
                           return std::get<0>(info.param) +
                                  (std::get<1>(info.param) ? "_periodic_" : "_walled_") +
                                  std::get<2>(info.param);
                         });

// A host/accelerator split on every rank: host parts at each tile's borders
// across the split axis (auto: on slabs along one axis that axis, whose
// remote faces the host parts exchange while the accelerator updates, else
// the slowest axis; z on x slabs: its halos first, then the x faces to
// other ranks over them).
TEST(NodeOnEachRank, TilesBitwiseIdenticalToOneProcess) {
  for (const bool periodic_x : {false, true}) {
    for (const char* axis : {"auto", "x"})
      expect_tiles_match(isothermal_case("D2Q9", periodic_x),
                         {"execution.host_columns=2", std::string("execution.split_axis=") + axis},
                         19);
    for (const char* axis : {"auto", "x", "z"})
      expect_tiles_match(isothermal_case("D3Q19", periodic_x),
                         {"execution.host_columns=1", std::string("execution.split_axis=") + axis},
                         11);
  }
}

// 16-bit storage: halos and pushes carry the stored bits.
TEST(Fp16, TilesBitwiseIdenticalToOneProcess) {
  KOLB_SKIP_UNLESS_COMPILED("D3Q19", "fp16");
  for (const bool periodic_x : {false, true})
    for (const char* scheme : {"execution.kernel=split", "execution.streaming=aa"})
      expect_tiles_match(isothermal_case("D3Q19", periodic_x), {"precision=fp16", scheme}, 19);
}

TEST(Thermal, TilesBitwiseIdenticalToOneProcess) {
  if (!compiled(kolb::LatticeId::D2Q37)) GTEST_SKIP() << "D2Q37 not compiled";
  expect_tiles_match(kThermalCase, {}, 13);
  expect_tiles_match(kThermalCase, {"execution.kernel=split"}, 13);
}

TEST(Thermal, NodeOnEachRankBitwiseIdentical) {
  if (!compiled(kolb::LatticeId::D2Q37)) GTEST_SKIP() << "D2Q37 not compiled";
  // 24 columns over 1 or 2 x tiles leave >= 12: three host columns a side
  // fit; along y (one rank) the host parts hold the wall rows: 6 rows.
  if (kolb::comm::size() > 2) GTEST_SKIP() << "split needs >= 12 columns per tile";
  expect_tiles_match(kThermalCase, {"execution.host_columns=3", "execution.split_axis=x"}, 13);
  expect_tiles_match(kThermalCase, {"execution.host_columns=6"}, 13);
}

TEST(Tiling, UnevenSizesSpreadTheRemainder) {
  const kolb::Case c = kolb::test::make_case(isothermal_case("D2Q9", true));
  int covered = 0;
  for (int k = 0; k < 4; ++k) {
    const kolb::Tile t = kolb::make_tile(c, {4, 1, 1}, {k, 0, 0});
    EXPECT_EQ(t.offset[0], covered);
    EXPECT_TRUE(t.size[0] == 7 || t.size[0] == 8);  // 29 = 8 + 7 + 7 + 7
    covered += t.size[0];
  }
  EXPECT_EQ(covered, 29);
}

TEST(Tiling, ProblemsAreNamed) {
  if (compiled(kolb::LatticeId::D2Q37)) {
    const kolb::Case t = kolb::test::make_case(kThermalCase);
    // 26 rows over 5 y tiles: 5 rows, fewer than the 6 the wall rows need.
    EXPECT_NE(kolb::tiling_problem(t, {1, 5, 1}).find("wall rows"), std::string::npos);
    // 24 columns over 12 tiles: 2 each, thinner than D2Q37's halo of 3.
    EXPECT_NE(kolb::tiling_problem(t, {12, 1, 1}).find("halo"), std::string::npos);
    EXPECT_EQ(kolb::tiling_problem(t, {8, 1, 1}), "");
  }
  const kolb::Case d =
      kolb::test::make_case(isothermal_case("D2Q9", true), {"execution.decomposition=[2, 2]"});
  EXPECT_NE(kolb::decomposition_problem(d, 3).find("needs 4 MPI ranks"), std::string::npos);
  EXPECT_EQ(kolb::decomposition_problem(d, 4), "");
  EXPECT_EQ(kolb::decomposition_problem(d, 1), "");  // one rank runs the whole lattice
}

TEST(Tiling, ModelPrefersCheapFaces) {
  // A wide, flat lattice: cutting along x (short faces) beats cutting along y.
  const kolb::Case c =
      kolb::test::make_case(isothermal_case("D2Q9", true), {"domain.size=[4096, 64]"});
  kolb::TilingCosts k;
  k.site_seconds = 1e-12;  // the exchange decides
  k.latency = 1e-6;
  k.face_bandwidth = {1e9, 1e9, 1e9};
  EXPECT_EQ(kolb::model_tiling(c, 4, k, nullptr), (Ranks{4, 1, 1}));
  // Strided x faces 100x slower than contiguous y faces on a square lattice.
  const kolb::Case s =
      kolb::test::make_case(isothermal_case("D2Q9", true), {"domain.size=[1024, 1024]"});
  k.face_bandwidth = {1e7, 1e9, 1e9};
  EXPECT_EQ(kolb::model_tiling(s, 4, k, nullptr), (Ranks{1, 4, 1}));
  k.face_bandwidth = {1e9, 1e9, 1e9};
  EXPECT_EQ(kolb::model_tiling(s, 4, k, nullptr), (Ranks{2, 2, 1}));
  // Updates dominate and cost the same: within 3 % the longest rows win.
  k.site_seconds = 1e-8;
  EXPECT_EQ(kolb::model_tiling(s, 4, k, nullptr), (Ranks{1, 4, 1}));
  // ... unless the measured update cost says otherwise.
  const auto cost = [](const Ranks& r) { return r[0] == 2 ? 0.8e-8 : 1e-8; };
  EXPECT_EQ(kolb::model_tiling(s, 4, k, nullptr, cost), (Ranks{2, 2, 1}));
}

}  // namespace

int main(int argc, char** argv) { return kolb::test::run_mpi_tests(argc, argv); }
