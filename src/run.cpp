#include <kolb/app/run.hpp>
#include <kolb/app/simulation.hpp>
#include <kolb/balance/tune.hpp>
#include <kolb/config.hpp>
#include <kolb/io/vtk.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
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
    const double d = std::strtod(s.c_str(), &end);
    if (!s.empty() && end && *end == '\0') return d;
    if (s == "true" || s == "false") return s == "true";
    return s;
  }
  return nullptr;
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

class ObservablesCsv {
 public:
  // `thermal`: one more column, the internal energy sum rho T^H (D2Q37).
  ObservablesCsv(const std::string& path, bool thermal) : m_out(path), m_thermal(thermal) {
    if (!m_out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    m_out << "step,mass,momentum_x,momentum_y,momentum_z,kinetic_energy,mean_speed,max_speed"
          << (m_thermal ? ",internal_energy\n" : "\n");
  }
  void write(std::int64_t step, const ObservableSums& o) {
    m_out << step << std::setprecision(17) << ',' << o.mass << ',' << o.momentum[0] << ','
          << o.momentum[1] << ',' << o.momentum[2] << ',' << o.kinetic_energy << ','
          << o.mean_speed() << ',' << o.max_speed;
    if (m_thermal) m_out << ',' << o.internal_energy;
    m_out << '\n';
    m_out.flush();  // a crash or an instability must not lose written rows
  }

 private:
  std::ofstream m_out;
  bool m_thermal;
};

}  // namespace

// D2Q37 velocities are in the model's units, where the isothermal sound
// speed at T0 is 1.
double unstable_speed(const Case& c) {
  return lattice_thermal(c.lattice) ? 1.0 : std::sqrt(lattice_cs2(c.lattice));
}

