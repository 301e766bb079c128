// Case files: valid input gives the documented values; every class of bad
// input is a ConfigError naming the key, its file:line:column and the problem.
#include <kolb/app/input.hpp>
#include <kolb/model/lattice_info.hpp>

#include "support/cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace {

const std::string kValid = R"(lattice: D2Q9
precision: double
domain: {size: [64, 32]}
physics: {reynolds: 100, reference_velocity: 0.1, reference_length: 64}
boundaries:
  x-: wall
  x+: wall
  y-: wall
  y+: {type: moving_wall, velocity: [0.1, 0.0]}
run: {steps: 100}
output: {folder: out/x, vtk_every: 10}
)";

// Expects read_case_string to fail with `where` in the location and `what`
// in the problem text; returns the message.
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    kolb::read_case_string(yaml, "case.yaml", sets);
  } catch (const kolb::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return s.replace(p, from.size(), to);
}

TEST(Config, ValidCaseDerivesTau) {
  const auto c = kolb::read_case_string(kValid);
  EXPECT_EQ(c.lattice, kolb::LatticeId::D2Q9);
  EXPECT_EQ(c.size[0], 64);
  EXPECT_EQ(c.size[1], 32);
  EXPECT_EQ(c.size[2], 1);
  // nu = U L / Re = 0.064, tau = 3 nu + 1/2
  EXPECT_NEAR(c.tau, 0.5 + 3 * 0.064, 1e-15);
  EXPECT_EQ(c.faces[3].kind, kolb::FaceKind::moving_wall);
  EXPECT_EQ(c.faces[3].velocity[0], 0.1);
  EXPECT_EQ(c.steps, 100);
  EXPECT_EQ(c.output.vtk_every, 10);
}

// Variant names: printed the same way everywhere (registry, `kolb info`,
// bench files, reports); layout names parse back (the bench's `layouts`).
TEST(Config, VariantKeysRoundTrip) {
  for (const std::string name : {"soa", "csoa8", "caosoa16", "aos"}) {
    const auto layout = kolb::parse_layout(name);
    ASSERT_TRUE(layout) << name;
    EXPECT_EQ(kolb::to_string(*layout), name);
  }
  const kolb::VariantKey csoa{kolb::LatticeId::D3Q19, kolb::Precision::float32,
                              *kolb::parse_layout("csoa8")};
  EXPECT_EQ(kolb::to_string(csoa), "D3Q19/float/csoa8");
  EXPECT_EQ(csoa.layout.kind, kolb::LayoutKind::csoa);
  EXPECT_EQ(csoa.layout.vector_length, 8);
  for (const std::string bad : {"soa8", "csoa", "csoa8x", "soa/", "SoA"})
    EXPECT_FALSE(kolb::parse_layout(bad)) << bad;
  EXPECT_EQ(kolb::parse<kolb::Streaming>("aa"), kolb::Streaming::aa);
  EXPECT_FALSE(kolb::parse<kolb::Streaming>("AA"));
  if (kolb::test::compiled("D2Q9", "float")) {  // a case names only compiled variants
    const auto c = kolb::read_case_string(replace(kValid, "precision: double", "precision: float"));
    EXPECT_EQ(kolb::to_string(c.variant()), "D2Q9/float/soa");
  }
  // The table is generated from the descriptors.
  EXPECT_EQ(kolb::lattice_info(kolb::LatticeId::D3Q19).q, 19);
  EXPECT_EQ(kolb::lattice_info(kolb::LatticeId::D2Q37).halo, 3);
  EXPECT_TRUE(kolb::lattice_info(kolb::LatticeId::D2Q37).has_temperature);
  EXPECT_FALSE(kolb::lattice_info(kolb::LatticeId::D2Q37).in_place_streaming);
  EXPECT_NEAR(kolb::lattice_info(kolb::LatticeId::D2Q37).sound_speed(), 1.0, 1e-15);
  EXPECT_NEAR(kolb::lattice_info(kolb::LatticeId::D2Q9).sound_speed(), std::sqrt(1.0 / 3), 1e-15);
}

