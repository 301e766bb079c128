// Forces on bodies by momentum exchange (boundary/body_forces.hpp).
//  - Over one step, the momentum a control volume around a body gains
//    equals what flows in across its surface, less what flows out, less
//    the force on the body: M(t+1) = M(t) + In - Out - F, exactly (the
//    collision keeps each site's momentum). The populations before and
//    after the step give In, Out and M independently of how kolb sums the
//    links, so F must match to round-off. Two bodies, each its own volume;
//    both streaming schemes, after even and odd steps (the in-place state
//    read back either way), one part or a node of several.
//  - In place, after even and odd steps, the forces are the two buffers'
//    bit for bit in every storage precision, and so is the flow.
//  - Both with half-way and with interpolated walls (boundary/
//    interpolated_bounce.hpp; the box's faces then between sites).
//  - The lift's frequency: the upward crossings of a sampled sine.
#include "support/cases.hpp"

#include <kolb/app/force_series.hpp>
#include <kolb/lattice/lattices.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace {

// A box of sites [lo, hi) per axis.
struct Volume {
  std::array<int, 3> lo, hi;
  bool contains(int x, int y, int z) const {
    return x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2];
  }
};

// F = M(t) - M(t+1) + In - Out over volume v, from the post-collision
// populations `before` (step t) and `after` (step t+1) of the whole
// lattice (size n). The volume lies in the fluid, away from walls and faces,
// around one body: links leaving it end in fluid or in that body.
template <class Lattice>
std::array<double, 3> balance(const std::vector<double>& before, const std::vector<double>& after,
                              const std::array<int, 3>& n, const std::vector<kolb::material_t>& mat,
                              const Volume& v) {
  std::array<double, 3> f{0, 0, 0};
  const auto at = [&](int x, int y, int z) { return (std::size_t(z) * n[1] + y) * n[0] + x; };
  for (int z = v.lo[2] - 1; z <= v.hi[2]; ++z)
    for (int y = v.lo[1] - 1; y <= v.hi[1]; ++y)
      for (int x = v.lo[0] - 1; x <= v.hi[0]; ++x) {
        if (Lattice::dim == 2 && z != 0) continue;
        const std::size_t s = at(x, y, z);
        if (mat[s] != kolb::kFluid) continue;
        const bool in = v.contains(x, y, z);
        for (int i = 0; i < Lattice::q; ++i) {
          const int to[3] = {x + Lattice::c(i, 0), y + Lattice::c(i, 1), z + Lattice::c(i, 2)};
          const bool to_in = v.contains(to[0], to[1], to[2]);
          const bool to_fluid = mat[at(to[0], to[1], to[2])] == kolb::kFluid;
          double w = 0;
          if (in) w += before[s * Lattice::q + i] - after[s * Lattice::q + i];  // M(t) - M(t+1)
          if (!in && to_in) w += before[s * Lattice::q + i];                    // In
          if (in && !to_in && to_fluid) w -= before[s * Lattice::q + i];        // Out
          for (int a = 0; a < Lattice::dim; ++a) f[std::size_t(a)] += w * Lattice::c(i, a);
        }
      }
  return f;
}

// A channel fed through a ramped inlet: the flow is still starting, so
// every step is unsteady. Two bodies off the mid-line, both lifted.
// `wall: bouzidi`: the bodies' walls interpolated, the box's faces between
// sites.
std::string channel_with_bodies(const std::string& lattice, bool d3,
                                const std::string& precision = "double",
                                const std::string& wall = "halfway") {
  const bool curved = wall == "bouzidi";
  const std::string w = ", wall: " + wall + "}\n";
  return "lattice: " + lattice + "\nprecision: " + precision +
         "\ndomain: {size: " + (d3 ? "[40, 17, 15]" : "[64, 21]") +
         "}\nphysics: {tau: 0.6}\nboundaries: {x-: {type: velocity_inlet, velocity: " +
         (d3 ? "[0.05, 0, 0]" : "[0.05, 0]") +
         ", profile: parabolic, ramp_steps: 30}, x+: pressure_outlet, y-: wall, y+: wall" +
         (d3 ? ", z-: wall, z+: wall" : "") + "}\nobstacles:\n" +
         (d3 ? "  - {type: sphere, center: [12, 8, 7.3], radius: 3.2" + w +
                   (curved ? "  - {type: box, min: [25.3, 4.2, 5.6], max: [27.8, 9.4, 8.7]"
                           : "  - {type: box, min: [25, 4, 5], max: [28, 9, 9]") +
                   w
             : "  - {type: cylinder, center: [16, 10.3], radius: 3.6" + w +
                   (curved ? "  - {type: box, min: [40.3, 6.2], max: [43.6, 9.8]"
                           : "  - {type: box, min: [40, 6], max: [44, 10]") +
                   w) +
         "run: {steps: 0}\noutput: {folder: unused}\n";
}

