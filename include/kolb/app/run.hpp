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

// The run was stopped by SIGINT or SIGTERM after writing a checkpoint and
// its outputs; the exit code is 128 + the signal, as for a shell.
class Interrupted : public std::runtime_error {
 public:
  Interrupted(int signal, const std::string& what) : std::runtime_error(what), m_signal(signal) {}
  int signal() const { return m_signal; }

 private:
  int m_signal;
};

struct RunSummary {
  std::int64_t steps = 0;    // steps advanced by this run (after a restart: since it)
  double loop_seconds = 0;   // wall time of the whole time loop (steps, outputs, checks)
  double seconds = 0;        // of it, time spent advancing the lattice
  double check_seconds = 0;  // of it, stability checks and observables rows (reductions)
  double force_seconds = 0;  // of it, the forces on obstacles (forces.csv rows)
  double vtk_seconds = 0;    // of it, VTK snapshots (fields gathered and written)
  double mlups = 0;          // million lattice-site updates per second of the loop (all sites)
  double mflups = 0;         // the same, fluid sites only
  double solver_mlups = 0;   // million updates per second of the steps alone
  std::string report;        // path of the JSON report
  std::string status;        // "completed" or "steady" (run.until_steady met)
};

// `progress` receives the progress line (nullptr: silent). `restart`: a
// checkpoint (or a run folder holding some) to continue from; the outputs
// already in the output folder are kept up to its step and continued.
RunSummary run_case(const Case& c, std::ostream* progress, const std::string& restart = "");

}  // namespace kolb
