// The configuration sweep on one process (tests/support/sweep.hpp): for
// generated D2Q9 and D3Q19 cases in FP64 and FP32, and D2Q37 cases over its
// own options, every layout, kernel path, streaming scheme, host split and
// node schedule gives the populations of the reference path (SoA, fused,
// two buffers, one part) bit for bit at even steps; the reference conserves
// mass to round-off without moving walls (D2Q37: fully periodic), and
// momentum too where nothing exerts a force; the forces on obstacles agree.
#include "support/sweep.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <map>
#include <set>

namespace {

namespace sweep = kolb::test::sweep;
using sweep::Findings;

struct Outcome {
  std::vector<double> populations;
  kolb::ObservableSums first, last;
  std::vector<std::array<double, 3>> forces;  // on the obstacles, at the end
};

// The plans every run reached, and how many of the sweep's tests ran.
sweep::PlanCoverage coverage;
int sweeps_run = 0;

Outcome run(const sweep::GeneratedCase& g, const sweep::Config& config) {
  const sweep::CacheScope cache(config);
  kolb::Domain d(kolb::test::make_case(g.yaml, config.sets));
  coverage.add(d);
  sweep::use(d, config.schedule);
  if (g.sheared) {
    const auto f = sweep::sheared_fields(g);
    d.set_fields(f.rho, f.u, f.temperature);
  }
  Outcome r;
  r.first = d.observe();
  for (const int k : config.chunks) d.advance(k);
  r.last = d.observe();
  r.forces = d.body_forces();
  r.populations = d.populations();
  return r;
}

// Round-off bound of a sum of values of about `scale` over `steps`.
double round_off(const kolb::Case& c, double scale, int steps) {
  const double eps = c.precision == kolb::Precision::float64 ? 0x1p-52 : 0x1p-23;
  return 64 * eps * scale * steps;
}

// The name of a configuration in summaries: its --set list without the layout.
std::string name_of(const sweep::Config& config, const sweep::GeneratedCase& g) {
  std::string name;
  for (const auto& set : config.sets)
    if (set.find("layout=") == std::string::npos && set.find("vector_length") == std::string::npos)
      name += set.substr(set.find('.') + 1) + " ";
  if (config.schedule != sweep::Schedule::concurrent) name += sweep::to_string(config.schedule);
  if (config.beyond_cache) name += " beyond cache";
  return name + " (" + g.shape() + ")";
}

void check_case(const sweep::GeneratedCase& g, bool conserves_mass, Findings& found) {
  const sweep::Config reference{{"execution.layout=soa"}, sweep::Schedule::concurrent, {g.steps}};
  const Outcome want = run(g, reference);
  const double mass = want.first.mass;
  if (conserves_mass) {
    EXPECT_NEAR(want.last.mass, mass, round_off(g.c, mass, g.steps)) << "mass not conserved\n"
                                                                     << sweep::describe(g);
  }
  if (conserves_mass && g.conserves_momentum()) {
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(want.last.momentum[a], want.first.momentum[a], round_off(g.c, mass, g.steps))
          << "momentum " << a << " not conserved\n"
          << sweep::describe(g);
  }
  const std::size_t q = kolb::lattice_info(g.c.lattice).q;
  for (const auto& config : sweep::single_process_configs(g)) {
    ++found.runs;
    const Outcome got = run(g, config);
    // The same populations give the same forces, up to the order the
    // parts' links are summed in.
    ASSERT_EQ(got.forces.size(), want.forces.size());
    for (std::size_t b = 0; b < want.forces.size(); ++b)
      for (std::size_t a = 0; a < 3; ++a)
        EXPECT_NEAR(got.forces[b][a], want.forces[b][a], 1e-12)
            << "force on obstacle " << b << ", axis " << a << "\n"
            << sweep::describe(g, &config);
    const std::size_t d = kolb::test::first_difference(got.populations, want.populations);
    if (d == want.populations.size() && got.populations.size() == want.populations.size()) continue;
    ++found.failed[name_of(config, g)];
    if (found.shown++ < 4)
      ADD_FAILURE() << "populations differ from the reference at value " << d << " of "
                    << want.populations.size() << " (site " << d / q << ")\n"
                    << sweep::describe(g, &config);
  }
}

struct Sweep : ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// After the whole sweep: its runs took every path of the step plans this
// build can take on one process (no MPI faces; device parts and the general
// bounce are a GPU build's).
struct CoverageCheck : ::testing::Environment {
  void TearDown() override {
    if (sweeps_run < 5) return;  // a filtered run
    std::set<std::string> absent = {"halo remote", "pushed remote", "halo bounce",
                                    "pushed bounced"};
    if (!kolb::test::compiled(kolb::LatticeId::D2Q37))  // the one model with wall rows
      absent.insert({"model wall rows", "halo model_walls"});
    const auto missing = coverage.missing(absent);
    std::string list;
    for (const auto& m : missing) list += " '" + m + "'";
    std::printf("the sweep's plans took %zu decision values\n", coverage.seen.size());
    EXPECT_TRUE(missing.empty()) << "no run of the sweep reached" << list << " ("
                                 << coverage.seen.size() << " decision values reached)";
  }
};
const auto* const coverage_check = ::testing::AddGlobalTestEnvironment(new CoverageCheck);

TEST_P(Sweep, EveryConfigurationMatchesTheReference) {
  const auto [lattice, precision] = GetParam();
  KOLB_SKIP_UNLESS_COMPILED(lattice, precision);
  const int dim = kolb::test::dim_of(lattice);
  const int cases = sweep::case_count((dim == 2 ? 3 : 2) * sweep::shapes(dim));
  const std::uint64_t first_seed = sweep::base_seed() +
                                   1000000 * int(*kolb::parse<kolb::LatticeId>(lattice)) +
                                   (precision == "double" ? 0 : 500000);
  Findings found;
  for (int k = 0; k < cases; ++k) {
    const auto g = sweep::generate_isothermal(first_seed + k, k, lattice, precision);
    check_case(g, g.conserves_mass(), found);
  }
  ++sweeps_run;
  std::printf("%d cases, %d runs, first seed %llu\n", cases, found.runs,
              (unsigned long long)first_seed);
  EXPECT_TRUE(found.failed.empty())
      << "configurations that differ (" << lattice << " " << precision << ", " << found.runs
      << " runs, first seed " << first_seed << "):\n"
      << found.summary();
}

INSTANTIATE_TEST_SUITE_P(Isothermal, Sweep,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19", "D3Q27"),
                                            ::testing::Values("double", "float")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

TEST(SweepThermal, EveryConfigurationMatchesTheReference) {
  if (!kolb::test::compiled(kolb::LatticeId::D2Q37)) GTEST_SKIP() << "D2Q37 not compiled";
  const int cases = sweep::case_count(4 * sweep::thermal_shapes());
  const std::uint64_t first_seed = sweep::base_seed() + 3000000;
  Findings found;
  for (int k = 0; k < cases; ++k) {
    const auto g = sweep::generate_thermal(first_seed + k, k);
    const auto p = g.c.periodic();
    check_case(g, p[0] && p[1], found);
  }
  ++sweeps_run;
  std::printf("%d cases, %d runs, first seed %llu\n", cases, found.runs,
              (unsigned long long)first_seed);
  EXPECT_TRUE(found.failed.empty()) << "configurations that differ (D2Q37, " << found.runs
                                    << " runs, first seed " << first_seed << "):\n"
                                    << found.summary();
}

}  // namespace