template <class Lattice>
void check_balance(const std::string& lattice, const std::string& wall) {
  const bool d3 = Lattice::dim == 3;
  const std::string yaml = channel_with_bodies(lattice, d3, "double", wall);
  const std::vector<Volume> volumes =
      d3 ? std::vector<Volume>{{{7, 3, 2}, {18, 14, 13}}, {{22, 2, 3}, {31, 12, 12}}}
         : std::vector<Volume>{{{10, 4, 0}, {23, 17, 1}}, {{36, 3, 0}, {49, 14, 1}}};
  for (const std::string scheme : {"two_buffer", "aa"})
    for (const std::string split : {"", "execution.host_columns=6"})
      for (const int steps : {120, 121}) {
        std::vector<std::string> sets = {"execution.streaming=" + scheme};
        if (!split.empty()) sets.push_back(split);
        auto sim = kolb::make_domain(kolb::test::make_case(yaml, sets));
        sim->advance(steps);
        // The forces read the block as the step left it (after 121 steps
        // in place: the state a pull leaves); M and the fluxes come from
        // populations(), its post-collision copy.
        const auto forces = sim->body_forces();
        const auto before = sim->populations();
        const auto mat = sim->fields().material;
        sim->advance(1);
        const auto after = sim->populations();
        ASSERT_EQ(forces.size(), 2u);
        const std::array<int, 3> n = {sim->fields().n[0], sim->fields().n[1], sim->fields().n[2]};
        for (std::size_t b = 0; b < 2; ++b) {
          const auto want = balance<Lattice>(before, after, n, mat, volumes[b]);
          const std::string where = lattice + " " + wall + " " + scheme + " " + split + " after " +
                                    std::to_string(steps) + " steps, body " + std::to_string(b);
          EXPECT_GT(forces[b][0], 1e-4) << where << ": the drag pushes the body downstream";
          for (int a = 0; a < Lattice::dim; ++a)
            EXPECT_NEAR(forces[b][std::size_t(a)], want[std::size_t(a)], 1e-12)
                << where << ", axis " << a;
        }
      }
}

TEST(BodyForce, EqualsTheControlVolumeBalanceD2Q9) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  check_balance<kolb::D2Q9>("D2Q9", "halfway");
  check_balance<kolb::D2Q9>("D2Q9", "bouzidi");
}

TEST(BodyForce, EqualsTheControlVolumeBalanceD3Q19) {
  KOLB_SKIP_UNLESS_COMPILED("D3Q19", "double");
  check_balance<kolb::D3Q19>("D3Q19", "halfway");
  check_balance<kolb::D3Q19>("D3Q19", "bouzidi");
}

// In place, the forces read the buffer as either step of a pair leaves it
// (populations swapped, or as a pull pushed them): bit for bit the two
// buffers' in every storage (16-bit: the bounce keeps the bits).
TEST(BodyForce, InPlaceEqualsTwoBuffersInEveryPrecision) {
  int compiled = 0;
  for (const std::string precision : {"double", "float", "fp16"}) {
    if (!kolb::test::compiled("D2Q9", precision)) continue;
    ++compiled;
    for (const std::string wall : {"halfway", "bouzidi"}) {
      const std::string yaml = channel_with_bodies("D2Q9", false, precision, wall);
      auto two = kolb::make_domain(kolb::test::make_case(yaml, {"execution.streaming=two_buffer"}));
      auto aa = kolb::make_domain(kolb::test::make_case(yaml, {"execution.streaming=aa"}));
      // In place on a node of parts too: what a pull pushed across a part
      // border is read from the halo it landed in (the parts' sums add up
      // in another order).
      auto parts = kolb::make_domain(
          kolb::test::make_case(yaml, {"execution.streaming=aa", "execution.host_columns=6"}));
      for (const int steps : {120, 1}) {  // after 120 steps, then 121
        two->advance(steps);
        aa->advance(steps);
        parts->advance(steps);
        const auto a = two->body_forces(), b = aa->body_forces(), c = parts->body_forces();
        const std::string where =
            precision + " " + wall + " step " + std::to_string(two->step()) + " body ";
        for (std::size_t k = 0; k < 2; ++k)
          for (std::size_t d = 0; d < 2; ++d) {
            EXPECT_EQ(a[k][d], b[k][d]) << where << k;
            EXPECT_NEAR(a[k][d], c[k][d], 1e-12) << where << k << ", parts";
          }
        EXPECT_GT(a[0][0], 0.0);
        // The flow itself, bit for bit.
        const auto pa = two->populations(), pb = aa->populations(), pc = parts->populations();
        EXPECT_EQ(kolb::test::first_difference(pa, pb), pa.size()) << where;
        EXPECT_EQ(kolb::test::first_difference(pa, pc), pa.size()) << where << "(parts)";
      }
    }
  }
  if (compiled == 0) GTEST_SKIP() << "D2Q9 not compiled";
}

