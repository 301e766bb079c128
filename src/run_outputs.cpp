// RunOutputs (run_outputs.hpp): observables.csv, forces.csv, the VTK snapshots and
// their .pvd index, report.json.

#include "run_outputs.hpp"

#include <kolb/comm/communicator.hpp>
#include <kolb/config.hpp>
#include <kolb/core/wait_policy.hpp>
#include <kolb/io/face_names.hpp>
#include <kolb/io/vtk.hpp>
#include <kolb/model/lattice_info.hpp>

#include <yaml-cpp/yaml.h>

#include "output_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <stdexcept>

namespace kolb {

namespace {

nlohmann::json to_json(const YAML::Node& n) {
  if (n.IsMap()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& kv : n) j[kv.first.as<std::string>()] = to_json(kv.second);
    return j;
  }
  if (n.IsSequence()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& v : n) j.push_back(to_json(v));
    return j;
  }
  if (n.IsScalar()) {
    const std::string s = n.Scalar();
    char* end = nullptr;
    const long long i = std::strtoll(s.c_str(), &end, 10);  // integers stay integers
    if (!s.empty() && end && *end == '\0') return i;
    const double d = std::strtod(s.c_str(), &end);
    if (!s.empty() && end && *end == '\0') return d;
    if (s == "true" || s == "false") return s == "true";
    return s;
  }
  return nullptr;
}

// A step plan as JSON: per phase its kernel and who fills, and (in place)
// where the pushes into, each halo.
nlohmann::json plan_json(const StepPlan& plan) {
  nlohmann::json phases = nlohmann::json::array();
  for (int k = 0; k < plan.phases; ++k) {
    const PhasePlan& p = plan.phase[k];
    nlohmann::json fill = nlohmann::json::object(), push = nlohmann::json::object();
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        if (p.fill[a][side] != HaloFill::unread)
          fill[face_name(2 * a + side)] = to_string(p.fill[a][side]);
        if (p.push[a][side] != PushTo::none)
          push[face_name(2 * a + side)] = to_string(p.push[a][side]);
      }
    nlohmann::json j = {{"kernel", to_string(p.kernel)}, {"zoned", p.zoned}, {"halos", fill}};
    if (p.kernel == PhaseKernel::aa_pull) j["pushed"] = push;
    if (p.kernel == PhaseKernel::stream_collide || p.lanes[0] != EndLane::halo ||
        p.lanes[1] != EndLane::halo)
      j["end_lanes"] = {to_string(p.lanes[0]), to_string(p.lanes[1])};
    if (p.kernel == PhaseKernel::aa_local) j["row_halos"] = to_string(p.row_halos);
    if (p.model_wall_rows) j["model_wall_rows"] = true;
    phases.push_back(j);
  }
  return {{"rows", to_string(plan.storage)}, {"phases", phases}};
}

// The snapshots a fields.pvd lists up to `last_step` (none if it is absent).
std::vector<std::pair<std::int64_t, std::string>> read_pvd(const std::string& path,
                                                           std::int64_t last_step) {
  std::vector<std::pair<std::int64_t, std::string>> entries;
  std::ifstream in(path);
  // Lines as write_pvd writes them: <DataSet timestep="N" file="F"/>
  const std::string ts = "timestep=\"", fi = "file=\"";
  for (std::string line; std::getline(in, line);) {
    const auto t = line.find(ts), f = line.find(fi);
    if (t == std::string::npos || f == std::string::npos) continue;
    const std::int64_t step = std::strtoll(line.c_str() + t + ts.size(), nullptr, 10);
    const auto end = line.find('"', f + fi.size());
    if (step <= last_step && end != std::string::npos)
      entries.emplace_back(step, line.substr(f + fi.size(), end - f - fi.size()));
  }
  return entries;
}

// What a CSV at `path` starts with under `header` (ending in a newline):
// the header alone, or on a restart (`restart_step` >= 0) the earlier run's
// rows up to that step under it. Rows of other columns (the forces'
// reference added or removed, another kolb) would not line up: refused.
std::string kept_rows(const std::string& path, const std::string& header,
                      std::int64_t restart_step) {
  std::string kept = header;
  if (restart_step < 0) return kept;
  std::ifstream in(path);
  std::string line;
  for (bool first = true; std::getline(in, line); first = false) {
    if (first && line + "\n" != header)
      throw std::runtime_error(path + ": its columns (" + line + ") are not this run's (" +
                               header.substr(0, header.size() - 1) +
                               "): restart with the sections it was written with, or into a "
                               "copy of the folder without this file");
    if (!first && !line.empty() && std::strtoll(line.c_str(), nullptr, 10) <= restart_step)
      kept += line + "\n";
  }
  return kept;
}