TEST(Config, ViscosityAndTauForms) {
  auto c = kolb::read_case_string(replace(
      kValid, "reynolds: 100, reference_velocity: 0.1, reference_length: 64", "viscosity: 0.1"));
  EXPECT_NEAR(c.tau, 0.8, 1e-15);
  c = kolb::read_case_string(
      replace(kValid, "reynolds: 100, reference_velocity: 0.1, reference_length: 64", "tau: 0.7"));
  EXPECT_DOUBLE_EQ(c.tau, 0.7);
}

TEST(Config, OverridesWithDottedKeys) {
  const auto c = kolb::read_case_string(
      kValid, "case.yaml", {"run.steps=200", "domain.size=[16, 8]", "execution.threads=1"});
  EXPECT_EQ(c.steps, 200);
  EXPECT_EQ(c.size[0], 16);
  EXPECT_EQ(c.execution.threads, 1);
}

TEST(Config, UnknownKeyWithSuggestionAndPosition) {
  const auto e = error_of(replace(kValid, "run: {steps: 100}", "run: {stpes: 100}"));
  EXPECT_NE(e.find("case.yaml:10:7: run.stpes"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key 'stpes'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'steps'"), std::string::npos) << e;
}

TEST(Config, UnknownTopLevelKey) {
  const auto e = error_of(kValid + "outptu: {}\n");
  EXPECT_NE(e.find("case.yaml:12:1: outptu"), std::string::npos) << e;
}

TEST(Config, WrongType) {
  auto e = error_of(replace(kValid, "steps: 100", "steps: many"));
  EXPECT_NE(e.find("case.yaml:10:14: run.steps: expected a number, got 'many'"), std::string::npos)
      << e;
  e = error_of(replace(kValid, "steps: 100", "steps: 10.5"));
  EXPECT_NE(e.find("run.steps: expected an integer"), std::string::npos) << e;
  e = error_of(replace(kValid, "size: [64, 32]", "size: 64"));
  EXPECT_NE(e.find("domain.size: expected 2 sizes"), std::string::npos) << e;
  e = error_of(replace(kValid, "velocity: [0.1, 0.0]", "velocity: fast"));
  EXPECT_NE(e.find("boundaries.y+.velocity: expected a list of 2 numbers"), std::string::npos) << e;
}

TEST(Config, MissingRequiredKey) {
  auto e = error_of(replace(kValid, "run: {steps: 100}\n", ""));
  EXPECT_NE(e.find("missing required key 'run'"), std::string::npos) << e;
  e = error_of(replace(kValid, "  x+: wall\n", ""));
  EXPECT_NE(e.find("boundaries: missing required key 'x+'"), std::string::npos) << e;
  EXPECT_NE(e.find("case.yaml:6:3"), std::string::npos) << e;
}

TEST(Config, ImpossibleTau) {
  const auto e = error_of(
      replace(kValid, "reynolds: 100, reference_velocity: 0.1, reference_length: 64", "tau: 0.5"));
  EXPECT_NE(e.find("case.yaml:4:16: physics.tau: tau = 0.5 must be > 0.5"), std::string::npos) << e;
  EXPECT_NE(error_of(replace(kValid, "reynolds: 100", "reynolds: -5")).find("reynolds must be > 0"),
            std::string::npos);
  EXPECT_NE(error_of(replace(kValid, "reynolds: 100, ", "tau: 0.6, reynolds: 100, "))
                .find("exactly one of"),
            std::string::npos);
}

TEST(Config, SmagorinskyRunsInTrtUnits) {
  const auto k = kolb::compiled_collisions(kolb::read_case_string(kValid).variant());
  if (std::find(k.begin(), k.end(), kolb::Collision::trt) == k.end())
    GTEST_SKIP() << "the default layout is compiled without trt";
  auto c = kolb::read_case_string(kValid, "case.yaml", {"physics.smagorinsky=0.15"});
  EXPECT_EQ(c.smagorinsky, 0.15);
  EXPECT_EQ(c.collision, kolb::Collision::bgk);
  EXPECT_EQ(c.kernel_collision(), kolb::Collision::trt);
  c = kolb::read_case_string(kValid, "case.yaml", {"physics.smagorinsky=0"});
  EXPECT_EQ(c.kernel_collision(), kolb::Collision::bgk);
  const auto e = error_of(kValid, {"physics.smagorinsky=-0.1"});
  EXPECT_NE(e.find("physics.smagorinsky: Smagorinsky's constant C_s = -0.1 must be >= 0"),
            std::string::npos)
      << e;
}

TEST(Config, MachTooHigh) {
  auto e = error_of(replace(kValid, "velocity: [0.1, 0.0]", "velocity: [0.3, 0.0]"));
  EXPECT_NE(e.find("boundaries.y+.velocity: speed 0.3 is Mach 0.5"), std::string::npos) << e;
  e = error_of(replace(kValid, "reference_velocity: 0.1", "reference_velocity: 0.5"));
  EXPECT_NE(e.find("physics.reference_velocity: speed 0.5 is Mach"), std::string::npos) << e;
}

TEST(Config, NegativeOrZeroSize) {
  auto e = error_of(replace(kValid, "size: [64, 32]", "size: [64, -32]"));
  EXPECT_NE(
      e.find("case.yaml:3:21: domain.size[1]: size must be a positive number of sites, got -32"),
      std::string::npos)
      << e;
  e = error_of(replace(kValid, "size: [64, 32]", "size: [0, 32]"));
  EXPECT_NE(e.find("domain.size[0]"), std::string::npos) << e;
}

TEST(Config, ObstacleOutsideTheBox) {
  // Shapes reaching across a face are clipped there; one that misses the
  // lattice is an error.
  EXPECT_NO_THROW(kolb::read_case_string(
      kValid + "obstacles:\n  - {type: cylinder, center: [60, 16], radius: 8}\n", "case.yaml"));
  auto e = error_of(kValid + "obstacles:\n  - {type: cylinder, center: [75, 16], radius: 8}\n");
  EXPECT_NE(e.find("obstacles[0].center: obstacle lies outside the domain along x ([67, 83] "
                   "does not meet [0, 64])"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("case.yaml:13:"), std::string::npos) << e;
  e = error_of(kValid + "obstacles:\n  - {type: box, min: [10, 32], max: [20, 40]}\n");
  EXPECT_NE(e.find("obstacles[0].max: obstacle lies outside the domain along y"), std::string::npos)
      << e;
  e = error_of(kValid + "obstacles:\n  - {type: blob}\n");
  EXPECT_NE(e.find("'blob' is not an obstacle type"), std::string::npos) << e;
}

TEST(Config, InletProfileFromAFile) {
  const std::string dir = ::testing::TempDir();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + name) << text;
    return dir + name;
  };
  const std::string good = write("kolb_profile.csv", "y,ux,uy\n0,0,0\n16,0.05,0\n32,0,0\n");
  const std::string channel = R"(lattice: D2Q9
domain: {size: [64, 32]}
physics: {tau: 0.8}
boundaries:
  x-: {type: velocity_inlet, profile: file, file: FILE}
  x+: pressure_outlet
  y-: wall
  y+: wall
run: {steps: 10}
output: {folder: out/x}
)";
  const kolb::Case c = kolb::read_case_string(replace(channel, "FILE", good), "case.yaml");
  ASSERT_TRUE(c.faces[0].table);
  EXPECT_EQ(c.faces[0].profile, kolb::InletProfile::file);
  auto fails = [&](const std::string& file_text, const std::string& what) {
    const std::string e =
        error_of(replace(channel, "FILE", write("kolb_bad_profile.csv", file_text)));
    EXPECT_NE(e.find("case.yaml:5:"), std::string::npos) << e;
    EXPECT_NE(e.find("boundaries.x-.file: profile file"), std::string::npos) << e;
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  fails("y,ux,uy\n0,0,0\n16,0.05\n", "line 3: expected 3 values, got 2");
  fails("y,ux,uy\n0,0,0\n16,fast,0\n", "line 3: 'fast' is not a number");
  fails("x,ux,uy\n0,0,0\n", "line 1: column 'x' is neither a coordinate across the face (y");
  fails("y,ux\n0,0\n", "the header has no column uy");
  fails("y,ux,uy\n0,0,0\n0,0.1,0\n", "line 3: a grid point given twice (also on line 2)");
  fails("y,y,ux,uy\n0,0,0,0\n", "line 1: column 'y' is neither");
  fails("\xEF\xBB\xBFy,ux,uy\n0,0.01,0\n32,-0.01,0\n", "line 3: the velocity points out");
  fails("y,ux,uy\n0,-0.01,0\n32,0.05,0\n", "line 2: the velocity points out of the domain");
  fails("y,ux,uy\n0,0.5,0\n", "Mach");
  fails("", "no rows of values");
  std::string e = error_of(replace(channel, "FILE", dir + "kolb_no_such_profile.csv"));
  EXPECT_NE(e.find("cannot be read"), std::string::npos) << e;
  e = error_of(replace(channel, "profile: file, file: FILE", "velocity: [0.05, 0], file: x.csv"));
  EXPECT_NE(e.find("boundaries.x-.file: only a velocity_inlet with profile: file reads a file"),
            std::string::npos)
      << e;
  // On a high face the inflow runs along -x: a positive u_x points out.
  e = error_of(replace(replace(replace(channel, "x-: {", "x-: pressure_outlet\n  x+: {"),
                               "  x+: pressure_outlet\n", ""),
                       "FILE", good));
  EXPECT_NE(e.find("boundaries.x+.file: profile file"), std::string::npos) << e;
  EXPECT_NE(e.find("line 3: the velocity points out of the domain (its x component must be <= 0 "
                   "on x+)"),
            std::string::npos)
      << e;
  e = error_of(replace(channel, "profile: file,", "profile: file, velocity: [0.05, 0],"));
  EXPECT_NE(e.find("with profile: file the velocities come from the file"), std::string::npos) << e;
}

TEST(Config, ObstacleWalls) {
  const kolb::Case c = kolb::read_case_string(
      kValid +
          "obstacles:\n  - {type: cylinder, center: [16, 16], radius: 4, wall: bouzidi}\n"
          "  - {type: box, min: [2, 2], max: [5, 5]}\n",
      "case.yaml");
  EXPECT_TRUE(c.obstacles[0].interpolated);
  EXPECT_FALSE(c.obstacles[1].interpolated);
  auto e = error_of(kValid +
                    "obstacles:\n  - {type: sphere, center: [16, 16], radius: 4, wall: curved}\n");
  EXPECT_NE(e.find("obstacles[0].wall: 'curved' is not a wall treatment (halfway, bouzidi)"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("case.yaml:13:"), std::string::npos) << e;
  e = error_of(kValid + "obstacles:\n  - {type: mask, file: m.pgm, wall: bouzidi}\n");
  EXPECT_NE(e.find("obstacles[0].wall: a mask's walls are half-way"), std::string::npos) << e;
}

TEST(Config, UnreadableFiles) {
  EXPECT_THROW(kolb::read_case("/nonexistent/case.yaml"), kolb::ConfigError);
  try {
    kolb::read_case("/nonexistent/case.yaml");
  } catch (const kolb::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read case file"), std::string::npos);
  }
  const auto e = error_of(kValid + "obstacles:\n  - {type: mask, file: /nonexistent/mask.pgm}\n");
  EXPECT_NE(e.find("obstacles[0].file: cannot read mask file '/nonexistent/mask.pgm'"),
            std::string::npos)
      << e;
}

TEST(Config, YamlSyntaxError) {
  const auto e = error_of("lattice: D2Q9\ndomain: {size: [64, 32]\n");
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
  EXPECT_NE(e.find("case.yaml:"), std::string::npos) << e;
}

TEST(Config, BadEnumerationsAndPairs) {
  auto e = error_of(replace(kValid, "lattice: D2Q9", "lattice: D2Q7"));
  EXPECT_NE(e.find("lattice: 'D2Q7' is not one of: D2Q9, D3Q19"), std::string::npos) << e;
  e = error_of(replace(kValid, "  x-: wall", "  x-: periodic"));
  EXPECT_NE(e.find("periodic boundaries come in pairs"), std::string::npos) << e;
  e = error_of(replace(kValid, "  x-: wall", "  x-: slip"));
  EXPECT_NE(e.find("'slip' is not a boundary type"), std::string::npos) << e;
}

TEST(Config, OpenFaces) {
  const std::string in = "  x-: {type: velocity_inlet, velocity: [0.05, 0.01], profile: parabolic}";
  const std::string open = replace(replace(replace(kValid, "  x-: wall", in), "  x+: wall",
                                           "  x+: {type: pressure_outlet, density: 1.01}"),
                                   "  y+: {type: moving_wall, velocity: [0.1, 0.0]}", "  y+: wall");
  const auto c = kolb::read_case_string(open, "case.yaml");
  EXPECT_EQ(c.faces[0].kind, kolb::FaceKind::velocity_inlet);
  EXPECT_EQ(c.faces[0].profile, kolb::InletProfile::parabolic);
  EXPECT_DOUBLE_EQ(c.faces[0].velocity[1], 0.01);
  EXPECT_EQ(c.faces[1].kind, kolb::FaceKind::pressure_outlet);
  EXPECT_DOUBLE_EQ(c.faces[1].density, 1.01);
  EXPECT_TRUE(c.open(0) && c.open(1) && !c.open(2));
  const auto pulsed = kolb::read_case_string(
      replace(open, "profile: parabolic}", "profile: parabolic, amplitude: 0.25, period: 40.5}"),
      "case.yaml");
  EXPECT_EQ(pulsed.faces[0].amplitude, 0.25);
  EXPECT_EQ(pulsed.faces[0].period, 40.5);
  EXPECT_EQ(c.faces[0].period, 0.0);
  const std::pair<std::string, std::string> bad[] = {
      {"velocity: [0.05, 0.01]", "velocity: [-0.05, 0.01]"},
      {"velocity: [0.05, 0.01]", "velocity: [0.5, 0]"},
      {"density: 1.01", "density: 0"},
      {"pressure_outlet, density", "wall, density"},
      {"  y-: wall", "  y-: pressure_outlet"},
      {"  y-: wall\n  y+: wall", "  y-: periodic\n  y+: periodic"},
      {"  y+: wall", "  y+: {type: moving_wall, velocity: [0.1, 0.0]}"},
      {"  x-: {type: velocity_inlet", "  x-: {type: velocity_inlet, density: 1"},
      {"{type: pressure_outlet, density: 1.01}", "{type: pressure_outlet, profile: uniform}"},
      {"profile: parabolic}", "profile: parabolic, ramp_steps: -3}"},
      {"{type: pressure_outlet, density: 1.01}", "wall"},
      {in, "  x-: velocity_inlet"},
      {"profile: parabolic}", "profile: parabolic, amplitude: 1.5, period: 10}"},
      {"profile: parabolic}", "profile: parabolic, amplitude: 0.5}"},
      {"velocity: [0.05, 0.01], profile: parabolic}",
       "velocity: [0.15, 0], profile: parabolic, amplitude: 0.6, period: 10}"},
      {"density: 1.01}", "density: 1.01, period: 3}"},
  };
  const char* const want[] = {
      "boundaries.x-.velocity: an inlet's velocity must point into the domain (on x- the x "
      "component must be > 0)",
      "boundaries.x-.velocity: speed 0.5 is Mach",
      "boundaries.x+.density: density must be > 0",
      "boundaries.x+.density: only a pressure_outlet has a density",
      "boundaries.y-: open faces x- and y- meet at an edge",
      "boundaries.x-: a parabolic profile vanishes at walls across the inlet",
      "boundaries.x+: an outlet (pressure_outlet) may not meet a moving wall (y+ is one)",
      "boundaries.x-.density: only a pressure_outlet has a density",
      "boundaries.x+.profile: only a velocity_inlet has profile",
      "boundaries.x-.ramp_steps: ramp_steps must be >= 0",
      "boundaries.x-: a velocity_inlet needs a pressure_outlet or an outflow for the fluid to "
      "leave by",
      "boundaries.x-: a velocity_inlet needs a velocity",
      "boundaries.x-.amplitude: amplitude must be <= 1 (the inflow would turn back)",
      "boundaries.x-: missing required key 'period'",
      "boundaries.x-.velocity: peak speed (1 + amplitude) |u| 0.24 is Mach",
      "boundaries.x+.period: only a velocity_inlet has period",
  };
  for (std::size_t k = 0; k < std::size(bad); ++k) {
    const auto e = error_of(replace(open, bad[k].first, bad[k].second));
    EXPECT_NE(e.find(want[k]), std::string::npos) << e;
  }
  // An outflow is an outlet: it lets an inlet's fluid leave, has no
  // density, and meets no moving wall either.
  const std::string outflow = replace(open, "{type: pressure_outlet, density: 1.01}", "outflow");
  const auto o = kolb::read_case_string(outflow, "case.yaml");
  EXPECT_EQ(o.faces[1].kind, kolb::FaceKind::outflow);
  EXPECT_TRUE(o.open(1) && o.outlet(1) && !o.outlet(0));
  auto e = error_of(replace(outflow, "  x+: outflow", "  x+: {type: outflow, density: 1}"));
  EXPECT_NE(e.find("boundaries.x+.density: only a pressure_outlet has a density"),
            std::string::npos)
      << e;
  e = error_of(replace(outflow, "  y+: wall", "  y+: {type: moving_wall, velocity: [0.1, 0.0]}"));
  EXPECT_NE(e.find("boundaries.x+: an outlet (outflow) may not meet a moving wall (y+ is one)"),
            std::string::npos)
      << e;
}

TEST(Config, ForcesTakeTheirReference) {
  // The Reynolds number's U and L are the coefficients' reference; 2-D
  // forces are per site of depth (A = L); `forces` overrides them.
  const std::string body = "obstacles:\n  - {type: cylinder, center: [20, 16], radius: 4}\n";
  const std::string with_body = replace(kValid, "run:", body + "run:");
  auto c = kolb::read_case_string(with_body, "case.yaml");
  EXPECT_TRUE(c.forces.given());
  EXPECT_DOUBLE_EQ(c.forces.velocity, 0.1);
  EXPECT_DOUBLE_EQ(c.forces.area, 64);
  EXPECT_DOUBLE_EQ(c.forces.coefficient(0.32), 2 * 0.32 / (0.01 * 64));
  c = kolb::read_case_string(
      replace(with_body, "run:", "forces: {reference_length: 8, reference_density: 2}\nrun:"),
      "case.yaml");
  EXPECT_DOUBLE_EQ(c.forces.area, 8);
  EXPECT_DOUBLE_EQ(c.forces.density, 2);
  EXPECT_FALSE(kolb::read_case_string(replace(with_body,
                                              "reynolds: 100, reference_velocity: 0.1, "
                                              "reference_length: 64",
                                              "tau: 0.6"),
                                      "case.yaml")
                   .forces.given());
  auto e = error_of(replace(kValid, "run:", "forces: {reference_velocity: 0.1}\nrun:"));
  EXPECT_NE(e.find("forces: forces are those on obstacles, and the case has none"),
            std::string::npos)
      << e;
  e = error_of(replace(with_body, "run:", "forces: {reference_area: 8}\nrun:"));
  EXPECT_NE(e.find("forces.reference_area: 2-D forces are per site of depth"), std::string::npos)
      << e;
  e = error_of(replace(with_body, "run:", "forces: {reference_lenght: 8}\nrun:"));
  EXPECT_NE(e.find("forces.reference_lenght"), std::string::npos) << e;
}

TEST(Config, OverrideErrorsNameTheOverride) {
  // Overriding the relaxation one way replaces the file's other way.
  EXPECT_DOUBLE_EQ(kolb::read_case_string(kValid, "case.yaml", {"physics.tau=0.6"}).tau, 0.6);
  auto e = error_of(kValid, {"physics.tau=0.4"});
  EXPECT_NE(e.find("--set physics.tau=0.4: physics.tau: tau = 0.4 must be > 0.5"),
            std::string::npos)
      << e;
  e = error_of(kValid, {"run.steps=-1"});
  EXPECT_NE(e.find("--set run.steps=-1: run.steps: steps must be >= 0"), std::string::npos) << e;
  e = error_of(kValid, {"run.steps"});
  EXPECT_NE(e.find("expected key=value"), std::string::npos) << e;
}

}  // namespace

namespace {

const std::string kThermal = R"(lattice: D2Q37
domain: {size: [32, 40]}
physics: {collision: regularized, relaxation_constants: [0.001, 0.002, 0.5], gravity: [0, -1.0e-4]}
boundaries:
  x-: periodic
  x+: periodic
  y-: {type: wall, temperature: 1.05}
  y+: wall
initial: {type: rayleigh_taylor, interface_width: 4, seed: 3}
run: {steps: 10}
output: {folder: out/t}
)";

TEST(ConfigD2Q37, ValidThermalCase) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q37", "double");
  const auto c = kolb::read_case_string(kThermal);
  EXPECT_EQ(c.lattice, kolb::LatticeId::D2Q37);
  EXPECT_EQ(c.dim, 2);
  EXPECT_EQ(c.collision, kolb::Collision::regularized);
  EXPECT_DOUBLE_EQ(c.thermal.tau_const[0], 0.5);
  EXPECT_DOUBLE_EQ(c.thermal.tau_per_pressure[1], 0.002);
  EXPECT_DOUBLE_EQ(c.thermal.tau_const[2], 1.0);
  EXPECT_DOUBLE_EQ(c.body_force[1], -1.0e-4);
  EXPECT_DOUBLE_EQ(c.faces[2].temperature, 1.05);
  EXPECT_TRUE(std::isnan(c.faces[3].temperature));  // adiabatic
  EXPECT_EQ(c.initial.kind, kolb::InitialCondition::Kind::rayleigh_taylor);
  EXPECT_DOUBLE_EQ(c.initial.amplitude, 8.0);  // default 2 epsilon
  EXPECT_EQ(c.initial.seed, 3u);
  const auto b = kolb::read_case_string(
      kThermal, "case.yaml",
      {"physics.collision=bgk", "physics.tau=0.7", "physics.relaxation_constants=~"});
  EXPECT_DOUBLE_EQ(b.thermal.tau_const[1], 0.7);
}

