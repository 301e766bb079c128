// The configuration sweep over MPI tiles (run under mpiexec -n 1..4;
// tests/support/sweep.hpp): for generated D2Q9 and D3Q19 cases in FP64 and
// FP32, every valid tiling of the ranks with every scheme, with and without
// a host split on each rank, in each schedule, holds on every rank the
// populations of the reference path on one process, bit for bit at even
// steps.
#include "support/mpi_main.hpp"
#include "support/sweep.hpp"

#include <kolb/comm/communicator.hpp>
#include <kolb/comm/tiling.hpp>

#include <kolb/core/wait_policy.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <map>

namespace {

namespace sweep = kolb::test::sweep;
using sweep::Findings;

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

// Faces of the runs' plans that another rank fills.
int remote_faces = 0;

std::vector<double> run_tiled(const sweep::GeneratedCase& g, const kolb::Case& c,
                              const kolb::Ranks& ranks, bool overlap, sweep::Schedule schedule,
                              const std::vector<int>& chunks, kolb::Tile& tile) {
  auto grid = std::make_shared<kolb::comm::CartGrid>(ranks, c.periodic());
  kolb::Domain d(c, grid);
  for (const auto& [label, plan] : d.plans())
    for (const auto& face : plan.phase[0].fill)
      for (const kolb::HaloFill f : face) remote_faces += f == kolb::HaloFill::remote;
  d.set_overlap(overlap);
  sweep::use(d, schedule);
  tile = d.tile();
  if (g.sheared) {
    const auto f = sweep::tile_fields(sweep::sheared_fields(g), c.size, tile);
    d.set_fields(f.rho, f.u, f.temperature);
  }
  for (const int k : chunks) d.advance(k);
  return d.populations();
}

// The thinnest host parts the case's lattice takes along the default split
// axis (0: none fits).
int thinnest_host_part(const kolb::Case& c) {
  const int axis = kolb::node_split_axis(c, {1, 1, 1});
  for (int m = 1; 2 * m <= c.size[axis]; ++m)
    if (kolb::split_problem(c, m, axis).empty()) return m;
  return 0;
}

std::vector<double> run_whole(const sweep::GeneratedCase& g) {
  kolb::Domain d(kolb::test::make_case(g.yaml, {"execution.layout=soa"}));
  if (g.sheared) {
    const auto f = sweep::sheared_fields(g);
    d.set_fields(f.rho, f.u, f.temperature);
  }
  d.advance(g.steps);
  return d.populations();
}

// Every valid tiling of the ranks with every scheme, with and without the
// thinnest host parts on each rank, lone parts exchanging before or during
// their update, nodes in the concurrent and the overlapped schedule.
void check_case(const sweep::GeneratedCase& g, Findings& found) {
  {
    int& runs = found.runs;
    int& shown = found.shown;
    auto& failed = found.failed;
    const int q = kolb::lattice_info(g.c.lattice).q;
    const auto want_all = run_whole(g);
    sweep::Rng rng{g.seed ^ 0x7117ULL};
    const auto layouts = sweep::compiled_layouts(g.c);
    for (const auto& scheme : sweep::schemes(g.c))
      for (const int host_columns : {-1, thinnest_host_part(g.c)}) {
        if (host_columns == 0) continue;
        auto sets = sweep::with(sweep::layout_sets(rng.pick(layouts)), {scheme});
        if (host_columns > 0)
          sets.push_back("execution.host_columns=" + std::to_string(host_columns));
        const kolb::Case c = kolb::test::make_case(g.yaml, sets);
        for (const kolb::Ranks& ranks : kolb::tilings(c, kolb::comm::size())) {
          if (!kolb::tiling_problem(c, ranks).empty()) continue;
          for (const bool overlap : {false, true})
            for (const sweep::Schedule s :
                 {sweep::Schedule::concurrent, sweep::Schedule::overlapped}) {
              if (s == sweep::Schedule::overlapped && host_columns < 0) continue;
              const sweep::Config config{sets, s, sweep::chunks_of(g.steps, rng), rng.chance(0.5)};
              const sweep::CacheScope cache(config);
              ++runs;
              kolb::Tile tile;
              const auto got = run_tiled(g, c, ranks, overlap, s, config.chunks, tile);
              const auto want = tile_of(want_all, g.c, tile, q);
              const std::size_t d = kolb::test::first_difference(got, want);
              // Every rank agrees on the outcome, so all name the same failures.
              if (kolb::comm::all(d == want.size() && got.size() == want.size())) continue;
              const std::string name =
                  scheme.substr(scheme.find('.') + 1) + (host_columns > 0 ? " host split " : " ") +
                  sweep::to_string(s) + (overlap ? " overlap" : "") +
                  (config.beyond_cache ? " beyond cache" : "") + " (" + g.shape() + ")";
              ++failed[name];
              if (shown++ < 4)
                ADD_FAILURE() << "tiling " << kolb::to_string(ranks, g.c.dim) << " rank "
                              << kolb::comm::rank() << ": populations differ at value " << d
                              << " of the tile at " << tile.offset[0] << ", " << tile.offset[1]
                              << ", " << tile.offset[2] << (overlap ? " (overlapped MPI)" : "")
                              << "\n"
                              << sweep::describe(g, &config);
            }
        }
      }
  }
}

struct SweepTiles : ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SweepTiles, EveryTilingMatchesTheReference) {
  const auto [lattice, precision] = GetParam();
  const int cases = sweep::case_count(sweep::shapes(kolb::test::dim_of(lattice)));
  const std::uint64_t first_seed = sweep::base_seed() + 7000000 +
                                   1000000 * int(*kolb::parse<kolb::LatticeId>(lattice)) +
                                   (precision == "double" ? 0 : 500000);
  Findings found;
  for (int k = 0; k < cases; ++k)
    check_case(sweep::generate_isothermal(first_seed + k, k, lattice, precision), found);
  if (kolb::comm::size() > 1) {
    EXPECT_GT(remote_faces, 0) << "no plan has a face another rank fills";
  }
  EXPECT_TRUE(found.failed.empty())
      << "configurations that differ on " << kolb::comm::size() << " ranks (" << lattice << " "
      << precision << ", " << found.runs << " runs, first seed " << first_seed << "):\n"
      << found.summary();
}

TEST(SweepTilesThermal, EveryTilingMatchesTheReference) {
  if (!kolb::test::compiled(kolb::LatticeId::D2Q37)) GTEST_SKIP() << "D2Q37 not compiled";
  const int cases = sweep::case_count(2 * sweep::thermal_shapes());
  const std::uint64_t first_seed = sweep::base_seed() + 9000000;
  Findings found;
  for (int k = 0; k < cases; ++k) check_case(sweep::generate_thermal(first_seed + k, k), found);
  EXPECT_TRUE(found.failed.empty())
      << "configurations that differ on " << kolb::comm::size() << " ranks (D2Q37, " << found.runs
      << " runs, first seed " << first_seed << "):\n"
      << found.summary();
}

INSTANTIATE_TEST_SUITE_P(Isothermal, SweepTiles,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19", "D3Q27"),
                                            ::testing::Values("double", "float")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

}  // namespace

int main(int argc, char** argv) { return kolb::test::run_mpi_tests(argc, argv); }
