// Open faces (boundary/open_faces.hpp): a velocity inlet, a pressure outlet
// and an outflow.
//  - A uniform flow entering through a uniform inlet and leaving through an
//    outlet at its density, or through an outflow, is an exact fixed point
//    of the conditions (the bounce-back of the equilibrium gives the
//    equilibrium): the fields stay uniform to round-off, on every lattice
//    and precision.
//  - A channel between walls fed a parabolic profile converges to the
//    Poiseuille solution at second order (N = 16, 32, 64 at a fixed
//    Reynolds number), with the pressure gradient 8 ν U / H² and the flux
//    2/3 U H of that solution, and at steady state as much mass leaves as
//    enters.
//  - A vortex carried out of a channel by a uniform stream leaves through
//    the outflow with little of its energy reflected back.
//  - A ramped, pulsating uniform inlet lets in, at every step n, exactly
//    ρ₀ u_x ½ (1 − cos(π n / N)) (1 + a sin(2π n / T)) per site of the face.
//  - A profile from a file holding the parabola gives the parabolic inlet's
//    bits; between its points it is bilinear, beyond them constant.
#include "support/cases.hpp"

#include <kolb/domain/step_plan.hpp>
#include <kolb/io/inflow_table.hpp>
#include <kolb/lattice/lattices.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace {

std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

struct UniformFlow : ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(UniformFlow, IsAFixedPointOfInletAndOutlet) {
  const auto [lattice, precision] = GetParam();
  KOLB_SKIP_UNLESS_COMPILED(lattice, precision);
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  const double u = 0.04, v = 0.01;  // a tangential component too
  for (const std::string outlet : {"{type: pressure_outlet, density: 1}", "outflow"})
    for (const bool reverse : {false, true}) {  // the inlet on x- or on x+
      const std::string in = reverse ? "x+" : "x-", out = reverse ? "x-" : "x+";
      const double ux = reverse ? -u : u;
      const std::string vel = "[" + num(ux) + ", " + num(v) + (d3 ? ", 0.005]" : "]");
      const std::string yaml = "lattice: " + lattice + "\nprecision: " + precision +
                               "\ndomain: {size: " + (d3 ? "[9, 5, 4]" : "[11, 6]") +
                               "}\nphysics: {tau: 0.7}\nboundaries: {" + in +
                               ": {type: velocity_inlet, velocity: " + vel + "}, " + out + ": " +
                               outlet + ", y-: periodic, y+: periodic" +
                               (d3 ? ", z-: periodic, z+: periodic" : "") +
                               "}\ninitial: {type: uniform, velocity: " + vel +
                               "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
      const auto c = kolb::test::make_case(yaml);
      auto sim = kolb::make_domain(c);
      sim->advance(50);
      const auto f = sim->fields();
      const double tol = precision == "double" ? 1e-13 : precision == "float" ? 2e-6 : 3e-4;
      const double want[3] = {ux, v, d3 ? 0.005 : 0.0};
      for (std::size_t k = 0; k < f.size(); ++k) {
        ASSERT_NEAR(f.rho[k], 1.0, tol)
            << lattice << " " << precision << " " << outlet << " site " << k;
        for (int a = 0; a < 3; ++a)
          ASSERT_NEAR(f.u[3 * k + a], want[a], tol)
              << lattice << " " << precision << " " << outlet << " site " << k;
      }
    }
}

