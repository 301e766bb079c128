// Smagorinsky's LES (model/smagorinsky.hpp), on BGK and TRT.
//  - The stress that the eddy viscosity reads is zero at equilibrium and
//    sums c c (f - f_eq) otherwise, Guo's part added back under a force
//    (a uniformly accelerated site settles at zero strain); the relaxation
//    time solves the model's quadratic; TRT's rates keep Lambda with the
//    local tau+, and BGK's are equal.
//  - A channel driven by a body force has a closed-form profile under the
//    eddy viscosity nu0 + C_s^2 |du/dy|; kolb converges to it at second
//    order (H = 8, 16, 32, C_s grown with H so that the continuum problem
//    stays the same), its centre speed 1/1.58 of the laminar one; in
//    D3Q19 the same channel across x, the flow along z.
#include "support/cases.hpp"

#include <kolb/lattice/lattices.hpp>
#include <kolb/model/isothermal_collision.hpp>
#include <kolb/model/smagorinsky.hpp>
#include <kolb/model/trt.hpp>

#include <algorithm>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace {

TEST(Smagorinsky, StressIsTheNonEquilibriumMomentumFlux) {
  using L = kolb::D3Q19;
  const double rho = 1.03, u[3] = {0.04, -0.02, 0.03};
  double f[L::q], pi[3][3] = {};
  for (int i = 0; i < L::q; ++i)
    f[i] = kolb::isothermal_equilibrium<L, double>(i, rho, u[0], u[1], u[2]);
  const double none[3] = {0, 0, 0};
  EXPECT_NEAR(kolb::nonequilibrium_stress_squared<L>(f, rho, u, none), 0, 1e-30);
  // A disturbance that keeps rho and j: on a pair of opposite populations
  // with c = (1, 1, 0), and on the rest population against one along x.
  int xy = -1, x = -1;
  for (int i = 0; i < L::q; ++i) {
    if (L::c(i, 0) == 1 && L::c(i, 1) == 1 && L::c(i, 2) == 0) xy = i;
    if (L::c(i, 0) == 1 && L::c(i, 1) == 0 && L::c(i, 2) == 0) x = i;
  }
  f[xy] += 1e-3, f[L::opposite(xy)] += 1e-3, f[0] -= 2e-3;
  f[x] += 5e-4, f[L::opposite(x)] += 5e-4, f[0] -= 1e-3;
  for (int i = 0; i < L::q; ++i)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        pi[a][b] += L::c(i, a) * L::c(i, b) *
                    (f[i] - kolb::isothermal_equilibrium<L, double>(i, rho, u[0], u[1], u[2]));
  double expected = 0;
  for (auto& row : pi)
    for (double p : row) expected += p * p;
  EXPECT_GT(expected, 1e-6);
  EXPECT_NEAR(kolb::nonequilibrium_stress_squared<L>(f, rho, u, none), expected, 1e-15);
  // Under a body force g (h = g/2), rho (u g + g u) / 2 is added back: Guo's
  // forcing leaves -rho (u g + g u) / 2 in a uniformly accelerated flow.
  const double h[3] = {2e-3, -1e-3, 3e-3};
  double forced = 0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const double p = pi[a][b] + rho * (u[a] * h[b] + h[a] * u[b]);
      forced += p * p;
    }
  EXPECT_NEAR(kolb::nonequilibrium_stress_squared<L>(f, rho, u, h), forced, 1e-15);
  // tau (tau - tau0) = factor |Pi| / (4 rho).
  const double factor = kolb::smagorinsky_factor(0.17, L::cs2()), tau0 = 0.53;
  const double tau = kolb::smagorinsky_tau(tau0, factor, rho, expected);
  EXPECT_NEAR(tau * (tau - tau0), factor * std::sqrt(expected) / (4 * rho), 1e-15);
  EXPECT_NEAR(factor, 18 * std::sqrt(2.0) * 0.17 * 0.17, 1e-14);
}

