// `kolb batch`: sweeps of runs, each a `kolb run` process (app/batch.hpp).

#include <kolb/app/batch.hpp>
#include <kolb/app/input.hpp>
#include <kolb/kernels/stream_probes.hpp>
#include <kolb/model/lattice_info.hpp>

#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include "output_files.hpp"
#include "signals.hpp"
#include "yaml_map.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <ostream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kolb {

namespace fs = std::filesystem;

namespace {

struct Parameter {
  std::string key;
  std::vector<YAML::Node> values;
};

struct BatchPlan {
  std::string case_file;
  std::vector<std::string> sets;  // every run: the batch's `set`, then --set
  std::vector<Parameter> sweep;   // cartesian
  std::vector<Parameter> zip;     // varied together
  std::string folder;
};

// A value as --set takes it (YAML flow text).
std::string flow_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// A value as a folder name takes it: lists joined by 'x', odd characters '-'.
std::string name_text(const YAML::Node& n) {
  std::string s;
  if (n.IsSequence()) {
    for (std::size_t k = 0; k < n.size(); ++k) s += (k ? "x" : "") + name_text(n[k]);
    return s;
  }
  for (const char ch : flow_text(n))
    s += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '+' || ch == '-' ? ch
                                                                                             : '-';
  return s;
}

std::vector<Parameter> read_parameters(const yaml::Map& top, const std::string& key) {
  std::vector<Parameter> out;
  if (!top.has(key)) return out;
  const YAML::Node n = top.get(key);
  if (!n.IsMap()) top.reader().fail(n, key, "expected a mapping of dotted keys to lists of values");
  for (const auto& kv : n) {
    const std::string k = yaml::key_text(top.reader(), kv.first, key);
    const std::string path = key + "." + k;
    if (!kv.second.IsSequence() || kv.second.size() == 0)
      top.reader().fail(kv.second, path,
                        "expected a non-empty list of values, got " + yaml::yaml_text(kv.second));
    Parameter p{k, {}};
    for (const auto& v : kv.second) p.values.push_back(v);
    out.push_back(p);
  }
  return out;
}

BatchPlan read_plan(const std::string& file, const std::vector<std::string>& overrides) {
  const YAML::Node root = yaml::load_file(file, "batch");
  const yaml::Reader reader(file, {});
  const yaml::Map top(reader, root, "", {"case", "set", "sweep", "zip", "output"});
  BatchPlan plan;
  const std::string dir = fs::path(file).parent_path().string();
  plan.case_file = top.text("case");
  if (fs::path(plan.case_file).is_relative() && !dir.empty())
    plan.case_file = (fs::path(dir) / plan.case_file).string();
  if (top.has("set")) {
    const YAML::Node s = top.get("set");
    if (!s.IsMap()) reader.fail(s, "set", "expected a mapping of dotted keys to values");
    for (const auto& kv : s)
      plan.sets.push_back(yaml::key_text(reader, kv.first, "set") + "=" + flow_text(kv.second));
  }
  for (const auto& o : overrides) plan.sets.push_back(o);
  plan.sweep = read_parameters(top, "sweep");
  plan.zip = read_parameters(top, "zip");
  for (const Parameter& p : plan.zip)
    if (p.values.size() != plan.zip.front().values.size())
      reader.fail(top.get("zip")[p.key], "zip." + p.key,
                  "zipped lists must have one length: " + std::to_string(p.values.size()) +
                      " values here, " + std::to_string(plan.zip.front().values.size()) + " for " +
                      plan.zip.front().key);
  const yaml::Map out(reader, top.get("output"), "output", {"folder"});
  plan.folder = out.text("folder");
  return plan;
}

struct Run {
  std::string name;
  std::vector<std::pair<std::string, YAML::Node>> parameters;
  std::vector<std::string> sets;  // the plan's plus the parameters
};

std::vector<Run> expand(const BatchPlan& plan) {
  std::vector<std::vector<std::pair<std::string, YAML::Node>>> combos = {{}};
  for (const Parameter& p : plan.sweep) {
    std::vector<std::vector<std::pair<std::string, YAML::Node>>> next;
    for (const auto& c : combos)
      for (const YAML::Node& v : p.values) {
        next.push_back(c);
        next.back().emplace_back(p.key, v);
      }
    combos = next;
  }
  if (!plan.zip.empty()) {
    std::vector<std::vector<std::pair<std::string, YAML::Node>>> next;
    for (const auto& c : combos)
      for (std::size_t k = 0; k < plan.zip.front().values.size(); ++k) {
        next.push_back(c);
        for (const Parameter& p : plan.zip) next.back().emplace_back(p.key, p.values[k]);
      }
    combos = next;
  }
  // Folder names use each key's last part unless two keys share it.
  auto label = [&](const std::string& key) {
    const std::string last = key.substr(key.rfind('.') + 1);
    int same = 0;
    for (const auto& [k, v] : combos.front()) same += k.substr(k.rfind('.') + 1) == last;
    std::string full = key;
    std::replace(full.begin(), full.end(), '.', '-');
    return same > 1 ? full : last;
  };
  std::vector<Run> runs;
  for (const auto& c : combos) {
    Run r;
    r.parameters = c;
    r.sets = plan.sets;
    for (const auto& [k, v] : c) {
      r.name += (r.name.empty() ? "" : "_") + label(k) + "-" + name_text(v);
      r.sets.push_back(k + "=" + flow_text(v));
    }
    if (r.name.empty()) r.name = "run";
    runs.push_back(r);
  }
  return runs;
}

// SIGINT / SIGTERM: the batch stops after the run in flight, which (as a
// kolb run) writes a checkpoint. A terminal's Ctrl-C reaches both; a
// SIGTERM sent to the batch alone is passed on to the run.
volatile std::sig_atomic_t g_signal = 0;
volatile pid_t g_child = 0;

extern "C" void batch_signal(int sig) {
  g_signal = sig;
  if (sig == SIGTERM && g_child > 0) kill(g_child, SIGTERM);
}

// Runs `args` with stdout and stderr to `log_path`; returns the exit code
// (128 + signal when killed by one).
int spawn(const std::vector<std::string>& args, const std::string& log_path) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(err));
  g_child = pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The last "kolb: error" / "kolb: stopped" line of a run's log.
