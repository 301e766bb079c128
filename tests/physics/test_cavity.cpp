// 2-D lid-driven cavity against Ghia, Ghia & Shin (1982): centreline
// profiles u(0.5, y) and v(x, 0.5) at Re = 100 and 1000 on N x N fluid sites
// with half-way bounce-back walls (L = N), lid speed 0.1 (Mach 0.17).
// Checked: the maximum deviation over the 15 interior table points is within
// tolerance on the fine grid and smaller than on the coarse grid, and the
// LBM profiles themselves converge (differences between successive grids
// shrink). Ghia's tables carry their own error: at Re = 100 their v minimum
// (-0.2453) lies ~8e-3 above well-resolved solutions (-0.2538), which kolb
// approaches at N = 256, so at Re 100 the deviation from the table levels off
// near 6e-3 beyond N = 64 (docs/cases/README.md lists the numbers).
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

struct Profiles {
  std::vector<double> u, v;  // at the interior Ghia points, normalised by the lid speed
};

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

Profiles cavity(int re, int n, double lid = 0.1, const std::string& precision = "double") {
  const std::string yaml =
      "lattice: D2Q9\nprecision: " + precision + "\ndomain: {size: [" + std::to_string(n) + ", " +
      std::to_string(n) + "]}\nphysics: {reynolds: " + std::to_string(re) +
      ", reference_velocity: " + std::to_string(lid) + ", reference_length: " + std::to_string(n) +
      "}\nboundaries: {x-: wall, x+: wall, y-: wall, "
      "y+: {type: moving_wall, velocity: [" +
      std::to_string(lid) +
      ", 0]}}\n"
      "run: {steps: 0}\noutput: {folder: unused}\n";
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
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
    v.push_back(0.5 * (f.u[3 * f.index(j, n / 2 - 1, 0) + 1] + f.u[3 * f.index(j, n / 2, 0) + 1]) /
                lid);
  }
  s.push_back(1.0);
  u.push_back(1.0);
  v.push_back(0.0);
  Profiles p;
  for (int k = 1; k + 1 < ghia::kPoints; ++k) {  // the end points are the walls
    p.u.push_back(interpolate(s, u, ghia::y[k]));
    p.v.push_back(interpolate(s, v, ghia::x[k]));
  }
  std::printf("Re %d N %d: steady after %lld steps\n", re, n, static_cast<long long>(steps));
  return p;
}

double deviation_from_ghia(const Profiles& p, int re) {
  const double* gu = re == 100 ? ghia::u_re100 : ghia::u_re1000;
  const double* gv = re == 100 ? ghia::v_re100 : ghia::v_re1000;
  double d = 0;
  for (int k = 1; k + 1 < ghia::kPoints; ++k)
    d = std::max({d, std::abs(p.u[k - 1] - gu[k]), std::abs(p.v[k - 1] - gv[k])});
  std::printf("  max |profile - Ghia| = %.4f\n", d);
  return d;
}

double self_difference(const Profiles& a, const Profiles& b) {
  return std::max(max_difference(a.u, b.u), max_difference(a.v, b.v));
}

TEST(Cavity, Re100AgainstGhia) {
  const Profiles p32 = cavity(100, 32), p64 = cavity(100, 64), p128 = cavity(100, 128);
  const double coarse = deviation_from_ghia(p32, 100);
  deviation_from_ghia(p64, 100);
  const double fine = deviation_from_ghia(p128, 100);
  EXPECT_LT(fine, 1e-2) << "N = 128 must match Ghia within 1e-2";
  EXPECT_LT(fine, coarse) << "error must shrink with resolution";
  // The solution converges: successive grids differ less and less. Measured
  // ratio 2.2 (also with diffusive scaling, U ~ 1/N): in the max norm the
  // discontinuous lid corners hold the order near 1; require 1.6.
  const double d1 = self_difference(p32, p64), d2 = self_difference(p64, p128);
  std::printf("  |p64 - p32| = %.4f, |p128 - p64| = %.4f, ratio %.2f\n", d1, d2, d1 / d2);
  EXPECT_GT(d1 / d2, 1.6);
}

TEST(Cavity, Re1000AgainstGhia) {
  const Profiles p64 = cavity(1000, 64), p128 = cavity(1000, 128);
  const double coarse = deviation_from_ghia(p64, 1000);
  const double fine = deviation_from_ghia(p128, 1000);
  EXPECT_LT(fine, 2e-2) << "N = 128 must match Ghia within 2e-2";
  EXPECT_LT(fine, 0.6 * coarse) << "error must shrink with resolution";
}

}  // namespace

// 16-bit storage (precision: fp16) against FP32 on the same grid and against
// Ghia: the profiles must agree with FP32's below the grid's own error.
TEST(Cavity, Fp16StorageRe100) {
  const Profiles single = cavity(100, 64, 0.1, "float");
  const Profiles half = cavity(100, 64, 0.1, "fp16");
  const double to_float = self_difference(half, single);
  std::printf("  fp16 vs float: max profile difference %.2e\n", to_float);
  const double ghia_float = deviation_from_ghia(single, 100);
  const double ghia_half = deviation_from_ghia(half, 100);
  EXPECT_LT(to_float, 3e-3);  // measured 1.4e-3 (fp16 never settles below 1e-5 per L/U)
  EXPECT_LT(ghia_half, ghia_float + 1e-3);
  EXPECT_LT(ghia_half, 1e-2);
}
