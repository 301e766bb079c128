// Mass and momentum are collision invariants and streaming only moves
// populations: in a periodic box without force both stay constant to
// round-off, from a random, far-from-uniform start.
#include "support/cases.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

struct Conservation : ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Conservation, MassAndMomentumInPeriodicBox) {
  const auto [lattice, precision] = GetParam();
  KOLB_SKIP_UNLESS_COMPILED(lattice, precision);
  const bool three_d = kolb::test::dim_of(lattice) == 3;
  const std::string yaml = "lattice: " + lattice + "\nprecision: " + precision +
                           "\ndomain: {size: " + (three_d ? "[12, 10, 8]" : "[24, 20]") +
                           "}\nphysics: {tau: 0.6}\n"
                           "boundaries: {x-: periodic, x+: periodic, y-: periodic, y+: periodic" +
                           (three_d ? ", z-: periodic, z+: periodic" : "") +
                           "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  const auto shape = sim->fields();
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> dr(0.8, 1.2), du(-0.08, 0.08);
  std::vector<double> rho(shape.rho.size()), u(shape.u.size());
  for (auto& r : rho) r = dr(gen);
  for (std::size_t k = 0; k < rho.size(); ++k)
    for (int a = 0; a < 3; ++a) u[3 * k + a] = a < (three_d ? 3 : 2) ? du(gen) : 0.0;
  sim->set_fields(rho, u);
  const auto before = sim->observe();
  sim->advance(200);
  const auto after = sim->observe();
  // fp16: every stored population rounds to a half (unbiased, so the sums
  // drift as a random walk, far below the half's own resolution).
  const double tol = precision == "double" ? 1e-13 : precision == "float" ? 2e-5 : 1e-4;
  EXPECT_NEAR(after.mass / before.mass, 1.0, tol);
  const double p_scale = before.mass * 0.08;
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(after.momentum[a], before.momentum[a], tol * p_scale) << "axis " << a;
  // The random start must have relaxed: the test is not run on a fixed point.
  EXPECT_LT(after.kinetic_energy, 0.5 * before.kinetic_energy);
}

INSTANTIATE_TEST_SUITE_P(Lattices, Conservation,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19", "D3Q27"),
                                            ::testing::Values("double", "float", "fp16")));

// Bounce-back walls conserve mass exactly; a moving lid adds momentum but
// no mass (its correction sums to zero over the populations of a wall site).
TEST(Conservation, MassWithWallsObstacleAndLid) {
  const std::string yaml = R"(
lattice: D2Q9
domain: {size: [40, 30]}
physics: {tau: 0.7}
boundaries: {x-: wall, x+: wall, y-: wall, y+: {type: moving_wall, velocity: [0.05, 0]}}
obstacles: [{type: cylinder, center: [20, 15], radius: 5}]
run: {steps: 0}
output: {folder: unused}
)";
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  const auto before = sim->observe();
  sim->advance(500);
  const auto after = sim->observe();
  EXPECT_NEAR(after.mass / before.mass, 1.0, 1e-13);
  EXPECT_GT(after.kinetic_energy, 0.0) << "the lid must drive a flow";
}

}  // namespace
