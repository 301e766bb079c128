// Interpolated bounce-back off curved walls (boundary/interpolated_bounce.hpp).
//  - A channel between two walls that lie between sites (q = 0.3 below,
//    0.7 above: both branches of the scheme), driven by a body force,
//    converges to its Poiseuille profile at second order (H = 8, 16, 32);
//    the staircase of the same boxes puts the walls where the sites end
//    and does not converge at second order.
//  - The wall fraction of a link into a circle is where the link meets it.
#include "support/cases.hpp"

#include <kolb/io/fields.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace {

// Max |u - u_exact| over the fluid sites, over the centre speed U, of a
// periodic D2Q9 channel with box walls ending at y0 = 1.2 and y1 = H + 1.2.
double channel_error(int h, const std::string& wall) {
  const double tau = 0.8, nu = (tau - 0.5) / 3, u = 0.02;
  const int ny = h + 3;
  const double y0 = 1.2, y1 = ny - 1.8, g = 8 * nu * u / (double(h) * h);
  char yaml[1024];
  std::snprintf(yaml, sizeof yaml,
                "lattice: D2Q9\nprecision: double\ndomain: {size: [3, %d]}\n"
                "physics: {tau: %.17g, body_force: [%.17g, 0]}\n"
                "boundaries: {x-: periodic, x+: periodic, y-: wall, y+: wall}\n"
                "obstacles:\n"
                "  - {type: box, min: [0, 0], max: [3, %.17g], wall: %s}\n"
                "  - {type: box, min: [0, %.17g], max: [3, %d], wall: %s}\n"
                "run: {steps: 0}\noutput: {folder: unused}\n",
                ny, tau, g, y0, wall.c_str(), y1, ny, wall.c_str());
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  kolb::test::run_to_steady(*sim, 1e-12, 500, 400000);
  const auto f = sim->fields();
  double error = 0;
  for (int y = 0; y < ny; ++y) {
    if (f.material[f.index(1, y, 0)] != kolb::kFluid) continue;
    const double s = y + 0.5, exact = g / (2 * nu) * (s - y0) * (y1 - s);
    error = std::max(error, std::abs(f.u[3 * f.index(1, y, 0)] - exact));
  }
  return error / u;
}

TEST(CurvedWalls, ChannelConvergesToPoiseuilleAtSecondOrder) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  double last = 0, last_staircase = 0;
  for (const int h : {8, 16, 32}) {
    const double e = channel_error(h, "bouzidi"), s = channel_error(h, "halfway");
    std::printf("H = %d: max error %.3e of U (staircase %.3e)\n", h, e, s);
    EXPECT_LT(e, s / 4) << "H = " << h;
    if (last > 0) {
      EXPECT_GT(std::log2(last / e), 1.8) << "order from H = " << h / 2;
      EXPECT_LT(std::log2(last_staircase / s), 1.5) << "the staircase, from H = " << h / 2;
    }
    last = e, last_staircase = s;
  }
}

TEST(CurvedWalls, FractionIsWhereTheLinkMeetsTheShape) {
  kolb::Obstacle circle;
  circle.kind = kolb::Obstacle::Kind::cylinder;
  circle.center = {10, 10, 0};
  circle.radius = 3.3;
  const int east[3] = {1, 0, 0}, diagonal[3] = {1, 1, 0};
  // From the fluid centre (6.5, 10.5) to the solid (7.5, 10.5): x hits the
  // circle at 10 - sqrt(3.3^2 - 0.25).
  const double x = 10 - std::sqrt(3.3 * 3.3 - 0.25);
  EXPECT_NEAR(kolb::wall_fraction(circle, {7.5, 10.5, 0.5}, east, 2), x - 6.5, 1e-14);
  // Diagonally from (6.5, 6.5) to (7.5, 7.5): at distance 3.3 from the centre.
  const double t = kolb::wall_fraction(circle, {8.5, 8.5, 0.5}, diagonal, 2);
  const double px = 7.5 + t - 10;
  EXPECT_NEAR(2 * px * px, 3.3 * 3.3, 1e-12);
  kolb::Obstacle box;
  box.min = {2, 3.25, 0};
  box.max = {5, 6, 1};
  const int up[3] = {0, 1, 0}, down[3] = {0, -1, 0};
  EXPECT_NEAR(kolb::wall_fraction(box, {3.5, 3.5, 0.5}, up, 2), 0.75, 1e-14);
  EXPECT_NEAR(kolb::wall_fraction(box, {3.5, 5.5, 0.5}, down, 2), 0.5, 1e-14);
}

}  // namespace
