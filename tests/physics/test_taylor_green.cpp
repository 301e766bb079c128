// Decay of exact Navier-Stokes solutions in periodic boxes measures the
// lattice viscosity, which must be nu = cs^2 (tau - 1/2):
//  - 2-D Taylor-Green vortex: kinetic energy ~ exp(-2 nu (kx^2 + ky^2) t);
//  - shear wave u = U sin(k y): kinetic energy ~ exp(-2 nu k^2 t).
// D3Q19 runs the vortex in each coordinate plane (all lattice orientations).
#include "support/cases.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

const double kPi = std::acos(-1.0);

// Least-squares slope of ln(E) against t over `samples` checks.
double energy_decay_rate(kolb::Domain& sim, int skip, int every, int samples) {
  sim.advance(skip);  // let the initial non-equilibrium transient pass
  double st = 0, sl = 0, stt = 0, stl = 0;
  for (int k = 0; k < samples; ++k) {
    const double t = double(sim.step());
    const double l = std::log(sim.observe().kinetic_energy);
    st += t, sl += l, stt += t * t, stl += t * l;
    sim.advance(every);
  }
  const double n = samples;
  return -(n * stl - st * sl) / (n * stt - st * st);
}

std::string box(const std::string& lattice, const std::string& size) {
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  return "lattice: " + lattice + "\ndomain: {size: " + size +
         "}\nphysics: {tau: 0.8}\n"
         "boundaries: {x-: periodic, x+: periodic, y-: periodic, y+: periodic" +
         (d3 ? ", z-: periodic, z+: periodic" : "") +
         "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
}

TEST(TaylorGreen, D2Q9ViscosityFromDecay) {
  const int n = 64;
  const auto c = kolb::test::make_case(box("D2Q9", "[64, 64]") +
                                       "initial: {type: taylor_green, amplitude: 0.01}\n");
  auto sim = kolb::make_domain(c);
  const double k = 2 * kPi / n;
  const double nu = energy_decay_rate(*sim, 20, 20, 20) / (2 * 2 * k * k);
  EXPECT_NEAR(nu / c.viscosity(), 1.0, 0.01);
  EXPECT_NEAR(nu / c.viscosity(), 1.0, 0.003) << "expected ~1e-3 at N = 64";
}

// 16-bit storage (precision: fp16) next to FP32: a decaying vortex changes
// every population each step, far above the half's resolution, so the
// viscosity comes out as in FP32.
TEST(TaylorGreen, Fp16StorageViscosityNextToFloat) {
  const int n = 64;
  const double k = 2 * kPi / n;
  double ratio[2];
  for (const int half : {0, 1}) {
    const auto c = kolb::test::make_case(
        box("D2Q9", "[64, 64]") + "initial: {type: taylor_green, amplitude: 0.01}\n",
        {half ? "precision=fp16" : "precision=float"});
    auto sim = kolb::make_domain(c);
    ratio[half] = energy_decay_rate(*sim, 20, 20, 20) / (2 * 2 * k * k) / c.viscosity();
  }
  std::printf("Taylor-Green D2Q9 N 64: nu / nu_lattice float %.6f, fp16 %.6f\n", ratio[0],
              ratio[1]);
  EXPECT_NEAR(ratio[0], 1.0, 0.003);
  EXPECT_NEAR(ratio[1], 1.0, 0.003);
  EXPECT_NEAR(ratio[1], ratio[0], 1e-3);
}

struct TaylorGreen3D : ::testing::TestWithParam<std::string> {};

TEST_P(TaylorGreen3D, D3Q19ViscosityFromDecayInEachPlane) {
  const std::string plane = GetParam();
  const int n = 32;
  std::string size = "[2, 2, 2]";
  size[1 + 3 * (plane[0] - 'x')] = '#';
  size[1 + 3 * (plane[1] - 'x')] = '#';
  size.replace(size.find('#'), 1, std::to_string(n));
  size.replace(size.find('#'), 1, std::to_string(n));
  const auto c = kolb::test::make_case(
      box("D3Q19", size) + "initial: {type: taylor_green, amplitude: 0.01, plane: " + plane +
      "}\n");
  auto sim = kolb::make_domain(c);
  const double k = 2 * kPi / n;
  const double nu = energy_decay_rate(*sim, 10, 10, 20) / (2 * 2 * k * k);
  EXPECT_NEAR(nu / c.viscosity(), 1.0, 0.01) << "plane " << plane;
}

INSTANTIATE_TEST_SUITE_P(Planes, TaylorGreen3D, ::testing::Values("xy", "xz", "yz"));

struct ShearWave : ::testing::TestWithParam<std::string> {};

TEST_P(ShearWave, ViscosityFromDecay) {
  const std::string lattice = GetParam();
  const int n = 64;
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  const auto c =
      kolb::test::make_case(box(lattice, d3 ? "[2, 64, 2]" : "[2, 64]") +
                            "initial: {type: shear_wave, amplitude: 0.01, flow: x, wave: y}\n");
  auto sim = kolb::make_domain(c);
  const double k = 2 * kPi / n;
  const double nu = energy_decay_rate(*sim, 20, 25, 20) / (2 * k * k);
  EXPECT_NEAR(nu / c.viscosity(), 1.0, 0.003) << lattice;
}

INSTANTIATE_TEST_SUITE_P(Lattices, ShearWave, ::testing::Values("D2Q9", "D3Q19", "D3Q27"));

}  // namespace