TEST(ConfigD2Q37, BadThermalInputNamesTheKey) {
  const std::string rc = "relaxation_constants: [0.001, 0.002, 0.5]";
  auto e = error_of(replace(kThermal, "collision: regularized", "collision: bgk"));
  EXPECT_NE(e.find("physics.relaxation_constants: relaxation_constants go with collision: "
                   "regularized"),
            std::string::npos)
      << e;
  e = error_of(replace(kThermal, rc, "tau: [0.8, 0.6]"));
  EXPECT_NE(e.find("physics.tau"), std::string::npos) << e;
  e = error_of(replace(kThermal, rc, rc + ", smagorinsky: 0.1"));
  EXPECT_NE(e.find("physics.smagorinsky"), std::string::npos) << e;
  e = error_of(replace(kThermal, rc, "tau: [0.8, 0.5, 1.0]"));
  EXPECT_NE(e.find("must be > 0.5"), std::string::npos) << e;
  e = error_of(replace(kThermal, rc + ", ", ""));
  EXPECT_NE(e.find("needs exactly one of"), std::string::npos) << e;
  e = error_of(replace(kThermal, "gravity", "body_force"));
  EXPECT_NE(e.find("physics.body_force: unknown key 'body_force' (allowed here: collision, tau, "
                   "relaxation_constants, gravity)"),
            std::string::npos)
      << e;
  e = error_of(replace(kThermal, "temperature: 1.05}", "temperature: -1}"));
  EXPECT_NE(e.find("boundaries.y-.temperature: temperature must be > 0"), std::string::npos) << e;
  e = error_of(replace(kThermal, "  x-: periodic\n  x+: periodic", "  x-: wall\n  x+: wall"));
  EXPECT_NE(e.find("D2Q37 is periodic in x"), std::string::npos) << e;
  e = error_of(replace(kThermal, "  y+: wall", "  y+: {type: moving_wall, velocity: [0.1, 0]}"));
  EXPECT_NE(e.find("boundaries.y+: D2Q37 has resting thermal walls only"), std::string::npos) << e;
  e = error_of(replace(kThermal, "  y+: wall", "  y+: moving_wall"));
  EXPECT_NE(e.find("boundaries.y+: D2Q37 has resting thermal walls only"), std::string::npos) << e;
  e = error_of(replace(kThermal, "  y+: wall", "  y+: pressure_outlet"));
  EXPECT_NE(e.find("boundaries.y+: D2Q37 has resting thermal walls only"), std::string::npos) << e;
  e = error_of(replace(kThermal, "size: [32, 40]", "size: [32, 7]"));
  EXPECT_NE(e.find("at least 8 rows"), std::string::npos) << e;
  e = error_of(kThermal + "obstacles: [{type: box, min: [1, 1], max: [2, 2]}]\n");
  EXPECT_NE(e.find("obstacles: D2Q37 runs without obstacles"), std::string::npos) << e;
  e = error_of(kThermal + "execution: {streaming: aa}\n");
  EXPECT_NE(e.find("execution.streaming: D2Q37 runs the two_buffer streaming scheme only"),
            std::string::npos)
      << e;
  e = error_of(replace(kThermal, "{type: rayleigh_taylor, interface_width: 4, seed: 3}",
                       "{type: temperature_wave, amplitude: 0.1, wave: y}"));
  EXPECT_NE(e.find("needs periodic boundaries along y"), std::string::npos) << e;
  e = error_of(replace(kThermal, "{type: rayleigh_taylor, interface_width: 4, seed: 3}",
                       "{type: temperature_wave, amplitude: 0.6, wave: x}"));
  EXPECT_NE(e.find("initial.amplitude: a temperature wave's relative amplitude must be below 0.5"),
            std::string::npos)
      << e;
  e = error_of(replace(kThermal, "  y-: {type: wall, temperature: 1.05}\n  y+: wall",
                       "  y-: periodic\n  y+: periodic"));
  EXPECT_NE(e.find("rayleigh_taylor needs walls on y- and y+"), std::string::npos) << e;
  e = error_of(replace(kThermal, "interface_width: 4", "interface_width: 0"));
  EXPECT_NE(e.find("initial.interface_width: interface_width must be > 0"), std::string::npos) << e;
}

}  // namespace

