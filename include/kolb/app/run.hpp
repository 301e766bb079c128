#pragma once
// run_case(): the time loop of `kolb run` with its outputs: observables CSV,
// VTK snapshots (+ .pvd time series), a JSON run report and a progress line.

#include <kolb/io/case.hpp>

#include <iosfwd>
#include <stdexcept>

namespace kolb {

// The simulation diverged (NaN or a speed beyond the lattice's limit). Data
// written up to that point stays on disk.
class InstabilityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunSummary {
  std::int64_t steps = 0;
  double seconds = 0;  // time spent in the solver (excludes output)
  double mlups = 0;    // million lattice-site updates per second (all sites)
  double mflups = 0;   // the same, fluid sites only
  std::string report;  // path of the JSON report
};

// `progress` receives the progress line (nullptr: silent).
RunSummary run_case(const Case& c, std::ostream* progress);

}  // namespace kolb