TEST(Smagorinsky, TrtRatesFollowTheLocalTau) {
  kolb::TrtRates<double> trt, bgk;
  trt.set(0.53, {0.1});
  bgk.set(0.53, {});  // BGK with LES runs as TRT with equal rates
  double e = 0, o = 0;
  // Without LES: the constant rates, bit for bit.
  trt.site(1.0, 1e-4, e, o);
  EXPECT_EQ(e, trt.omega);
  EXPECT_EQ(o, trt.omega_odd);
  trt.smagorinsky(0.2, 1.0 / 3), bgk.smagorinsky(0.2, 1.0 / 3);
  trt.site(1.0, 1e-4, e, o);
  const double tau = 1 / e;
  EXPECT_GT(tau, 0.53 + 1e-3);
  EXPECT_NEAR(tau, kolb::smagorinsky_tau(0.53, trt.les, 1.0, 1e-4), 1e-15);
  EXPECT_NEAR((tau - 0.5) * (1 / o - 0.5), 0.1, 1e-14);  // Lambda kept
  bgk.site(1.0, 1e-4, e, o);
  EXPECT_EQ(e, o);
  EXPECT_EQ(1 / e, tau);
}

// A uniform site accelerated by a body force has no strain: iterating its
// collision (streaming leaves a uniform lattice as it is) must settle where
// the stress, Guo's part added back, vanishes. Without that part it would
// not: Guo's forcing leaves -rho (u g + g u) / 2 in the populations.
TEST(Smagorinsky, UniformlyAcceleratedFlowHasNoStrain) {
  using L = kolb::D3Q19;
  for (const auto& magic : {std::vector<double>{}, std::vector<double>{0.1875}}) {
    kolb::IsothermalCollision<L, double, kolb::TrtRates<double>, kolb::GuoForcing<double>> c;
    c.rates.set(0.53, magic);
    c.rates.smagorinsky(0.16, L::cs2());
    const double g[3] = {2e-5, -1e-5, 1.5e-5};
    for (int a = 0; a < 3; ++a) c.forcing.g[a] = g[a];
    double f[L::q];
    for (int i = 0; i < L::q; ++i)
      f[i] = kolb::isothermal_equilibrium<L, double>(i, 1.0, 0.03, 0.01, -0.02);
    for (int n = 0; n < 400; ++n) c(f);
    double rho = 0, j[3] = {0, 0, 0};
    for (int i = 0; i < L::q; ++i) {
      rho += f[i];
      for (int a = 0; a < 3; ++a) j[a] += L::c(i, a) * f[i];
    }
    const double h[3] = {g[0] / 2, g[1] / 2, g[2] / 2}, none[3] = {0, 0, 0};
    const double u[3] = {j[0] / rho + h[0], j[1] / rho + h[1], j[2] / rho + h[2]};
    const double with = kolb::nonequilibrium_stress_squared<L>(f, rho, u, h);
    const double without = kolb::nonequilibrium_stress_squared<L>(f, rho, u, none);
    EXPECT_GT(without, 1e-13) << "Guo's part: rho (u g + g u) / 2, squared";
    EXPECT_LT(with, 1e-6 * without) << (magic.empty() ? "bgk" : "trt");
  }
}

// The speed at distance eta from the centre of a channel of half-width h
// with the body force g and viscosity nu0 + c2 |du/dy|: the shear rate s
// solves c2 s^2 + nu0 s = g eta, and u is its integral from the wall.
double les_channel(double eta, double h, double g, double nu0, double c2) {
  const auto cube = [&](double e) { return std::pow(nu0 * nu0 + 4 * c2 * g * e, 1.5); };
  return ((cube(h) - cube(eta)) / (6 * c2 * g) - nu0 * (h - eta)) / (2 * c2);
}

struct ChannelResult {
  double error = 0;    // max |u - exact| over the centre speed
  double laminar = 0;  // the laminar centre speed over the LES one
};

