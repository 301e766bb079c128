// 2-D lid-driven cavity against Ghia, Ghia & Shin (1982): centreline
// profiles u(0.5, y) and v(x, 0.5) at Re = 100 and 1000, lid speed 0.1
// (Mach 0.17), N x N fluid sites with half-way bounce-back walls (L = N).
// The deviation must be within tolerance on the fine grid and shrink from
// the coarse to the fine grid.
#include "physics/ghia1982.hpp"
#include "support/cases.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

namespace ghia = kolb::test::ghia;

// 4-point Lagrange interpolation of samples (s, v) at s0 (s ascending).
double interpolate(const std::vector<double>& s, const std::vector<double>& v, double s0) {
  std::size_t i = 0;
  while (i + 2 < s.size() && s[i + 1] < s0) ++i;
  std::size_t lo = i == 0 ? 0 : i - 1;
  if (lo + 4 > s.size()) lo = s.size() - 4;
  double r = 0;
  for (std::size_t a = lo; a < lo + 4; ++a) {
    double l = 1;
    for (std::size_t b = lo; b < lo + 4; ++b)
      if (a != b) l *= (s0 - s[b]) / (s[a] - s[b]);
    r += l * v[a];
  }
  return r;
}

struct Deviation {
  double u = 0, v = 0;
  double max() const { return std::max(u, v); }
};

Deviation cavity(int re, int n) {
  const double lid = 0.1;
  const std::string yaml = "lattice: D2Q9\ndomain: {size: [" + std::to_string(n) + ", " +
                           std::to_string(n) + "]}\nphysics: {reynolds: " + std::to_string(re) +
                           ", reference_velocity: 0.1, reference_length: " + std::to_string(n) +
                           "}\nboundaries: {x-: wall, x+: wall, y-: wall, "
                           "y+: {type: moving_wall, velocity: [0.1, 0]}}\n"
                           "run: {steps: 0}\noutput: {folder: unused}\n";
  auto sim = kolb::make_simulation(kolb::test::make_case(yaml));
  // Steady when velocities change by < 1e-6 of the lid speed over L/U steps.
  const std::int64_t lu = std::int64_t(n / lid);
  const std::int64_t steps = kolb::test::run_to_steady(*sim, 1e-5, lu, 150 * lu);
  const auto f = sim->fields();
  // Profiles through the centre (N even: average the two middle lines),
  // with the wall values as end points: u = 0 at y = 0, u = U at the lid.
  std::vector<double> s{0.0}, u{0.0}, v{0.0};
  for (int j = 0; j < n; ++j) {
    s.push_back((j + 0.5) / n);
    u.push_back(0.5 * (f.u[3 * f.index(n / 2 - 1, j, 0)] + f.u[3 * f.index(n / 2, j, 0)]) / lid);
    v.push_back(0.5 * (f.u[3 * f.index(j, n / 2 - 1, 0) + 1] + f.u[3 * f.index(j, n / 2, 0) + 1]) / lid);
  }
  s.push_back(1.0);
  u.push_back(1.0);
  v.push_back(0.0);
  const double* gu = re == 100 ? ghia::u_re100 : ghia::u_re1000;
  const double* gv = re == 100 ? ghia::v_re100 : ghia::v_re1000;
  Deviation d;
  for (int k = 1; k + 1 < ghia::kPoints; ++k) {  // the end points are the walls
    d.u = std::max(d.u, std::abs(interpolate(s, u, ghia::y[k]) - gu[k]));
    d.v = std::max(d.v, std::abs(interpolate(s, v, ghia::x[k]) - gv[k]));
  }
  std::printf("Re %d N %d: %lld steps, max |u - u_Ghia| %.4f, max |v - v_Ghia| %.4f\n", re, n,
              static_cast<long long>(steps), d.u, d.v);
  return d;
}

TEST(Cavity, Re100AgainstGhia) {
  const Deviation coarse = cavity(100, 64);
  const Deviation fine = cavity(100, 128);
  EXPECT_LT(fine.max(), 1e-2);
  EXPECT_LT(fine.max(), coarse.max()) << "error must shrink with resolution";
}

TEST(Cavity, Re1000AgainstGhia) {
  const Deviation coarse = cavity(1000, 64);
  const Deviation fine = cavity(1000, 128);
  EXPECT_LT(fine.max(), 2e-2);
  EXPECT_LT(fine.max(), coarse.max()) << "error must shrink with resolution";
}

}  // namespace
