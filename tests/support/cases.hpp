#pragma once
// Helpers for tests: cases written as YAML text, run in memory.

#include <kolb/app/input.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/model/lattice_info.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace kolb::test {

// The dimension of a lattice named in YAML ("D3Q19": 3).
inline int dim_of(const std::string& lattice) {
  return lattice_info(*parse<LatticeId>(lattice)).dim;
}

// Whether this build compiles `lattice` in `precision` (a build may hold a
// subset: KOLB_LATTICES, KOLB_PRECISIONS); tests of the others skip.
inline bool compiled(const std::string& lattice, const std::string& precision) {
  for (const auto& v : compiled_variants())
    if (to_string(v.lattice) == lattice && to_string(v.precision) == precision) return true;
  return false;
}
// Those of `lattices` this build compiles in double: loops over lattices
// skip the others.
inline std::vector<std::string> compiled_of(const std::vector<std::string>& lattices) {
  std::vector<std::string> out;
  for (const auto& l : lattices)
    if (compiled(l, "double")) out.push_back(l);
  return out;
}
// Whether this build compiles `lattice` in any precision.
inline bool compiled(LatticeId lattice) {
  for (const auto& v : compiled_variants())
    if (v.lattice == lattice) return true;
  return false;
}
#define KOLB_SKIP_UNLESS_COMPILED(lattice, precision)                           \
  do {                                                                          \
    if (!kolb::test::compiled(lattice, precision))                              \
      GTEST_SKIP() << (lattice) << " in " << (precision) << " is not compiled"; \
  } while (0)

// A case from YAML text plus --set style overrides.
inline Case make_case(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return read_case_string(yaml, "test.yaml", sets);
}

// Runs until the largest velocity change over `check_every` steps falls
// below `tol` (relative to the largest speed) or `max_steps` is reached.
// Returns the number of steps taken.
inline std::int64_t run_to_steady(Domain& sim, double tol, std::int64_t check_every,
                                  std::int64_t max_steps) {
  HostFields prev = sim.fields();
  while (sim.step() < max_steps) {
    sim.advance(check_every);
    HostFields cur = sim.fields();
    double change = 0, scale = 0;
    for (std::size_t k = 0; k < cur.u.size(); ++k) {
      change = std::max(change, std::abs(cur.u[k] - prev.u[k]));
      scale = std::max(scale, std::abs(cur.u[k]));
    }
    if (change <= tol * scale) break;
    prev = std::move(cur);
  }
  return sim.step();
}

// A channel or box with a resting wall at y-, a moving lid at y+, walls or
// periodic ends along x (periodic z in 3-D), a body force and the given
// `size` and `obstacles` (YAML text): the case the split and tiling
// invariance tests cut into parts.
inline std::string lid_case(const std::string& lattice, bool periodic_x, const std::string& size,
                            const std::string& obstacles) {
  const bool d3 = dim_of(lattice) == 3;
  const std::string x = periodic_x ? "x-: periodic, x+: periodic, " : "x-: wall, x+: wall, ";
  return "lattice: " + lattice + "\nprecision: double\ndomain: {size: " + size +
         "}\nphysics: {tau: 0.7, body_force: " + (d3 ? "[1.0e-5, 0, 2.0e-6]" : "[1.0e-5, 3.0e-6]") +
         "}\nboundaries: {" + x + "y-: wall, y+: {type: moving_wall, velocity: " +
         (d3 ? "[0.05, 0, 0.02]}, z-: periodic, z+: periodic}" : "[0.05, 0]}}") +
         "\nobstacles: " + obstacles + "\ninitial: " +
         (periodic_x ? "{type: shear_wave, amplitude: 0.02, flow: y, wave: x}"
                     : "{type: uniform, velocity: " +
                           std::string(d3 ? "[0.02, 0.01, -0.01]}" : "[0.02, 0.01]}")) +
         "\nrun: {steps: 0}\noutput: {folder: unused}\n";
}

// D2Q37 between thermal walls (adiabatic y-, fixed T on y+), gravity, a
// regularised collision and a Rayleigh-Taylor interface, `nx` x `ny` sites:
// the thermal case the split, tiling and restart tests cut into pieces.
inline std::string thermal_case(int nx, int ny) {
  return "lattice: D2Q37\ndomain: {size: [" + std::to_string(nx) + ", " + std::to_string(ny) +
         "]}\nphysics: {collision: regularized, relaxation_constants: [0.05, 0.05, 0.5], "
         "gravity: [0, -1.0e-3]}\nboundaries: {x-: periodic, x+: periodic, y-: wall, "
         "y+: {type: wall, temperature: 0.9}}\ninitial: {type: rayleigh_taylor, "
         "temperature_bottom: 1.1, temperature_top: 0.9, interface_width: 2, amplitude: 2, "
         "seed: 9}\nrun: {steps: 0}\noutput: {folder: unused}\n";
}

// Index of the first population that differs in any bit, or size().
inline std::size_t first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::memcmp(&a[k], &b[k], sizeof(double)) != 0) return k;
  return a.size();
}

}  // namespace kolb::test