// Both streaming schemes give the same populations bit for bit with an
// inlet (ramped, parabolic between walls), an outlet or an outflow and a body against the
// walls, and in a long thin channel periodic across (few rows: the host
// launches cut each row into pieces, each taking its own end's face); the
// sweep checks this for double and float, here fp16 too. In place the rows
// take the x faces themselves where the two-buffer rows leave them to the
// pass (EndLane::open), so this also holds the rows' values to the pass's.
TEST_P(UniformFlow, SchemesAgreeBitForBit) {
  const auto [lattice, precision] = GetParam();
  KOLB_SKIP_UNLESS_COMPILED(lattice, precision);
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  for (const bool thin : {false, true})
    for (const std::string outlet : {"{type: pressure_outlet, density: 0.995}", "outflow"}) {
      const std::string across =
          thin ? (d3 ? ", y-: periodic, y+: periodic, z-: periodic, z+: periodic}"
                     : ", y-: periodic, y+: periodic}")
               : (d3 ? ", y-: wall, y+: wall, z-: wall, z+: wall}" : ", y-: wall, y+: wall}");
      const std::string body = thin ? ""
                               : d3 ? "[{type: box, min: [4, 0, 0], max: [6, 3, 4]}]"
                                    : "[{type: box, min: [4, 0], max: [6, 3]}]";
      const std::string yaml =
          "lattice: " + lattice + "\nprecision: " + precision + "\ndomain: {size: " +
          (thin ? (d3 ? "[160, 2, 2]" : "[160, 5]") : (d3 ? "[12, 7, 6]" : "[17, 9]")) +
          "}\nphysics: {tau: 0.62}\nboundaries: {x-: {type: velocity_inlet, velocity: " +
          (d3 ? "[0.05, 0, 0.01]" : "[0.05, 0.01]") +
          ", profile: " + (thin ? "uniform" : "parabolic") + ", ramp_steps: 6}, x+: " + outlet +
          across + (thin ? "" : "\nobstacles: " + body) +
          "\nrun: {steps: 0}\noutput: {folder: unused}\n";
      auto two = kolb::make_domain(kolb::test::make_case(yaml));
      auto aa = kolb::make_domain(kolb::test::make_case(yaml, {"execution.streaming=aa"}));
      two->advance(20);
      aa->advance(20);
      const auto a = two->populations(), b = aa->populations();
      EXPECT_EQ(kolb::test::first_difference(a, b), a.size())
          << lattice << " " << precision << " " << outlet << (thin ? " thin" : "");
      bool rows_take_x_plus = false;  // in place: EndLane::open (both faces fit)
      for (const auto& [label, plan] : aa->plans())
        rows_take_x_plus = rows_take_x_plus || plan.phase[0].lanes[1] == kolb::EndLane::open;
      EXPECT_TRUE(rows_take_x_plus) << lattice << " " << precision << (thin ? " thin" : "");
    }
}

INSTANTIATE_TEST_SUITE_P(Lattices, UniformFlow,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19", "D3Q27"),
                                            ::testing::Values("double", "float", "fp16")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param);
                         });

struct OpenChannel {
  double error = 0;      // max |u - u_exact| / U in the middle section
  double gradient = 0;   // -dp/dx from the density along the centre line, over 8 nu U / H^2
  double imbalance = 0;  // |mass change| over `balance_steps`, over the mass entering then
  double inflow = 0;     // sum of rho u_x over the middle section, over the profile's 2/3 U n
};

// A D2Q9 channel of `n` sites between walls, 2n long, fed the profile
// 4 U s (1 - s) with U = 0.8 / n (Re = U n / nu = 4.8 at tau = 0.8).
OpenChannel solve(int n, const std::string& collision = "") {
  const double u = 0.8 / n, tau = 0.8;
  const std::string yaml = "lattice: D2Q9\nprecision: double\ndomain: {size: [" +
                           std::to_string(2 * n) + ", " + std::to_string(n) + "]}\nphysics: {" +
                           collision + "tau: " + num(tau) +
                           "}\nboundaries: {x-: {type: velocity_inlet, velocity: [" + num(u) +
                           ", 0], profile: parabolic}, x+: pressure_outlet, y-: wall, y+: "
                           "wall}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  const auto c = kolb::test::make_case(yaml);
  auto sim = kolb::make_domain(c);
  kolb::test::run_to_steady(*sim, 1e-11, 500, 400000);
  const auto f = sim->fields();
  OpenChannel out;
  const int mid = n;
  for (int y = 0; y < n; ++y) {
    const double s = (y + 0.5) / n;
    out.error = std::max(out.error, std::abs(f.u[3 * f.index(mid, y, 0)] - 4 * u * s * (1 - s)));
  }
  out.error /= u;
  const double nu = c.viscosity(), cs2 = 1.0 / 3.0;
  const int a = n / 2, b = 3 * n / 2, y = n / 2;
  const double dpdx = cs2 * (f.rho[f.index(b, y, 0)] - f.rho[f.index(a, y, 0)]) / (b - a);
  out.gradient = -dpdx / (8 * nu * u / (double(n) * n));
  // Mass in = mass out: the total mass holds still at steady state.
  const double before = sim->observe().mass;
  const int steps = 200;
  sim->advance(steps);
  const double flux = 2.0 / 3.0 * u * n;  // the profile's mean times the width
  out.imbalance = std::abs(sim->observe().mass - before) / (steps * flux);
  for (int y = 0; y < n; ++y) out.inflow += f.rho[f.index(mid, y, 0)] * f.u[3 * f.index(mid, y, 0)];
  out.inflow /= flux;
  return out;
}