RunSummary run_case(const Case& c, std::ostream* progress) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(c.output.folder, ec);
  if (ec || !fs::is_directory(c.output.folder))
    throw ConfigError(c.source + ": output.folder",
                      "cannot create output folder '" + c.output.folder + "': " + ec.message());
  const std::string dir = c.output.folder + "/";

  // host_columns: auto -> a short balancer run picks M (tune.* written next
  // to the other outputs).
  Case resolved = c;
  nlohmann::json tuning;
  if (c.execution.host_columns_auto) {
    TuneOptions quick;
    quick.seconds = 0.1;
    quick.repeats = 2;
    quick.max_rounds = 2;
    quick.bracket = 1;
    quick.alone = false;
    const TuneResult t = tune_node(c, quick, progress);
    write_tune_outputs(c, quick, t, c.output.folder);
    resolved.execution.host_columns = t.best_columns;
    tuning = {{"model_host_columns", t.model_columns},
              {"host_columns", t.best_columns},
              {"predicted_step_s", t.predicted_step},
              {"measured_step_s", t.best_step},
              {"details", "tune.json"}};
    if (progress)
      *progress << "balancer: " << t.best_columns << " host columns per side (model "
                << t.model_columns << ")" << std::endl;
  }
  auto sim = make_simulation(resolved);
  ObservablesCsv csv(dir + "observables.csv", lattice_thermal(c.lattice));
  std::vector<std::pair<std::int64_t, std::string>> snapshots;
  const double limit = unstable_speed(c);
  const double sites = double(c.size[0]) * c.size[1] * c.size[2];

  RunSummary summary;
  summary.report = dir + "report.json";
  std::string status = "running";
  std::string failure;
  ObservableSums last = sim->observe();
  const double fluid_sites = last.fluid_sites;

  auto write_report = [&]() {
    nlohmann::json r;
    r["kolb_version"] = KOLB_VERSION_STRING;
    r["status"] = status;
    if (!failure.empty()) r["error"] = failure;
    r["case_file"] = c.source;
    r["config"] = to_json(YAML::Load(c.yaml));
    r["derived"] = {{"tau", c.tau},
                    {"viscosity", c.viscosity()},
                    {"cs2", lattice_cs2(c.lattice)},
                    {"lattice_sites", sites},
                    {"fluid_sites", fluid_sites}};
    r["execution"] = {{"variant", sim->variant()},
                      {"kokkos_version", KOKKOS_VERSION},
                      {"execution_space", sim->execution_space()},
                      {"concurrency", sim->concurrency()},
                      {"compiler", KOLB_CXX_COMPILER},
                      {"build_type", KOLB_BUILD_TYPE}};
    if (resolved.execution.host_columns >= 0)
      r["execution"]["host_columns"] = resolved.execution.host_columns;
    if (!tuning.is_null()) r["execution"]["tuning"] = tuning;
    r["performance"] = {{"steps", summary.steps},
                        {"solver_seconds", summary.seconds},
                        {"mlups", summary.mlups},
                        {"mflups", summary.mflups}};
    r["final_observables"] = {{"step", sim->step()},
                              {"mass", last.mass},
                              {"momentum", {last.momentum[0], last.momentum[1], last.momentum[2]}},
                              {"kinetic_energy", last.kinetic_energy},
                              {"internal_energy", last.internal_energy},
                              {"mean_speed", last.mean_speed()},
                              {"max_speed", last.max_speed}};
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& s : snapshots) outputs.push_back(s.second);
    r["outputs"] = {{"observables", "observables.csv"}, {"vtk", outputs}};
    const std::string tmp = summary.report + ".tmp";
    std::ofstream(tmp) << r.dump(2) << '\n';
    std::rename(tmp.c_str(), summary.report.c_str());
  };
  auto snapshot = [&]() {
    char name[64];
    std::snprintf(name, sizeof name, "fields_%09lld.vti", static_cast<long long>(sim->step()));
    write_vti(dir + name, sim->fields(), c.precision == "float");
    snapshots.emplace_back(sim->step(), name);
    write_pvd(dir + "fields.pvd", snapshots);
  };
  auto check = [&](const ObservableSums& o) {
    if (std::isfinite(o.mass) && std::isfinite(o.max_speed) && std::isfinite(o.internal_energy) &&
        o.max_speed <= limit)
      return;
    std::ostringstream s;
    s << "simulation became unstable at step " << sim->step() << ": max speed " << o.max_speed
      << ", mass " << o.mass << " (a speed above the lattice sound speed " << limit
      << " means the run diverged; raise tau/viscosity or resolution, or lower the velocities)";
    status = "unstable";
    failure = s.str();
    write_report();
    throw InstabilityError(failure);
  };

  csv.write(0, last);
  check(last);
  if (c.output.vtk_every > 0) snapshot();

  const auto every = [&](std::int64_t cadence, std::int64_t step) {
    return cadence > 0 && step % cadence == 0;
  };
  const auto t_start = clock_type::now();
  auto t_progress = t_start;
  std::int64_t chunk = 1;  // adapted so that checks happen ~ every 0.25 s
  while (sim->step() < c.steps) {
    const std::int64_t s = sim->step();
    std::int64_t next = c.steps;
    for (std::int64_t cadence : {c.output.observables_every, c.output.vtk_every})
      if (cadence > 0) next = std::min(next, (s / cadence + 1) * cadence);
    const std::int64_t n = std::min(next - s, chunk);
    const auto t0 = clock_type::now();
    sim->advance(n);
    const double dt = seconds_since(t0);
    summary.seconds += dt;
    summary.steps += n;
    chunk = std::max<std::int64_t>(1, std::int64_t(double(n) * 0.25 / std::max(dt, 1e-6)));

    const std::int64_t now = sim->step();
    last = sim->observe();
    if (every(c.output.observables_every, now) || now == c.steps) csv.write(now, last);
    check(last);
    if (every(c.output.vtk_every, now) || now == c.steps) snapshot();
    if (progress && (seconds_since(t_progress) >= c.output.progress_seconds || now == c.steps)) {
      t_progress = clock_type::now();
      const double rate = summary.steps / std::max(summary.seconds, 1e-12);
      *progress << "step " << now << "/" << c.steps << "  " << std::fixed << std::setprecision(1)
                << sites * rate * 1e-6 << " MLUPS  max|u| " << std::setprecision(4)
                << last.max_speed << "  ETA " << format_duration((c.steps - now) / rate)
                << std::endl;
    }
  }
  if (c.steps == 0 && c.output.vtk_every == 0) snapshot();
  summary.mlups = summary.seconds > 0 ? sites * summary.steps / summary.seconds * 1e-6 : 0;
  summary.mflups = summary.seconds > 0 ? fluid_sites * summary.steps / summary.seconds * 1e-6 : 0;
  status = "completed";
  write_report();
  return summary;
}

}  // namespace kolb
