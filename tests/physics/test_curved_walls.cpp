// Interpolated bounce-back off curved walls (boundary/interpolated_bounce.hpp).
//  - A channel between two walls that lie between sites (q = 0.3 below,
//    0.7 above: both branches of the scheme), driven by a body force,
//    converges to its Poiseuille profile at second order (H = 8, 16, 32);
//    the staircase of the same boxes puts the walls where the sites end
//    and does not converge at second order.
//  - The wall fraction of a link into a circle or a box is where the link
//    meets it; a part's links bounce half-way where the scheme would read a
//    solid site or one outside the lattice, where a half-way shape holds the
//    solid site too, and where the wall lies half-way anyway; a box across a
//    whole periodic axis has no faces along it.
#include "support/cases.hpp"

#include <kolb/domain/part_setup.hpp>
#include <kolb/io/fields.hpp>
#include <kolb/lattice/lattices.hpp>

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

// q of the link into site p of a D2Q9 case with incoming population i.
double link_fraction(const std::string& yaml, std::array<int, 3> p, int i) {
  const kolb::Case c = kolb::test::make_case(yaml);
  const kolb::Geometry g =
      kolb::build_geometry(c, kolb::Extents(c.size, kolb::D2Q9::halo, kolb::D2Q9::dim));
  const kolb::PartSetup s{c,  g,  {0, 0, 0}, c.size, {0, 0, 0}, kolb::PartRole::accelerator,
                          {}, {}, 0,         "test"};
  const kolb::LatticeSites<kolb::D2Q9> sites{s};
  return sites.fraction(p.data(), i);
}

TEST(CurvedWalls, LinksBounceHalfWayWhereTheSchemeCannotReach) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  const auto yaml = [](const std::string& faces, const std::string& obstacles) {
    return "lattice: D2Q9\nprecision: double\ndomain: {size: [8, 8]}\nphysics: {tau: 0.8}\n"
           "boundaries: {" +
           faces + "}\nobstacles: [" + obstacles + "]\nrun: {steps: 0}\noutput: {folder: u}\n";
  };
  const std::string walls = "x-: wall, x+: wall, y-: wall, y+: wall";
  int up = -1, up_right = -1;  // c = (0, 1), (1, 1): from the site below
  for (int i = 0; i < kolb::D2Q9::q; ++i) {
    if (kolb::D2Q9::c(i, 0) == 0 && kolb::D2Q9::c(i, 1) == 1) up = i;
    if (kolb::D2Q9::c(i, 0) == 1 && kolb::D2Q9::c(i, 1) == 1) up_right = i;
  }
  const std::string floor = "{type: box, min: [0, 0], max: [8, 2.3], wall: bouzidi}";
  // Site (3, 2) above the floor's rows 0 and 1: the wall at 2.3 is 0.2 into
  // the link from (3, 2.5).
  EXPECT_NEAR(link_fraction(yaml(walls, floor), {3, 2, 0}, up), 0.2, 1e-14);
  // A one-site gap: x + c_i is solid.
  EXPECT_EQ(
      link_fraction(yaml(walls, floor + ", {type: box, min: [0, 3], max: [8, 8]}"), {3, 2, 0}, up),
      0.0);
  // x + c_i outside the lattice: a floor up to the top wall's row.
  EXPECT_EQ(link_fraction(yaml(walls, "{type: box, min: [0, 0], max: [8, 7.3], wall: bouzidi}"),
                          {3, 7, 0}, up),
            0.0);
  // A half-way box over the same solid site, owning it or not.
  const std::string box = "{type: box, min: [2, 0], max: [5, 2]}";
  EXPECT_EQ(link_fraction(yaml(walls, floor + ", " + box), {3, 2, 0}, up), 0.0);
  EXPECT_EQ(link_fraction(yaml(walls, box + ", " + floor), {3, 2, 0}, up), 0.0);
  // Two interpolated shapes over it: the nearest surface (2.4, not 2.3).
  EXPECT_NEAR(
      link_fraction(yaml(walls, "{type: box, min: [2, 0], max: [5, 2.4], wall: bouzidi}, " + floor),
                    {3, 2, 0}, up),
      0.1, 1e-14);
  // The wall half-way: no interpolation.
  EXPECT_EQ(link_fraction(yaml(walls, "{type: box, min: [0, 0], max: [8, 2], wall: bouzidi}"),
                          {3, 2, 0}, up),
            0.0);
  // Periodic along x, the floor across it: the diagonal link from (7, 1)
  // to (0, 2) crosses the period's end, and the floor has no face there.
  EXPECT_NEAR(link_fraction(yaml("x-: periodic, x+: periodic, y-: wall, y+: wall", floor),
                            {0, 2, 0}, up_right),
              0.2, 1e-14);
  // Walled along x, that link's solid site is the lattice's wall: half-way.
  EXPECT_EQ(link_fraction(yaml(walls, floor), {0, 2, 0}, up_right), 0.0);
}

}  // namespace