// ramp_steps changes the start only: the first step sees no inflow (a fluid
// at rest stays at rest), and the steady state is the unramped one.
TEST(OpenChannel, RampStartsFromRestAndEndsAtTheSameFlow) {
  if (!kolb::test::compiled("D2Q9", "double")) GTEST_SKIP() << "D2Q9 double not compiled";
  const std::string yaml =
      "lattice: D2Q9\nprecision: double\ndomain: {size: [24, 10]}\nphysics: {tau: 0.9}\n"
      "boundaries: {x-: {type: velocity_inlet, velocity: [0.05, 0], profile: parabolic}, x+: "
      "pressure_outlet, y-: wall, y+: wall}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  const std::string ramp = "boundaries.x-.ramp_steps=300";
  auto ramped = kolb::make_domain(kolb::test::make_case(yaml, {ramp}));
  auto direct = kolb::make_domain(kolb::test::make_case(yaml));
  ramped->advance(1);
  direct->advance(1);
  EXPECT_EQ(ramped->observe().momentum[0], 0.0);
  EXPECT_GT(direct->observe().momentum[0], 0.0);
  ramped->advance(2);
  EXPECT_GT(ramped->observe().momentum[0], 0.0);
  kolb::test::run_to_steady(*ramped, 1e-12, 500, 100000);
  kolb::test::run_to_steady(*direct, 1e-12, 500, 100000);
  const auto a = ramped->fields(), b = direct->fields();
  for (std::size_t k = 0; k < a.u.size(); ++k) ASSERT_NEAR(a.u[k], b.u[k], 1e-10) << k;
}

// The net mass a uniform inlet on x- lets in over one step, from the
// post-collision populations before and after it (transverse axes
// periodic, so columns can be summed whatever the shift): what the first
// column holds after the step, less what reached it from inside (its own
// resting and transverse populations, and those column 1 sent back), less
// what it sent out across the face.
double inflow_over_step(kolb::Domain& sim) {
  const auto before = sim.populations();
  sim.advance(1);
  const auto after = sim.populations();
  const auto f = sim.fields();
  const int nx = f.n[0], q = 9;
  const auto cx = [](int i) { return kolb::D2Q9::c(i, 0); };
  double in = 0;
  for (std::size_t s = 0; s < f.size(); ++s) {
    const int x = int(s % std::size_t(nx));
    for (int i = 0; i < q; ++i) {
      const double b = before[s * q + std::size_t(i)], a = after[s * q + std::size_t(i)];
      if (x == 0) in += a - (cx(i) <= 0 ? b : 0);
      if (x == 1 && cx(i) < 0) in -= b;
    }
  }
  return in;
}

TEST(OpenChannel, PulsatingInletLetsInItsFlowAtEveryStep) {
  if (!kolb::test::compiled("D2Q9", "double")) GTEST_SKIP() << "D2Q9 double not compiled";
  const double u = 0.04, a = 0.5, period = 7.5;
  const int ramp = 5, ny = 6;
  for (const std::string scheme : {"two_buffer", "aa"}) {
    const std::string yaml =
        "lattice: D2Q9\nprecision: double\ndomain: {size: [10, 6]}\nphysics: {tau: 0.8}\n"
        "boundaries: {x-: {type: velocity_inlet, velocity: [0.04, 0.01], ramp_steps: 5, "
        "amplitude: 0.5, period: 7.5}, x+: pressure_outlet, y-: periodic, y+: periodic}\n"
        "run: {steps: 0}\noutput: {folder: unused}\nexecution: {streaming: " +
        scheme + "}\n";
    auto sim = kolb::make_domain(kolb::test::make_case(yaml));
    for (int n = 0; n < 20; ++n) {
      const double r = n >= ramp ? 1 : 0.5 * (1 - std::cos(M_PI * n / ramp));
      const double want = ny * u * r * (1 + a * std::sin(2 * M_PI * n / period));
      EXPECT_NEAR(inflow_over_step(*sim), want, 1e-14) << scheme << " step " << n;
    }
  }
}