// A variant or collision this build lacks is named at the key that would
// change it, with what the build has instead. Each check runs where the
// build lacks that variant (ci/test.sh's build lacks all three).
TEST(Config, UncompiledVariantNamesTheKeyToChange) {
  using kolb::LatticeId;
  using kolb::Precision;
  const kolb::LayoutId aos{kolb::LayoutKind::aos, 1}, soa{kolb::LayoutKind::soa, 1};
  int checked = 0;
  if (kolb::variant_compiled({LatticeId::D2Q9, Precision::fp16, soa}) &&
      !kolb::variant_compiled({LatticeId::D2Q9, Precision::fp16, aos})) {
    const auto e = error_of(kValid, {"precision=fp16", "execution.layout=aos"});
    EXPECT_NE(e.find("execution.layout: D2Q9/fp16/aos is not compiled"), std::string::npos) << e;
    EXPECT_NE(e.find("picks one of: soa"), std::string::npos) << e;
    ++checked;
  }
  if (kolb::variant_compiled({LatticeId::D2Q37, Precision::float64, soa}) &&
      !kolb::test::compiled("D2Q37", "float")) {
    const auto e = error_of(kThermal, {"precision=float"});
    EXPECT_NE(e.find("precision: D2Q37/float/soa is not compiled"), std::string::npos) << e;
    ++checked;
  }
  const auto bgk_only = kolb::compiled_collisions({LatticeId::D2Q9, Precision::float64, aos});
  if (!bgk_only.empty() &&
      std::find(bgk_only.begin(), bgk_only.end(), kolb::Collision::trt) == bgk_only.end()) {
    const auto e = error_of(kValid, {"physics.collision=trt", "execution.layout=aos"});
    EXPECT_NE(e.find("physics.collision: D2Q9/double/aos is compiled without the trt"),
              std::string::npos)
        << e;
    const auto les = error_of(kValid, {"physics.smagorinsky=0.1", "execution.layout=aos"});
    EXPECT_NE(les.find("physics.smagorinsky: D2Q9/double/aos is compiled without the trt "
                       "collision, which runs the LES"),
              std::string::npos)
        << les;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "this build compiles every variant the checks use";
}
