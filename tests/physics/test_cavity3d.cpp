// 3-D lid-driven cubic cavity at Re = 100 (lid y+ moving along x, five
// resting walls), D3Q19 and D3Q27. No tabulated 3-D solution is public at
// this Re (shared reference: validation.md, 6.2), so the checks are those it
// suggests: the steady flow is mirror-symmetric about the mid-span plane
// z = 1/2 (to round-off here), the centreline profiles converge as the grid
// is refined, and the two lattices, which discretise the same Navier-Stokes
// equations, agree to within the grid's own error. The primary vortex's
// known shape is checked coarsely: u < 0 below the centre, v > 0 on the
// upstream side, u minimum deeper than -0.15 of the lid speed.
#include "support/cases.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

struct Centrelines {
  std::vector<double> u, v;  // u(0.5, s, 0.5) and v(s, 0.5, 0.5) / lid at s = k / 8
  double mirror = 0;         // max |field(z) - mirror(field)(N - 1 - z)| / lid
};

double at(const std::vector<double>& line, double s, int n) {
  // Sites at (j + 0.5) / n, the walls at 0 and 1 (value 0; the lid's u is 1
  // but the samples stay inside).
  const double x = s * n - 0.5;
  const int j = std::max(0, std::min(n - 2, int(std::floor(x))));
  const double t = x - j;
  return (1 - t) * line[j] + t * line[j + 1];
}

Centrelines cavity(const std::string& lattice, int n, double lid = 0.1) {
  const std::string N = std::to_string(n);
  const std::string yaml =
      "lattice: " + lattice + "\ndomain: {size: [" + N + ", " + N + ", " + N +
      "]}\nphysics: {reynolds: 100, reference_velocity: " + std::to_string(lid) +
      ", reference_length: " + N +
      "}\nboundaries: {x-: wall, x+: wall, y-: wall, z-: wall, z+: wall, "
      "y+: {type: moving_wall, velocity: [" +
      std::to_string(lid) + ", 0, 0]}}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  const std::int64_t lu = std::int64_t(n / lid);
  const std::int64_t steps = kolb::test::run_to_steady(*sim, 1e-6, lu / 2, 60 * lu);
  const auto f = sim->fields();
  // N even: the centre lies between sites n/2 - 1 and n/2 along x and z.
  std::vector<double> u(n), v(n);
  for (int j = 0; j < n; ++j) {
    double su = 0, sv = 0;
    for (int dx : {0, 1})
      for (int dz : {0, 1}) {
        su += f.u[3 * f.index(n / 2 - dx, j, n / 2 - dz) + 0];
        sv += f.u[3 * f.index(j, n / 2 - dx, n / 2 - dz) + 1];
      }
    u[j] = su / 4 / lid, v[j] = sv / 4 / lid;
  }
  Centrelines c;
  for (int k = 1; k < 8; ++k) {
    c.u.push_back(at(u, k / 8.0, n));
    c.v.push_back(at(v, k / 8.0, n));
  }
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const std::size_t a = 3 * f.index(x, y, z), b = 3 * f.index(x, y, n - 1 - z);
        c.mirror = std::max({c.mirror, std::abs(f.u[a] - f.u[b]) / lid,
                             std::abs(f.u[a + 1] - f.u[b + 1]) / lid,
                             std::abs(f.u[a + 2] + f.u[b + 2]) / lid});
      }
  std::printf("%s N %d: steady after %lld steps; u(0.5, y, 0.5):", lattice.c_str(), n,
              static_cast<long long>(steps));
  for (double x : c.u) std::printf(" %.4f", x);
  std::printf("; v(x, 0.5, 0.5):");
  for (double x : c.v) std::printf(" %.4f", x);
  std::printf("; mirror %.1e\n", c.mirror);
  return c;
}

double difference(const Centrelines& a, const Centrelines& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.u.size(); ++k)
    d = std::max({d, std::abs(a.u[k] - b.u[k]), std::abs(a.v[k] - b.v[k])});
  return d;
}

TEST(Cavity3D, Re100SymmetricConvergingAndLatticesAgree) {
  std::vector<Centrelines> fine;
  for (const std::string lattice : {"D3Q19", "D3Q27"}) {
    const Centrelines c16 = cavity(lattice, 16), c24 = cavity(lattice, 24),
                      c32 = cavity(lattice, 32);
    for (const auto* c : {&c16, &c24, &c32}) EXPECT_LT(c->mirror, 1e-10) << lattice;
    const double d1 = difference(c16, c24), d2 = difference(c24, c32);
    std::printf("  %s: |c24 - c16| = %.4f, |c32 - c24| = %.4f\n", lattice.c_str(), d1, d2);
    EXPECT_LT(d2, d1) << lattice << ": the profiles must converge";
    EXPECT_LT(d2, 0.03) << lattice;
    // The primary vortex: backflow below the centre, upflow upstream.
    EXPECT_LT(*std::min_element(c32.u.begin(), c32.u.end()), -0.15) << lattice;
    EXPECT_GT(c32.v[1], 0.05) << lattice;
    EXPECT_LT(c32.v[5], -0.05) << lattice;
    fine.push_back(c32);
  }
  const double between = difference(fine[0], fine[1]);
  std::printf("  |D3Q27 - D3Q19| at N 32 = %.4f\n", between);
  EXPECT_LT(between, 0.02);
}

}  // namespace