TEST(OpenChannel, ConvergesToPoiseuilleAtSecondOrder) {
  if (!kolb::test::compiled("D2Q9", "double")) GTEST_SKIP() << "D2Q9 double not compiled";
  double last = 0;
  for (const int n : {16, 32, 64}) {
    const OpenChannel ch = solve(n);
    std::printf(
        "N = %d: max error %.3e of U, pressure gradient %.6f of 8 nu U / H^2, flux "
        "%.6f of 2/3 U N, mass imbalance %.1e\n",
        n, ch.error, ch.gradient, ch.inflow, ch.imbalance);
    EXPECT_LT(ch.error, 0.02) << "N = " << n;
    EXPECT_NEAR(ch.gradient, 1.0, 0.02) << "N = " << n;
    EXPECT_LT(ch.imbalance, 1e-8) << "N = " << n;
    EXPECT_NEAR(ch.inflow, 1.0, 1e-4) << "N = " << n;
    if (last > 0) {
      EXPECT_GT(std::log2(last / ch.error), 1.8) << "order from N = " << n / 2;
    }
    last = ch.error;
  }
}

// The kinetic energy of the disturbance u - U of a vortex carried out of a
// channel (periodic across) by a uniform stream U, left in the channel once
// the vortex has gone, over its energy at the start. The vortex is a
// Gaussian stream function psi = C exp(-r^2 / 2R^2) in cyclostrophic
// balance (rho = 1 - C^2 / (2 R^2 c_s^2) exp(-r^2 / R^2)), its centre 3R from
// the outlet; after (3R + 6R) / U steps its core lies 6R beyond the outlet.
// `leave`: the outlet's condition; "periodic" keeps the vortex in (the
// energy viscosity alone leaves it).
double vortex_left(const std::string& leave) {
  const int nx = 96, ny = 64;
  const double U = 0.05, R = 5, C = 0.02 * R * std::exp(0.5), cs2 = 1.0 / 3.0;
  const bool periodic = leave == "periodic";
  const std::string yaml =
      "lattice: D2Q9\nprecision: double\ndomain: {size: [" + std::to_string(nx) + ", " +
      std::to_string(ny) + "]}\nphysics: {tau: 0.56}\nboundaries: {x-: " +
      (periodic ? "periodic" : "{type: velocity_inlet, velocity: [" + num(U) + ", 0]}") +
      ", x+: " + leave +
      ", y-: periodic, y+: periodic}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  auto sim = kolb::make_domain(kolb::test::make_case(yaml));
  const auto shape = sim->fields();
  std::vector<double> rho(shape.rho.size()), u(shape.u.size());
  const double x0 = nx - 3 * R, y0 = ny / 2.0;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const double dx = x + 0.5 - x0, dy = y + 0.5 - y0, r2 = dx * dx + dy * dy;
      const double e = std::exp(-r2 / (2 * R * R));
      const std::size_t k = shape.index(x, y, 0);
      rho[k] = 1 - C * C / (2 * R * R * cs2) * e * e;
      u[3 * k] = U - C * dy / (R * R) * e;  // u = d psi / dy, v = -d psi / dx
      u[3 * k + 1] = C * dx / (R * R) * e;
      u[3 * k + 2] = 0;
    }
  sim->set_fields(rho, u);
  const auto energy = [&] {
    const auto f = sim->fields();
    double sum = 0;
    for (std::size_t k = 0; k < f.rho.size(); ++k) {
      const double du = f.u[3 * k] - U, dv = f.u[3 * k + 1];
      sum += 0.5 * f.rho[k] * (du * du + dv * dv);
    }
    return sum;
  };
  const double start = energy();
  sim->advance(std::int64_t(9 * R / U));
  return energy() / start;
}

TEST(Outflow, LetsAVortexLeave) {
  if (!kolb::test::compiled("D2Q9", "double")) GTEST_SKIP() << "D2Q9 double not compiled";
  const double kept = vortex_left("periodic"), outflow = vortex_left("outflow"),
               outlet = vortex_left("{type: pressure_outlet, density: 1}");
  std::printf(
      "energy left of a vortex after it passed the outlet: outflow %.2e, pressure outlet "
      "%.2e, kept in (periodic) %.2e\n",
      outflow, outlet, kept);
  EXPECT_GT(kept, 0.1);  // viscosity alone would have left this much
  EXPECT_LT(outflow, 1e-4);
  EXPECT_LT(outflow, 0.2 * outlet);  // what the outflow is for
  EXPECT_LT(outlet, 1e-2);
}

