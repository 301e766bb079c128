// `kolb run`: the time loop (run_case), its outputs (RunOutputs: observables
// CSV, VTK snapshots with a .pvd index, the JSON report) and the split a
// case with host_columns: auto gets from the load balancer.

#include <kolb/app/checkpoint.hpp>
#include <kolb/app/run.hpp>
#include <kolb/balance/rebalance.hpp>
#include <kolb/balance/tune.hpp>
#include <kolb/comm/communicator.hpp>
#include <kolb/config.hpp>
#include <kolb/core/wait_policy.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/io/vtk.hpp>
#include <kolb/model/lattice_info.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "output_files.hpp"
#include "signals.hpp"
#include "steady.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>

namespace kolb {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

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
  static const char* const faces[3][2] = {{"x-", "x+"}, {"y-", "y+"}, {"z-", "z+"}};
  nlohmann::json phases = nlohmann::json::array();
  for (int k = 0; k < plan.phases; ++k) {
    const PhasePlan& p = plan.phase[k];
    nlohmann::json fill = nlohmann::json::object(), push = nlohmann::json::object();
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        if (p.fill[a][side] != HaloFill::unread) fill[faces[a][side]] = to_string(p.fill[a][side]);
        if (p.push[a][side] != PushTo::none) push[faces[a][side]] = to_string(p.push[a][side]);
      }
    nlohmann::json j = {{"kernel", to_string(p.kernel)}, {"zoned", p.zoned}, {"halos", fill}};
    if (p.kernel == PhaseKernel::aa_pull) j["pushed"] = push;
    if (p.kernel == PhaseKernel::stream_collide)
      j["end_lanes"] = {to_string(p.lanes[0]), to_string(p.lanes[1])};
    if (p.kernel == PhaseKernel::aa_local) j["row_halos"] = to_string(p.row_halos);
    if (p.model_wall_rows) j["model_wall_rows"] = true;
    phases.push_back(j);
  }
  return {{"rows", to_string(plan.storage)}, {"phases", phases}};
}