// A periodic channel between the lattice's walls (half-way bounce-back at
// 0 and H), H = 8 n: diffusive scaling (u ~ 1/H at fixed tau0) with C_s ~
// H, so that nu_t / nu0 keeps its profile. D2Q9: walls across y, the flow
// along x; D3Q19: walls across x, the flow along z (the stress's xz part).
ChannelResult les_channel_error(const std::string& lattice, int n, const std::string& collision) {
  const bool d3 = lattice == "D3Q19";
  const int h = 8 * n;
  const double tau0 = 0.55, nu0 = (tau0 - 0.5) / 3, c_s = 1.0 * n, c2 = c_s * c_s;
  const double g = 8 * nu0 * (0.05 / n) / (double(h) * h);  // laminar centre speed 0.05 / n
  char yaml[1024];
  if (d3)
    std::snprintf(yaml, sizeof yaml,
                  "lattice: D3Q19\nprecision: double\ndomain: {size: [%d, 3, 3]}\n"
                  "physics: {collision: %s, tau: %.17g, smagorinsky: %.17g, "
                  "body_force: [0, 0, %.17g]}\n"
                  "boundaries: {x-: wall, x+: wall, y-: periodic, y+: periodic, z-: periodic, "
                  "z+: periodic}\nrun: {steps: 0}\noutput: {folder: unused}\n",
                  h, collision.c_str(), tau0, c_s, g);
  else
    std::snprintf(yaml, sizeof yaml,
                  "lattice: D2Q9\nprecision: double\ndomain: {size: [3, %d]}\n"
                  "physics: {collision: %s, tau: %.17g, smagorinsky: %.17g, "
                  "body_force: [%.17g, 0]}\n"
                  "boundaries: {x-: periodic, x+: periodic, y-: wall, y+: wall}\n"
                  "run: {steps: 0}\noutput: {folder: unused}\n",
                  h, collision.c_str(), tau0, c_s, g);
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  kolb::test::run_to_steady(*sim, 1e-12, 1000, 2000000);
  const auto f = sim->fields();
  ChannelResult r;
  const double centre = les_channel(0, 0.5 * h, g, nu0, c2);
  for (int s = 0; s < h; ++s) {
    const double exact = les_channel(std::abs(s + 0.5 - 0.5 * h), 0.5 * h, g, nu0, c2);
    const double u = d3 ? f.u[3 * f.index(s, 1, 1) + 2] : f.u[3 * f.index(1, s, 0)];
    r.error = std::max(r.error, std::abs(u - exact));
  }
  r.error /= centre;
  r.laminar = g * h * h / (8 * nu0) / centre;
  return r;
}

// Whether LES runs in `lattice`/double (it needs TRT's units in SoA).
bool les_compiled(kolb::LatticeId lattice) {
  const auto k = kolb::compiled_collisions(
      {lattice, kolb::Precision::float64, kolb::LayoutId{kolb::LayoutKind::soa, 1}});
  return std::find(k.begin(), k.end(), kolb::Collision::trt) != k.end();
}

TEST(Smagorinsky, ChannelConvergesToTheEddyViscosityProfile) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  if (!les_compiled(kolb::LatticeId::D2Q9)) GTEST_SKIP() << "no trt units in SoA";
  for (const std::string collision : {"bgk", "trt"}) {
    double last = 0;
    for (const int n : {1, 2, 4}) {
      const ChannelResult r = les_channel_error("D2Q9", n, collision);
      std::printf("%s, H = %d: max error %.3e of the centre speed (laminar: %.3f of it)\n",
                  collision.c_str(), 8 * n, r.error, r.laminar);
      EXPECT_GT(r.laminar, 1.4) << "the eddy viscosity must matter";
      EXPECT_LT(r.error, 0.02) << collision << ", H = " << 8 * n;
      if (last > 0) {
        EXPECT_GT(std::log2(last / r.error), 1.7) << collision << ", H = " << 8 * n;
      }
      last = r.error;
    }
  }
}

TEST(Smagorinsky, ChannelIn3D) {
  KOLB_SKIP_UNLESS_COMPILED("D3Q19", "double");
  if (!les_compiled(kolb::LatticeId::D3Q19)) GTEST_SKIP() << "no trt units in SoA";
  for (const std::string collision : {"bgk", "trt"}) {
    const ChannelResult r = les_channel_error("D3Q19", 2, collision);
    std::printf("D3Q19 %s, H = 16: max error %.3e of the centre speed\n", collision.c_str(),
                r.error);
    EXPECT_GT(r.laminar, 1.4);
    EXPECT_LT(r.error, 8e-3) << collision;
  }
}

}  // namespace