// A profile from a file holding the parabola at the points where the
// inlet's links cross the face (every half site) gives the parabolic
// inlet's populations bit for bit: the table's points come back exactly.
// In 3-D the table is a grid over y and z.
TEST(InletProfileFile, HoldingTheParabolaGivesTheParabolicInletsBits) {
  for (const std::string& lattice : kolb::test::compiled_of({"D2Q9", "D3Q19"})) {
    const bool d3 = kolb::test::dim_of(lattice) == 3;
    const int ny = 9, nz = d3 ? 7 : 1;
    const double u0 = 0.06;
    const std::string path = ::testing::TempDir() + "kolb_inflow_" + lattice + ".csv";
    {
      std::ofstream out(path);
      out << "# the parabola at every half site\n" << (d3 ? "y, z, ux, uy, uz\n" : "ux,uy,y\n");
      for (int k = 0; k <= (d3 ? 2 * nz : 0); ++k)
        for (int j = 0; j <= 2 * ny; ++j) {
          // As the parabolic inlet computes it: 4 r (1 - r) per walled axis.
          double scale = 1;
          const double ry = 0.5 * j / ny, rz = 0.5 * k / nz;
          scale *= 4 * ry * (1 - ry);
          if (d3) scale *= 4 * rz * (1 - rz);
          if (d3)
            out << num(0.5 * j) << ", " << num(0.5 * k) << ", " << num(u0 * scale) << ", 0, 0\n";
          else
            out << num(u0 * scale) << ",0," << num(0.5 * j) << "\n";
        }
    }
    const std::string head = "lattice: " + lattice + "\nprecision: double\ndomain: {size: " +
                             (d3 ? "[12, 9, 7]" : "[16, 9]") + "}\nphysics: {tau: 0.7}\n";
    const std::string rest = ", ramp_steps: 20}, x+: pressure_outlet, y-: wall, y+: wall" +
                             std::string(d3 ? ", z-: wall, z+: wall" : "") +
                             "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
    auto parabolic = kolb::make_domain(
        kolb::test::make_case(head + "boundaries: {x-: {type: velocity_inlet, velocity: [" +
                              num(u0) + (d3 ? ", 0, 0]" : ", 0]") + ", profile: parabolic" + rest));
    auto table = kolb::make_domain(kolb::test::make_case(
        head + "boundaries: {x-: {type: velocity_inlet, profile: file, file: " + path + rest));
    parabolic->advance(60);
    table->advance(60);
    const auto a = parabolic->fields(), b = table->fields();
    double inflow = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a.rho[k], b.rho[k]) << lattice << " site " << k;
      for (int c = 0; c < 3; ++c) ASSERT_EQ(a.u[3 * k + c], b.u[3 * k + c]) << lattice;
      inflow += std::abs(b.u[3 * k]);
    }
    EXPECT_GT(inflow, 0.01 * a.size() * u0) << lattice;  // it did flow
  }
}

// Between the table's points the velocity is linear (bilinear over a grid),
// beyond them the nearest end's.
TEST(InletProfileFile, InterpolatesLinearlyAndHoldsTheEnds) {
  const std::string path = ::testing::TempDir() + "kolb_inflow_grid.csv";
  {
    std::ofstream out(path);
    out << "z,y,ux,uy,uz\n";
    for (const double z : {1.0, 3.0})
      for (const double y : {0.0, 2.0, 6.0})
        out << z << "," << y << "," << 0.01 * y + 0.1 * z << "," << 0.001 * y * z << ",0\n";
  }
  const auto t = kolb::InflowTable::read(path, 0, 3);
  EXPECT_EQ(t.axes()[0], 1);  // y, then z, whatever the columns' order
  EXPECT_EQ(t.axes()[1], 2);
  const auto u = t.at({5.0, 1.0, 2.0});  // x is not read
  EXPECT_NEAR(u[0], 0.01 * 1 + 0.1 * 2, 1e-15);
  EXPECT_NEAR(u[1], 0.001 * 1 * 2, 1e-15);  // y z is bilinear: exact
  const auto far = t.at({0.0, 9.0, -4.0});  // beyond both ends: the corner (6, 1)
  EXPECT_NEAR(far[0], 0.06 + 0.1, 1e-15);
  EXPECT_NEAR(far[1], 0.006, 1e-15);
  EXPECT_DOUBLE_EQ(t.max_speed().first, std::hypot(0.36, 0.018));
  // Rows that leave a point of the grid out.
  std::ofstream(path) << "y,z,ux,uy,uz\n0,0,0.1,0,0\n1,1,0.1,0,0\n";
  try {
    kolb::InflowTable::read(path, 0, 3);
    FAIL() << "no error";
  } catch (const kolb::InflowTableError& e) {
    EXPECT_NE(std::string(e.what()).find("2 rows do not make the 2 x 2 grid"), std::string::npos)
        << e.what();
  }
}

}  // namespace