std::string format_duration(double s) {
  std::ostringstream o;
  if (s < 60)
    o << std::fixed << std::setprecision(0) << s << " s";
  else if (s < 3600)
    o << int(s / 60) << " min " << int(std::fmod(s, 60)) << " s";
  else
    o << int(s / 3600) << " h " << int(std::fmod(s, 3600) / 60) << " min";
  return o.str();
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

// The files of a run in its output folder. Every file is complete on disk
// as soon as it is written, so a failing run keeps what it wrote. Under MPI
// rank 0 writes all but the snapshots' pieces, which every rank writes.
class RunOutputs {
 public:
  // `restart_step` >= 0: continue the files of an earlier run in the folder,
  // keeping what it wrote up to that step.
  RunOutputs(const Case& c, Domain& domain, nlohmann::json tuning, std::int64_t restart_step = -1)
      : m_case(c),
        m_domain(domain),
        m_dir(c.output.folder + "/"),
        m_tuning(std::move(tuning)),
        m_thermal(lattice_info(c.lattice).has_temperature),
        m_root(comm::root()) {
    if (!m_root) return;
    const std::string csv = m_dir + "observables.csv";
    const std::string header =
        std::string(
            "step,mass,momentum_x,momentum_y,momentum_z,kinetic_energy,mean_speed,"
            "max_speed") +
        (m_thermal ? ",internal_energy\n" : "\n");
    std::string kept = header;
    if (restart_step >= 0) {
      std::ifstream in(csv);
      std::string line;
      for (bool first = true; std::getline(in, line); first = false)
        if (!first && !line.empty() && std::strtoll(line.c_str(), nullptr, 10) <= restart_step)
          kept += line + "\n";
      m_snapshots = read_pvd(m_dir + "fields.pvd", restart_step);
    }
    write_atomically(csv, kept);
    m_csv.open(csv, std::ios::app);
    if (!m_csv) throw std::runtime_error("cannot write " + csv + ": " + std::strerror(errno));
  }

  std::string report_path() const { return m_dir + "report.json"; }

  void observables(std::int64_t step, const ObservableSums& o) {
    if (!m_root) return;
    m_csv << step << std::setprecision(17) << ',' << o.mass << ',' << o.momentum[0] << ','
          << o.momentum[1] << ',' << o.momentum[2] << ',' << o.kinetic_energy << ','
          << o.mean_speed() << ',' << o.max_speed;
    if (m_thermal) m_csv << ',' << o.internal_energy;
    m_csv << '\n';
    m_csv.flush();  // a crash or an instability must not lose written rows
    if (!m_csv)
      throw std::runtime_error("cannot write " + m_dir + "observables.csv: " +
                               (errno ? std::strerror(errno) : "write failed"));
  }

  void snapshot() {
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

  // report.json: the configuration, the execution, the speed and the last
  // observables; `error` is empty unless the run failed.
  void report(const std::string& status, const std::string& error, const RunSummary& summary,
              const ObservableSums& last, double fluid_sites) const {
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
                        {"mlups", summary.mlups},
                        {"mflups", summary.mflups},
                        {"solver_mlups", summary.solver_mlups},
                        {"mlups_counts",
                         "all sites x steps / loop_seconds (the whole time "
                         "loop: steps, outputs, checks); solver_mlups: / "
                         "solver_seconds (the steps alone); output_seconds = loop - solver, "
                         "of which check_seconds (stability checks, observables) and "
                         "vtk_seconds (snapshots)"}};
    r["final_observables"] = {{"step", m_domain.step()},
                              {"mass", last.mass},
                              {"momentum", {last.momentum[0], last.momentum[1], last.momentum[2]}},
                              {"kinetic_energy", last.kinetic_energy},
                              {"internal_energy", last.internal_energy},
                              {"mean_speed", last.mean_speed()},
                              {"max_speed", last.max_speed}};
    nlohmann::json vtk = nlohmann::json::array();
    for (const auto& s : m_snapshots) vtk.push_back(s.second);
    r["outputs"] = {{"observables", "observables.csv"}, {"vtk", vtk}};
    if (!m_run.empty()) r["run"] = m_run;
    write_atomically(report_path(), r.dump(2) + "\n");
  }

  // Facts about the time loop for the report's "run" section (restart,
  // checkpoints, steady state).
  nlohmann::json& run_notes() { return m_run; }

 private:
  const Case& m_case;
  Domain& m_domain;
  std::string m_dir;
  nlohmann::json m_tuning;
  bool m_thermal;
  bool m_root;
  std::ofstream m_csv;
  std::vector<std::pair<std::int64_t, std::string>> m_snapshots;
  HostFields m_fields;  // one snapshot's, kept: its memory serves the next
  nlohmann::json m_run = nlohmann::json::object();
};

// The loop's wall time since `t_loop` and its MLUPS (outputs and checks included).
void finish(RunSummary& summary, clock_type::time_point t_loop, double sites, double fluid_sites) {
  const double t = summary.loop_seconds = seconds_since(t_loop);
  summary.mlups = t > 0 ? sites * summary.steps / t * 1e-6 : 0;
  summary.mflups = t > 0 ? fluid_sites * summary.steps / t * 1e-6 : 0;
  summary.solver_mlups = summary.seconds > 0 ? sites * summary.steps / summary.seconds * 1e-6 : 0;
}

// SIGINT / SIGTERM during a run: noted here, acted on at the end of the
// chunk of steps in flight (checkpoint, outputs, exit 128 + signal). The
// handler puts the default back, so a second signal stops kolb at once.
volatile std::sig_atomic_t g_signal = 0;

extern "C" void note_signal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL);
}