std::string last_error(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, found;
  while (std::getline(in, line))
    if (line.rfind("kolb: error: ", 0) == 0 || line.rfind("kolb: stopped", 0) == 0) found = line;
  return found;
}

nlohmann::json read_json_or_null(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

// Outcomes that running again would repeat: the batch skips them.
bool finished(const std::string& status) {
  return status == "completed" || status == "steady" || status == "unstable";
}

// The probe of a run's access pattern (copy for two-buffer streaming, an
// in-place update for AA, over the lattice's Q streams) on the runs'
// execution space, over arrays as
// large as the run's two population arrays together, so that a cache-
// resident case meets a cache-resident bound (GB/s, best of 5).
double same_pattern_bound(const Case& c, double bytes) {
  using exec = Kokkos::DefaultExecutionSpace;
  const index_t n = std::max<index_t>(1024, index_t(bytes / (2 * sizeof(double))));
  const bool aa = c.execution.streaming == Streaming::aa;
  return StreamProbes<exec>(exec(), n).measure(aa ? StreamPattern::update : StreamPattern::copy, 5,
                                               lattice_info(c.lattice).q);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What became of one run of the batch.
struct Outcome {
  std::string status, error;
  double wall = 0;    // seconds of the run, its earlier interrupted tries included
  bool kept = false;  // finished by an earlier batch, not run again
  int exit_code = 0;
  std::optional<Case> c;  // the run's case, when it is valid
};

// Runs (or keeps, or resumes) one run in `dir` as a `kolb run` process.
Outcome execute(const BatchPlan& plan, const std::vector<std::string>& sets, const fs::path& dir,
                const std::string& kolb_binary, int threads) {
  Outcome o;
  try {
    o.c = read_case(plan.case_file, sets);
  } catch (const ConfigError& e) {
    o.status = "invalid", o.error = e.what();
    return o;
  }
  // Resume: the same settings as last time keep what is there.
  const nlohmann::json before = read_json_or_null((dir / "batch_run.json").string());
  const bool same = !before.is_null() && before.value("sets", nlohmann::json()) == sets;
  const nlohmann::json report = read_json_or_null((dir / "report.json").string());
  if (same && !report.is_null() && finished(report.value("status", ""))) {
    o.status = report.value("status", ""), o.wall = before.value("wall_s", 0.0), o.kept = true;
    return o;
  }
  std::error_code ec;
  if (!before.is_null() && !same) fs::remove_all(dir, ec);  // other settings: start over
  fs::create_directories(dir, ec);
  std::vector<std::string> args = {kolb_binary, "run", plan.case_file, "-q"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  if (threads > 0) args.insert(args.end(), {"--threads", std::to_string(threads)});
  const bool resume = same && fs::exists(dir / "checkpoints");
  if (resume) args.insert(args.end(), {"--restart", dir.string()});
  nlohmann::json note = {{"sets", sets}, {"command", args}};
  write_atomically((dir / "batch_run.json").string(), note.dump(2) + "\n");
  const auto t0 = std::chrono::steady_clock::now();
  o.exit_code = spawn(args, (dir / "kolb.log").string());
  o.wall = seconds_since(t0) + (resume ? before.value("wall_s", 0.0) : 0.0);
  note["wall_s"] = o.wall;
  note["exit_code"] = o.exit_code;
  write_atomically((dir / "batch_run.json").string(), note.dump(2) + "\n");
  const nlohmann::json after = read_json_or_null((dir / "report.json").string());
  const int rc = o.exit_code;
  o.status = rc == 0 && !after.is_null() ? after.value("status", "completed")
             : rc == 3                   ? "unstable"
             : rc == 2                   ? "invalid"
             : rc > 128                  ? "interrupted"
                                         : "failed";
  if (rc != 0) o.error = last_error((dir / "kolb.log").string());
  return o;
}

}  // namespace

BatchResult run_batch(const std::string& file, const std::vector<std::string>& overrides,
                      const std::string& kolb_binary, int threads, std::ostream& log) {
  const BatchPlan plan = read_plan(file, overrides);
  const std::vector<Run> runs = expand(plan);
  // The base case is read up front: a bad one ends the batch now; a bad
  // combination is recorded as invalid and skipped.
  read_case(plan.case_file, plan.sets);
  std::error_code ec;
  fs::create_directories(fs::path(plan.folder) / "runs", ec);
  if (ec)
    throw ConfigError(file + ": output.folder",
                      "cannot create '" + plan.folder + "': " + ec.message());

  log << "kolb batch: " << file << ": " << runs.size() << " runs of " << plan.case_file << " -> "
      << plan.folder << std::fixed << '\n';

  BatchResult result;
  result.runs = int(runs.size());
  result.summary = plan.folder + "/summary.csv";
  std::vector<nlohmann::ordered_json> rows;
  auto write_summary = [&] {
    write_atomically(plan.folder + "/summary.csv", csv_of(rows));
    nlohmann::ordered_json j;
    j["batch"] = file;
    j["case"] = plan.case_file;
    j["bound"] =
        "the probe of the run's access pattern (copy b[i] = a[i] for two-buffer streaming, "
        "in-place update a[i] = s a[i] for aa) on the runs' execution space over arrays as "
        "large as the run's 2 population arrays, measured after it (a small case meets a bound "
        "in cache); bytes per update 2 Q sizeof(scalar), per probe element 16";
    j["runs"] = rows;
    write_atomically(plan.folder + "/summary.json", j.dump(2) + "\n");
  };

  g_signal = 0;
  const SignalGuard signals(batch_signal);
  const auto t_batch = std::chrono::steady_clock::now();
  double run_seconds = 0;
  int started = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Run& run = runs[k];
    const fs::path dir = fs::path(plan.folder) / "runs" / run.name;
    std::vector<std::string> sets = run.sets;
    sets.push_back("output.folder=" + dir.string());
    const Outcome o = execute(plan, sets, dir, kolb_binary, threads);
    if (!o.kept && o.c) ++started, run_seconds += o.wall;
    const bool done = o.status == "completed" || o.status == "steady";
    result.completed += done;
    result.skipped += o.kept;
    result.failed += o.status == "invalid" || o.status == "failed";
    if (o.status == "interrupted") result.interrupted = true, result.signal = o.exit_code - 128;

    nlohmann::ordered_json row;
    row["run"] = run.name;
    for (const auto& [key, value] : run.parameters) row[key] = flow_text(value);
    row["status"] = o.status;
    double steps = 0, mlups = 0, pct = 0, bound = 0;
    nlohmann::json last = nlohmann::json::object();
    const nlohmann::json report = read_json_or_null((dir / "report.json").string());
    if (done && !report.is_null()) {
      last = report.value("final_observables", nlohmann::json::object());
      steps = last.value("step", 0.0);
      mlups = report.value("performance", nlohmann::json::object()).value("mlups", 0.0);
      const Case& c = *o.c;
      const double bytes = 2.0 * lattice_info(c.lattice).q * stored_bytes(c.precision);
      bound = same_pattern_bound(c, bytes * double(c.size[0]) * c.size[1] * c.size[2]);
      pct = 100 * mlups * 1e6 * bytes / (bound * 1e9);
    }
    row["steps"] = steps;
    row["wall_s"] = o.wall;
    row["mlups"] = mlups;
    row["bound_gbs"] = bound;
    row["percent_of_bound"] = pct;
    for (const char* key : {"mass", "kinetic_energy", "max_speed"}) row[key] = last.value(key, 0.0);
    row["error"] = printable(o.error, 200);
    row["folder"] = dir.string();
    rows.push_back(row);
    write_summary();
    // Progress: what this run did, and an estimate from the runs timed so far.
    const double left = started > 0 ? run_seconds / started * double(runs.size() - k - 1) : 0;
    log << "[" << k + 1 << "/" << runs.size() << "] " << run.name << ": " << o.status;
    if (mlups > 0)
      log << ", " << std::setprecision(1) << mlups << " MLUPS (" << pct
          << " % of its same-pattern, same-size bound)";
    log << ", " << std::setprecision(1) << o.wall << " s" << (o.kept ? " (done before, kept)" : "")
        << "; batch " << std::setprecision(0) << seconds_since(t_batch) << " s, ETA ~" << left
        << " s" << (o.error.empty() ? "" : "\n    " + printable(o.error, 300)) << std::endl;
    if (result.interrupted || g_signal != 0) {
      result.interrupted = true;
      if (result.signal == 0) result.signal = g_signal;
      break;
    }
  }
  return result;
}

}  // namespace kolb