// `path` rewritten to `kept` and opened to append rows.
std::ofstream append_to(const std::string& path, const std::string& kept) {
  write_atomically(path, kept);
  std::ofstream out(path, std::ios::app);
  if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  return out;
}

// Ends a row of `file` in `out`, on disk at once: a crash or an instability
// must not lose written rows.
void end_row(std::ofstream& out, const std::string& file) {
  out << '\n';
  out.flush();
  if (!out)
    throw std::runtime_error("cannot write " + file + ": " +
                             (errno ? std::strerror(errno) : "write failed"));
}

}  // namespace

RunOutputs::RunOutputs(const Case& c, Domain& domain, nlohmann::json tuning,
                       std::int64_t restart_step)
    : m_case(c),
      m_domain(domain),
      m_dir(c.output.folder + "/"),
      m_tuning(std::move(tuning)),
      m_thermal(lattice_info(c.lattice).has_temperature),
      m_root(comm::root()),
      m_forces(c) {
  if (!m_root) return;
  // Both checked before either changes: a refused restart keeps them as they were.
  const std::string observables =
      kept_rows(m_dir + "observables.csv",
                std::string("step,mass,momentum_x,momentum_y,momentum_z,kinetic_energy,mean_speed,"
                            "max_speed") +
                    (m_thermal ? ",internal_energy" : "") + "\n",
                restart_step);
  const std::string forces =
      m_forces.empty()
          ? ""
          : kept_rows(m_dir + "forces.csv", "step" + m_forces.header() + "\n", restart_step);
  m_csv = append_to(m_dir + "observables.csv", observables);
  if (!m_forces.empty()) {
    m_forces_csv = append_to(m_dir + "forces.csv", forces);
    if (restart_step >= 0) m_forces.resume(forces);  // the report covers the whole run
  }
  if (restart_step >= 0) m_snapshots = read_pvd(m_dir + "fields.pvd", restart_step);
}

void RunOutputs::observables(std::int64_t step, const ObservableSums& o) {
  if (!m_root) return;
  m_csv << step << std::setprecision(17) << ',' << o.mass << ',' << o.momentum[0] << ','
        << o.momentum[1] << ',' << o.momentum[2] << ',' << o.kinetic_energy << ',' << o.mean_speed()
        << ',' << o.max_speed;
  if (m_thermal) m_csv << ',' << o.internal_energy;
  end_row(m_csv, m_dir + "observables.csv");
}

void RunOutputs::forces(std::int64_t step, const std::vector<std::array<double, 3>>& forces) {
  if (!m_root || m_forces.empty()) return;
  m_forces_csv << step << m_forces.row(step, forces);
  end_row(m_forces_csv, m_dir + "forces.csv");
}

void RunOutputs::snapshot() {
  char name[64];
  std::snprintf(name, sizeof name, "fields_%09lld", static_cast<long long>(m_domain.step()));
  const bool single = single_arithmetic(m_case.precision);
  std::string file = std::string(name) + ".vti";
  if (m_domain.distributed()) {
    // One piece per rank in a folder per snapshot, and the .pvti index
    // once every piece is on disk.
    const HostFields piece = m_domain.piece_fields();
    std::error_code ec;
    std::filesystem::create_directories(m_dir + name, ec);
    write_vti(m_dir + name + "/" + piece_name(comm::rank()), piece, single);
    comm::barrier();
    file = std::string(name) + ".pvti";
    if (m_root) write_pvti(m_dir + file, m_case.size, m_domain.pieces(name), single, m_thermal);
  } else {
    m_domain.fields(m_fields);
    write_vti(m_dir + file, m_fields, single);
  }
  m_snapshots.emplace_back(m_domain.step(), file);
  if (m_root) write_pvd(m_dir + "fields.pvd", m_snapshots);
}