// host_columns: auto -> a short balancer run picks M (tune.* written next
// to the other outputs); returns the case with M set and the tuning summary.
std::pair<Case, nlohmann::json> resolve_split(const Case& c, std::ostream* progress) {
  if (!c.execution.host_columns_auto) return {c, nullptr};
  TuneOptions quick;
  quick.seconds = 0.1;
  quick.repeats = 2;
  quick.max_rounds = 2;
  quick.bracket = 1;
  quick.alone = false;
  const TuneResult t = tune_node(c, quick, progress);
  if (comm::root()) write_tune_outputs(c, quick, t, c.output.folder);
  Case resolved = c;
  resolved.execution.host_columns = t.best_columns;
  if (comm::size() > 1) resolved.execution.decomposition = t.ranks;  // tiled once
  const std::string why = t.concurrent.why_alone();
  if (progress)
    *progress << "balancer: " << t.best_columns << " host layers per side along "
              << axis_name(t.split_axis) << " (model " << t.model_columns
              << (why.empty() ? "" : ": " + why) << ")" << std::endl;
  return {resolved,
          {{"model_host_columns", t.model_columns},
           {"why_alone", why},
           {"host_columns", t.best_columns},
           {"predicted_step_s", t.predicted_step},
           {"measured_step_s", t.best_step},
           {"details", "tune.json"}}};
}

}  // namespace