TEST(ForceSeries, FindsTheFrequencyOfASampledSine) {
  std::vector<double> steps, lift, flat;
  const double f = 1.0 / 731;  // steps per period not a multiple of the sampling
  for (int k = 0; k < 400; ++k) {
    steps.push_back(50.0 * k);
    lift.push_back(0.3 + 0.9 * std::sin(2 * M_PI * f * steps.back() + 0.4));
    flat.push_back(0.3);
  }
  EXPECT_NEAR(kolb::crossing_frequency(steps, lift, 0.3), f, 1e-3 * f);
  EXPECT_TRUE(std::isnan(kolb::crossing_frequency(steps, flat, 0.3)));
}

// A restart resumes forces.csv's rows: its report is the straight run's,
// even at another cadence after the restart (the second half is of the
// steps, each row weighing the steps since the one before), and a row cut
// short by a crash (within its step: forces.csv keeps it) is left out.
TEST(ForceSeries, ARestartReportsTheWholeRun) {
  const kolb::Case c = kolb::test::make_case(R"(
lattice: D2Q9
domain: {size: [40, 20]}
physics: {tau: 0.8}
boundaries: {x-: periodic, x+: periodic, y-: wall, y+: wall}
obstacles: [{type: sphere, center: [12, 9], radius: 4}]
forces: {reference_velocity: 0.01, reference_length: 8}
run: {steps: 8000}
output: {folder: unused}
)");
  const auto force = [](double step) {
    const double t = 2 * M_PI * step / 700;
    return std::vector<std::array<double, 3>>{
        {3e-4 + 1e-5 * std::sin(2 * t), 1e-4 * std::sin(t + 0.3) + 1e-6 * step / 1000, 0}};
  };
  // Straight: every 10 steps to 8000. Restarted at 5000 with rows every
  // 2 steps after it, and the last row cut within its step ("50" of 5010).
  kolb::ForceSeries straight(c), first(c);
  std::string csv = "step" + first.header() + "\n";
  for (int s = 0; s <= 8000; s += 10) straight.row(s, force(s));
  for (int s = 0; s <= 5000; s += 10) csv += std::to_string(s) + first.row(s, force(s)) + "\n";
  kolb::ForceSeries resumed(c), dense(c);
  resumed.resume(csv + "50");
  for (int s = 5010; s <= 8000; s += 10) resumed.row(s, force(s));
  dense.resume(csv);
  for (int s = 5002; s <= 8000; s += 2) dense.row(s, force(s));
  const auto a = straight.report()[0], b = resumed.report()[0], d = dense.report()[0];
  EXPECT_EQ(b.dump(), a.dump());
  EXPECT_EQ(a["second_half"]["from_step"], 4000);
  EXPECT_EQ(d["second_half"]["from_step"], 4000);
  // Five times the rows after the restart: the mean still weighs the steps.
  for (const char* key : {"c_D_mean", "c_L_mean", "c_D_max", "c_L_max", "c_L_min"})
    EXPECT_NEAR(d["second_half"][key].get<double>(), a["second_half"][key].get<double>(), 5e-4)
        << key;
  EXPECT_NEAR(d["strouhal"].get<double>(), a["strouhal"].get<double>(),
              1e-3 * a["strouhal"].get<double>());
}

}  // namespace