void RunOutputs::report(const std::string& status, const std::string& error,
                        const RunSummary& summary, const ObservableSums& last,
                        double fluid_sites) const {
  if (!m_root) return;
  const double sites = double(m_case.size[0]) * m_case.size[1] * m_case.size[2];
  nlohmann::json r;
  r["kolb_version"] = KOLB_VERSION_STRING;
  r["status"] = status;
  if (!error.empty()) r["error"] = error;
  r["case_file"] = m_case.source;
  r["config"] = to_json(YAML::Load(m_case.yaml));
  r["derived"] = {{"tau", m_case.tau},
                  {"viscosity", m_case.viscosity()},
                  {"smagorinsky", m_case.smagorinsky},
                  {"cs2", lattice_info(m_case.lattice).cs2},
                  {"lattice_sites", sites},
                  {"fluid_sites", fluid_sites}};
  r["execution"] = {{"variant", m_domain.variant()},
                    {"kokkos_version", KOKKOS_VERSION},
                    {"execution_space", m_domain.execution_space()},
                    {"concurrency", m_domain.concurrency()},
                    {"compiler", KOLB_CXX_COMPILER},
                    {"build_type", KOLB_BUILD_TYPE},
                    {"openmp_wait", wait_policy()}};
  const MachineLoad load = machine_load();
  r["execution"]["machine"] = {
      {"cpus", load.cpus}, {"load_average", load.load}, {"busy", load.busy()}};
  if (m_domain.host_columns() >= 0) {
    r["execution"]["host_columns"] = m_domain.host_columns();
    r["execution"]["split_axis"] = axis_name(m_domain.split_axis());
  }
  if (m_domain.distributed()) {
    const TilingChoice& t = m_domain.tiling_choice();
    r["execution"]["mpi"] = {{"ranks", comm::size()},
                             {"tiling", to_string(m_domain.tile().ranks, m_case.dim)},
                             {"tiling_by_model", t.by_model}};
    if (t.by_model)
      r["execution"]["mpi"]["model"] = {{"site_seconds", t.costs.site_seconds},
                                        {"latency_s", t.costs.latency},
                                        {"face_bandwidth_Bps", t.costs.face_bandwidth},
                                        {"predicted_step_s", t.predicted_step}};
  }
  if (!m_tuning.is_null()) r["execution"]["tuning"] = m_tuning;
  nlohmann::json plans = nlohmann::json::object();
  for (const auto& [label, plan] : m_domain.plans()) plans[label] = plan_json(plan);
  r["execution"]["plan"] = plans;
  r["performance"] = {{"steps", summary.steps},
                      {"loop_seconds", summary.loop_seconds},
                      {"solver_seconds", summary.seconds},
                      {"output_seconds", summary.loop_seconds - summary.seconds},
                      {"check_seconds", summary.check_seconds},
                      {"vtk_seconds", summary.vtk_seconds},
                      {"force_seconds", summary.force_seconds},
                      {"mlups", summary.mlups},
                      {"mflups", summary.mflups},
                      {"solver_mlups", summary.solver_mlups},
                      {"mlups_counts",
                       "all sites x steps / loop_seconds (the whole time "
                       "loop: steps, outputs, checks); solver_mlups: / "
                       "solver_seconds (the steps alone); output_seconds = loop - solver, "
                       "of which check_seconds (stability checks, observables), force_seconds "
                       "(the forces on obstacles) and vtk_seconds (snapshots)"}};
  r["final_observables"] = {{"step", m_domain.step()},
                            {"mass", last.mass},
                            {"momentum", {last.momentum[0], last.momentum[1], last.momentum[2]}},
                            {"kinetic_energy", last.kinetic_energy},
                            {"internal_energy", last.internal_energy},
                            {"mean_speed", last.mean_speed()},
                            {"max_speed", last.max_speed}};
  if (!m_forces.empty()) {
    r["forces"] = m_forces.report();
    m_forces.plot(m_dir);
  }
  nlohmann::json vtk = nlohmann::json::array();
  for (const auto& s : m_snapshots) vtk.push_back(s.second);
  r["outputs"] = {{"observables", "observables.csv"}, {"vtk", vtk}};
  if (!m_forces.empty()) r["outputs"]["forces"] = "forces.csv";
  if (!m_run.empty()) r["run"] = m_run;
  write_atomically(report_path(), r.dump(2) + "\n");
}

}  // namespace kolb
