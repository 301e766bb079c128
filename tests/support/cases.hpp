#pragma once
// Helpers for tests: cases written as YAML text, run in memory.

#include <kolb/domain/domain.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace kolb::test {

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

}  // namespace kolb::test