RunSummary run_case(const Case& c, std::ostream* progress, const std::string& restart) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(c.output.folder, ec);
  if (ec || !fs::is_directory(c.output.folder))
    throw ConfigError(c.source + ": output.folder",
                      "cannot create output folder '" + c.output.folder + "': " + ec.message());
  const std::string checkpoint = restart.empty() ? "" : find_checkpoint(restart);
  if (const MachineLoad load = machine_load(); progress && load.busy())
    *progress << "note: this machine is busy (load " << std::fixed << std::setprecision(1)
              << load.load << " on " << load.cpus
              << " CPUs): speeds will vary; OpenMP waits: " << wait_policy() << "\n"
              << std::defaultfloat;
  const auto [resolved, tuning] = resolve_split(c, progress);
  auto domain = make_domain(resolved, progress);
  const std::int64_t first_step = checkpoint.empty() ? 0 : read_checkpoint(checkpoint, c, *domain);
  if (first_step > c.steps)
    throw ConfigError(c.source + ": run.steps",
                      "the checkpoint is at step " + std::to_string(first_step) +
                          ", beyond run.steps = " + std::to_string(c.steps));
  RunOutputs out(resolved, *domain, tuning, checkpoint.empty() ? -1 : first_step);
  if (!checkpoint.empty()) {
    drop_checkpoints_after(c, first_step);
    out.run_notes()["restarted_from"] = {{"checkpoint", checkpoint}, {"step", first_step}};
    if (progress) *progress << "restarted from " << checkpoint << " (step " << first_step << ")\n";
  }
  // Beyond the lattice sound speed a run has diverged.
  const double limit = lattice_info(c.lattice).sound_speed();
  const double sites = double(c.size[0]) * c.size[1] * c.size[2];

  RunSummary summary;
  summary.report = out.report_path();
  summary.status = "completed";
  ObservableSums last = domain->observe();
  const double fluid_sites = last.fluid_sites;
  const auto stable = [&](const ObservableSums& o) {
    return std::isfinite(o.mass) && std::isfinite(o.max_speed) &&
           std::isfinite(o.internal_energy) && o.max_speed <= limit;
  };
  auto check = [&](const ObservableSums& o) {
    if (stable(o)) return;
    std::ostringstream s;
    s << "simulation became unstable at step " << domain->step() << ": max speed " << o.max_speed
      << ", mass " << o.mass << " (a speed above the lattice sound speed " << limit
      << " means the run diverged; raise tau/viscosity or resolution, or lower the velocities)";
    out.report("unstable", s.str(), summary, o, fluid_sites);
    throw InstabilityError(s.str());
  };

  if (checkpoint.empty()) {
    out.observables(0, last);
    if (c.output.vtk_every > 0) out.snapshot();
  }
  check(last);

  const auto every = [&](std::int64_t cadence, std::int64_t step) {
    return cadence > 0 && step % cadence == 0;
  };
  std::string last_checkpoint;
  auto save = [&] {
    if (!checkpoint_step_exact(c, domain->step())) {
      // AA after an odd step (a signal, the last step): one more step first.
      if (domain->step() >= c.steps) {
        if (progress) *progress << "no checkpoint at the odd last step (AA streaming)\n";
        return;
      }
      domain->advance(1);
      summary.steps += 1;
      last = domain->observe();
    }
    last_checkpoint = write_checkpoint(c, *domain);
    out.run_notes()["checkpoint"] = {{"folder", last_checkpoint}, {"step", domain->step()}};
  };
  // Re-balancing of a node's split (balance/rebalance.hpp), judged on
  // windows of at least a second of steps; every rank decides alike (times
  // maxed over the ranks). AA states move after even steps only.
  const double rebalance = c.execution.rebalance >= 0      ? c.execution.rebalance
                           : c.execution.host_columns_auto ? 0.15
                                                           : 0.0;
  std::optional<Rebalancer> rebalancer;
  if (rebalance > 0 && domain->host_columns() >= 0)
    rebalancer.emplace(node_geometry(resolved, domain->split_axis(), domain->tile().size),
                       rebalance);
  nlohmann::json resplits = nlohmann::json::array();
  double window_seconds = 0;
  domain->reset_timings();
  SteadyCheck steady;
  g_signal = 0;
  const SignalGuard signals(note_signal);
  const auto t_loop = clock_type::now();
  try {
    auto t_progress = clock_type::now();
    std::int64_t chunk = 1;  // adapted to ~0.25 s of steps: signals are seen that often
    // Between observables rows the stability check reads one row in
    // kCheckRows (RowSample: a different set each time, all rows once in
    // kCheckRows checks), after at least 0.25 s of steps and at most every
    // 200 times its own cost: <= 0.5 % of the loop. A sample that fails is
    // confirmed and reported from the whole lattice. Rows of observables,
    // and the last step, read the whole lattice.
    constexpr int kCheckRows = 8;
    double check_interval = 0.25, since_check = 0;
    std::int64_t sampled_checks = 0;
    while (domain->step() < c.steps) {
      const std::int64_t s = domain->step();
      std::int64_t next = c.steps;
      for (std::int64_t cadence :
           {c.output.observables_every, c.output.vtk_every, c.output.checkpoint_every,
            c.steady.tolerance > 0 ? c.steady.every : std::int64_t(0)})
        if (cadence > 0) next = std::min(next, (s / cadence + 1) * cadence);
      std::int64_t n = std::min(next - s, chunk);
      // AA: chunks end on whole step pairs where they can, the state the
      // checks read in place (else they copy the lattice first).
      if (c.execution.streaming == Streaming::aa && n < next - s && (s + n) % 2 != 0) ++n;
      const auto t0 = clock_type::now();
      domain->advance(n);
      // Every rank takes the same chunks and stops on a signal any rank got.
      double agreed[2] = {seconds_since(t0), double(g_signal)};
      comm::max(agreed, 2);
      const double dt = agreed[0];
      const int signal = int(agreed[1]);
      summary.seconds += dt;
      summary.steps += n;
      since_check += dt;
      chunk = std::max<std::int64_t>(1, std::int64_t(double(n) * 0.25 / std::max(dt, 1e-6)));

      const std::int64_t now = domain->step();
      bool steady_now = false;
      if (c.steady.tolerance > 0 && every(c.steady.every, now)) {
        const double change = steady.change(*domain);
        out.run_notes()["steady"] = {{"tolerance", c.steady.tolerance},
                                     {"last_change", std::isfinite(change) ? change : -1.0},
                                     {"step", now}};
        steady_now = change < c.steady.tolerance;
        if (progress && steady_now)
          *progress << "steady at step " << now << ": relative change of u " << change << " < "
                    << c.steady.tolerance << '\n';
      }
      const bool end = now == c.steps || steady_now || signal != 0;
      const bool row = every(c.output.observables_every, now) || end;
      if (row || since_check >= check_interval) {
        const auto t_obs = clock_type::now();
        const RowSample rows =
            row ? RowSample() : RowSample{kCheckRows, int(sampled_checks++ % kCheckRows)};
        const ObservableSums seen = domain->observe(rows);
        double cost = seconds_since(t_obs);
        summary.check_seconds += cost;
        comm::max(&cost, 1);  // every rank checks at the same steps
        since_check = 0;
        if (row) {
          last = seen;
          out.observables(now, last);
        } else {
          check_interval = std::max(0.25, 200 * cost);
          if (!stable(seen)) last = domain->observe();  // what the report gives
        }
        check(last);
      }
      if (every(c.output.vtk_every, now) || end) {
        const auto t_vtk = clock_type::now();
        out.snapshot();
        summary.vtk_seconds += seconds_since(t_vtk);
      }
      if (every(c.output.checkpoint_every, now) || signal != 0) save();
      if (progress && (seconds_since(t_progress) >= c.output.progress_seconds || end)) {
        t_progress = clock_type::now();
        // Steps per second of the whole loop so far (outputs and checks included).
        const double rate = summary.steps / std::max(seconds_since(t_loop), 1e-12);
        *progress << "step " << now << "/" << c.steps << "  " << std::fixed << std::setprecision(1)
                  << sites * rate * 1e-6 << " MLUPS  max|u| " << std::setprecision(4)
                  << last.max_speed << "  ETA " << format_duration((c.steps - now) / rate)
                  << std::endl;
      }
      window_seconds += dt;
      if (rebalancer && !end && window_seconds >= 1.0 && checkpoint_step_exact(c, now)) {
        const DomainTimings t = domain->timings();
        double v[4] = {double(t.steps), t.accelerator, t.host, t.mpi};
        comm::max(v, 4);
        const int from = domain->host_columns();
        const int to = rebalancer->observe(from, v[0], v[1], v[2], v[3]);
        domain->reset_timings();
        window_seconds = 0;
        if (to >= 0) {
          domain->resplit(to);
          resplits.push_back({{"step", now},
                              {"from_host_columns", from},
                              {"to_host_columns", to},
                              {"imbalance", rebalancer->imbalance()}});
          out.run_notes()["rebalanced"] = resplits;
          if (progress)
            *progress << "rebalanced at step " << now << ": " << from << " -> " << to
                      << " host layers per side along " << axis_name(domain->split_axis())
                      << " (host side " << std::showpos << std::fixed << std::setprecision(0)
                      << 100 * rebalancer->imbalance() << std::noshowpos
                      << " % against the accelerator's)" << std::endl;
        }
      }
      if (signal != 0) {
        const std::string what = std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                 " at step " + std::to_string(now) + ": checkpoint " +
                                 last_checkpoint + "; continue with --restart " + c.output.folder;
        finish(summary, t_loop, sites, fluid_sites);
        out.report("interrupted", what, summary, last, fluid_sites);
        throw Interrupted(signal, what);
      }
      if (steady_now) {
        summary.status = "steady";
        break;
      }
    }
  } catch (const InstabilityError&) {
    throw;
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    // An I/O failure (full disk) or any other error: say so in the report
    // if it can still be written; the files written before stay as they are.
    finish(summary, t_loop, sites, fluid_sites);
    try {
      out.report("failed", e.what(), summary, last, fluid_sites);
    } catch (...) {
    }
    throw;
  }
  if (c.steps == 0 && c.output.vtk_every == 0) out.snapshot();
  // A last checkpoint lets a finished run be extended (raise run.steps, --restart).
  if (c.output.checkpoint_every > 0 && !every(c.output.checkpoint_every, domain->step())) save();
  finish(summary, t_loop, sites, fluid_sites);
  out.report(summary.status, "", summary, last, fluid_sites);
  return summary;
}

}  // namespace kolb
