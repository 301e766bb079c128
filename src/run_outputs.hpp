#pragma once
// RunOutputs: the files of a run in its output folder (internal to src/,
// run.cpp's loop writes through it): observables.csv, forces.csv, VTK snapshots with
// their .pvd index, and report.json. Every file is complete on disk as soon
// as it is written, so a failing run keeps what it wrote. Under MPI rank 0
// writes all but the snapshots' pieces, which every rank writes.

#include <kolb/app/force_series.hpp>
#include <kolb/app/run.hpp>
#include <kolb/domain/domain.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

class RunOutputs {
 public:
  // `restart_step` >= 0: continue the files of an earlier run in the folder,
  // keeping what it wrote up to that step.
  RunOutputs(const Case& c, Domain& domain, nlohmann::json tuning, std::int64_t restart_step = -1);

  std::string report_path() const { return m_dir + "report.json"; }
  // A row of observables.csv: the lattice's sums.
  void observables(std::int64_t step, const ObservableSums& o);
  // A row of forces.csv (cases with obstacles): the force on each.
  void forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces);
  // The fields of the domain's step as a VTK snapshot, listed in fields.pvd.
  void snapshot();
  // report.json: the configuration, the execution, the speed and the last
  // observables, the forces on the obstacles (and forces.png beside it);
  // `error` is empty unless the run failed.
  void report(const std::string& status, const std::string& error, const RunSummary& summary,
              const ObservableSums& last, double fluid_sites) const;
  // Facts about the time loop for the report's "run" section (restart,
  // checkpoints, steady state, re-balancing).
  nlohmann::json& run_notes() { return m_run; }

 private:
  const Case& m_case;
  Domain& m_domain;
  std::string m_dir;
  nlohmann::json m_tuning;
  bool m_thermal;
  bool m_root;
  std::ofstream m_csv, m_forces_csv;  // observables.csv, forces.csv
  ForceSeries m_forces;
  std::vector<std::pair<std::int64_t, std::string>> m_snapshots;
  HostFields m_fields;  // one snapshot's, kept: its memory serves the next
  nlohmann::json m_run = nlohmann::json::object();
};

}  // namespace kolb
