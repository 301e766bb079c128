// kolb command line: `kolb run CASE.yaml [--set key=value ...] [--restart DIR]`,
// `kolb check CASE.yaml`, `kolb batch BATCH.yaml`,
// `kolb tune CASE.yaml`, `kolb bench BENCH.yaml`,
// `kolb info`.

#include <kolb/app/batch.hpp>
#include <kolb/app/bench.hpp>
#include <kolb/app/input.hpp>
#include <kolb/app/run.hpp>
#include <kolb/app/schema.hpp>
#include <kolb/balance/tune.hpp>
#include <kolb/comm/communicator.hpp>
#include <kolb/comm/tiling.hpp>
#include <kolb/config.hpp>
#include <kolb/core/wait_policy.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/model/lattice_info.hpp>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <type_traits>

namespace {

constexpr int kExitConfig = 2;    // bad input: the case, its files, the command line
constexpr int kExitUnstable = 3;  // the simulation diverged
constexpr int kExitFailure = 1;   // anything else (I/O, runtime errors)

constexpr const char* kOutOfMemory =
    "out of memory: an allocation failed (the case is too big for this machine or its limits; "
    "use fewer sites, a smaller precision (float; fp16 for the isothermal lattices) or more ranks)";

// Initialises Kokkos with an explicit thread count when asked for. OpenMP's
// binding is set to spread threads over cores unless the user chose one.
struct KokkosSession {
  explicit KokkosSession(int threads) {
    if (!std::getenv("OMP_PROC_BIND") && !std::getenv("OMP_PLACES")) {
      setenv("OMP_PROC_BIND", "spread", 0);
      setenv("OMP_PLACES", "threads", 0);
    }
    std::vector<std::string> args = {"kolb"};
#if KOKKOS_VERSION >= 40000
    if (threads > 0) args.push_back("--kokkos-num-threads=" + std::to_string(threads));
#else
    if (threads > 0) args.push_back("--kokkos-threads=" + std::to_string(threads));
#endif
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    int argc = int(argv.size());
    Kokkos::initialize(argc, argv.data());
  }
  ~KokkosSession() { Kokkos::finalize(); }
};

// Runs `body`, turning errors into a message and kolb's exit codes. Under
// MPI an instability is found by every rank at once (the observables are
// global), so rank 0 reports it; any other error may be one rank's alone:
// that rank reports it and MPI_Abort ends every rank, never a hang.
template <class Body>
int with_exit_codes(Body&& body) {
  int code = 0;
  std::string message;
  try {
    body();
    return 0;
  } catch (const kolb::ConfigError& e) {
    code = kExitConfig, message = e.what();
  } catch (const kolb::InstabilityError& e) {
    if (kolb::comm::root()) std::cerr << "kolb: error: " << e.what() << '\n';
    return kExitUnstable;
  } catch (const kolb::Interrupted& e) {  // every rank stopped together
    if (kolb::comm::root()) std::cerr << "kolb: stopped by " << e.what() << '\n';
    return 128 + e.signal();
  } catch (const std::bad_alloc&) {
    code = kExitConfig, message = kOutOfMemory;
  } catch (const std::exception& e) {
    code = kExitFailure, message = e.what();
    // Kokkos reports a failed allocation as a runtime_error: keep its first
    // line (the array and the size), drop its "Traceback ..." lines.
    if (message.find("failed to allocate") != std::string::npos ||
        message.find("Memory allocation failure") != std::string::npos)
      code = kExitConfig,
      message = kOutOfMemory + std::string(" (") + message.substr(0, message.find('\n')) + ")";
  }
  if (kolb::comm::size() == 1) {
    std::cerr << "kolb: error: " << message << '\n';
    return code;
  }
  std::cerr << "kolb: error: rank " << kolb::comm::rank() << " of " << kolb::comm::size() << ": "
            << message << std::endl;
  std::cout.flush();
  kolb::comm::abort(code);
  return code;
}

// Whether every rank read its case; a rank that failed has said why (rank 0
// alone when it failed too, as all ranks read the same input).
bool all_ranks_read(bool ok, const std::string& message) {
  double root_failed = kolb::comm::root() && !ok ? 1 : 0;
  kolb::comm::max(&root_failed, 1);
  if (!ok && (kolb::comm::root() || root_failed == 0))
    std::cerr << "kolb: error: " << message << '\n';
  return kolb::comm::all(ok);
}

// OpenMP threads for a case: its own setting, else for a heterogeneous node
// in a CPU-only build all cores but the one the Serial host thread uses.
int session_threads(const kolb::Case& c) {
  const bool node = c.execution.host_columns >= 0 || c.execution.host_columns_auto;
  if (c.execution.threads > 0 || !node || std::getenv("OMP_NUM_THREADS"))
    return c.execution.threads;
  return kolb::node_default_threads();
}

// The case, read before Kokkos starts (it may set the threads), with its
// tiling checked against the ranks; nullopt (on every rank) after reporting
// a bad one.
std::optional<kolb::Case> read_case(const std::string& file, const std::vector<std::string>& sets,
                                    int threads) {
  std::optional<kolb::Case> c;
  std::string message;
  try {
    c = kolb::read_case(file, sets);
    if (threads > 0) c->execution.threads = threads;
    const std::string problem = kolb::decomposition_problem(*c, kolb::comm::size());
    if (!problem.empty()) throw kolb::ConfigError(c->source + ": execution.decomposition", problem);
  } catch (const kolb::ConfigError& e) {
    c.reset();
    message = e.what();
  }
  if (!all_ranks_read(c.has_value(), message)) return std::nullopt;
  return c;
}

int run(const std::string& file, const std::vector<std::string>& sets, int threads, bool quiet,
        const std::string& restart) {
  auto read = read_case(file, sets, threads);
  if (!read) return kExitConfig;
  const kolb::Case& c = *read;
  KokkosSession kokkos(session_threads(c));
  return with_exit_codes([&] {
    const bool root = kolb::comm::root();
    if (root)
      std::cout << "kolb " << KOLB_VERSION_STRING << ": " << c.source << "  "
                << to_string(c.lattice) << " " << kolb::to_string(c.size, c.dim) << "  tau "
                << c.tau << "  " << c.steps << " steps  -> " << c.output.folder
                << (kolb::comm::size() > 1
                        ? "  (" + std::to_string(kolb::comm::size()) + " MPI ranks)"
                        : std::string())
                << '\n';
    const auto s = kolb::run_case(c, quiet || !root ? nullptr : &std::cout, restart);
    if (!root) return;
    std::cout << (s.status == "steady" ? "steady: " : "done: ") << s.steps << " steps in "
              << s.loop_seconds << " s (time loop; " << s.loop_seconds - s.seconds
              << " s of it outputs and checks: checks " << s.check_seconds << " s, ";
    if (!c.obstacles.empty()) std::cout << "forces " << s.force_seconds << " s, ";
    std::cout << "VTK " << s.vtk_seconds << " s), " << s.mlups << " MLUPS (" << s.mflups
              << " MFLUPS; the steps alone " << s.solver_mlups << " MLUPS); report " << s.report
              << '\n';
  });
}

int tune(const std::string& file, const std::vector<std::string>& sets, int threads,
         const kolb::TuneOptions& options) {
  auto read = read_case(file, sets, threads);
  if (!read) return kExitConfig;
  kolb::Case& c = *read;
  if (c.execution.host_columns < 0) c.execution.host_columns_auto = true;
  KokkosSession kokkos(session_threads(c));
  return with_exit_codes([&] {
    // Every rank tunes its own node; rank 0 reports.
    std::ostringstream elsewhere;
    std::ostream& out = kolb::comm::root() ? std::cout : elsewhere;
    out << "kolb tune: " << c.source << "  " << to_string(c.variant()) << " "
        << kolb::to_string(c.size, c.dim) << "  accelerator "
        << Kokkos::DefaultExecutionSpace::name() << " ("
        << Kokkos::DefaultExecutionSpace().concurrency() << " threads) + host -> "
        << c.output.folder << '\n';
    const kolb::TuneResult r = kolb::tune_node(c, options, kolb::comm::root() ? &out : nullptr);
    if (!kolb::comm::root()) return;
    const std::string json = kolb::write_tune_outputs(c, options, r, c.output.folder);
    const double sites = double(c.size[0]) * c.size[1] * c.size[2];
    out << std::fixed << std::setprecision(2) << "model: M* = " << r.model_columns
        << " (balance at " << r.balance_point << ", " << r.rounds << " concurrent calibration"
        << (r.rounds > 1 ? "s" : "") << "), predicted " << 1e3 * r.predicted_step
        << " ms/step, measured " << 1e3 * r.measured_step << " ms/step ("
        << 100.0 * (r.predicted_step / r.measured_step - 1) << " %)\n";
    if (const std::string why = r.concurrent.why_alone(); !why.empty())
      out << "model: " << why << "\n";
    if (r.window_points > 0) {
      const double predicted = r.window.step_time(r.model_columns);
      out << "model refitted in the verification window (" << r.window_points
          << " points near M*, M* left out): predicted " << 1e3 * predicted << " ms/step at M* ("
          << 100.0 * (predicted / r.measured_step - 1)
          << " %), its own optimum M = " << r.window.optimum() << "\n";
    }
    out << "best measured: M = " << r.best_columns << ", " << 1e3 * r.best_step << " ms/step, "
        << sites / r.best_step * 1e-6 << " MLUPS\n"
        << "model error (rms over verification points): concurrent calibration "
        << 100.0 * r.concurrent_rms_error << " %, isolated calibration "
        << 100.0 * r.isolated_rms_error << " %\n"
        << "wrote " << json << " (+ tune.csv, tune_model.csv, tune.png)\n";
  });
}

int check(const std::string& file, const std::vector<std::string>& sets, bool plan) {
  return with_exit_codes([&] {
    const kolb::Case c = kolb::read_case(file, sets);
    std::cout << c.source << ": valid. " << to_string(c.lattice) << " " << to_string(c.precision)
              << ", " << kolb::to_string(c.size, c.dim) << " sites, tau " << c.tau << ", viscosity "
              << c.viscosity();
    if (c.smagorinsky > 0)
      std::cout << " + Smagorinsky's (C_s " << c.smagorinsky << ", run by TRT's kernels)";
    std::cout << ", " << c.steps << " steps, output to " << c.output.folder << '\n';
    if (!plan) return;
    // The parts' plans on one process, as `kolb run` would build them
    // (a host split left to the balancer shows the whole lattice on one part).
    KokkosSession kokkos(session_threads(c));
    kolb::Case one = c;
    if (one.execution.host_columns_auto && one.execution.host_columns < 0) {
      one.execution.host_columns_auto = false;
      std::cout << "host_columns: auto (the balancer picks the split); one part shown\n";
    }
    for (const auto& [label, p] : kolb::plan_parts(one))
      std::cout << "part " << label << ":\n" << kolb::describe(p, "  ");
  });
}

int bench(const std::string& file, const std::vector<std::string>& sets, int threads) {
  if (kolb::comm::size() > 1) {
    // Every rank would time the same kernels and write the same files.
    if (kolb::comm::root())
      std::cerr << "kolb: error: kolb bench measures one process; run it without mpiexec "
                   "(perf/mpi/ measures MPI runs)\n";
    return kExitConfig;
  }
  KokkosSession kokkos(threads);
  return with_exit_codes([&] { kolb::run_bench(file, sets, std::cout); });
}

int batch(const std::string& file, const std::vector<std::string>& sets, int threads) {
  if (kolb::comm::size() > 1) {
    if (kolb::comm::root())
      std::cerr << "kolb: error: kolb batch starts its runs itself; run it without mpiexec\n";
    return kExitConfig;
  }
  // Each run is this executable again.
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  KokkosSession kokkos(threads);
  int code = 0;
  const int rc = with_exit_codes([&] {
    const kolb::BatchResult r =
        kolb::run_batch(file, sets, ec ? std::string("kolb") : self, threads, std::cout);
    std::cout << r.runs << " runs: " << r.completed << " completed (" << r.skipped
              << " from before), " << r.failed << " failed or invalid; summary " << r.summary
              << '\n';
    if (r.interrupted) {
      std::cerr << "kolb: batch stopped by a signal; run it again to resume\n";
      code = 128 + r.signal;
    } else if (r.failed > 0) {
      code = kExitFailure;
    }
  });
  return rc != 0 ? rc : code;
}

int info() {
  KokkosSession kokkos(0);
  std::cout << "kolb " << KOLB_VERSION_STRING << " (" << KOLB_BUILD_TYPE << ", "
            << KOLB_CXX_COMPILER << ")\n"
            << "Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
            << KOKKOS_VERSION % 100 << ", default execution space "
            << Kokkos::DefaultExecutionSpace::name() << " with "
            << Kokkos::DefaultExecutionSpace().concurrency() << " threads\n"
            << "compiled variants (lattice/precision/layout):\n";
  for (const auto& v : kolb::compiled_variants()) {
    std::cout << "  " << kolb::to_string(v) << "  (";
    const char* sep = "";
    for (const auto c : kolb::compiled_collisions(v))
      std::cout << sep << kolb::to_string(c), sep = ", ";
    std::cout << ")\n";
  }
  std::cout << "Kokkos configuration:\n";
  Kokkos::print_configuration(std::cout, false);
  return 0;
}

// The whole text as a number (long long or double), else nullopt.
template <class T>
std::optional<T> number_text(const std::string& text) {
  std::size_t used = 0;
  try {
    const T v = std::is_integral_v<T> ? T(std::stoll(text, &used)) : T(std::stod(text, &used));
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}
// Command-line number checks with plain messages (CLI11's own ranges print
// the largest double in full).
CLI::Validator whole_number(long long min, const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const auto v = number_text<long long>(text);
        if (!v || *v < min)
          return what + " must be a whole number >= " + std::to_string(min) + ", got '" +
                 kolb::printable(text, 40) + "'";
        return "";
      },
      "INT>=" + std::to_string(min));
}
CLI::Validator positive_seconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto v = number_text<double>(text);
        if (!v || !(*v > 0) || !std::isfinite(*v))
          return "seconds must be a number > 0, got '" + kolb::printable(text, 40) + "'";
        return "";
      },
      "SECONDS>0");
}

}  // namespace

int main(int argc, char** argv) {
  kolb::choose_wait_policy(argv);  // first: it may start the program once more
  // Past a file size limit (ulimit -f) writes then fail with EFBIG and are
  // reported, instead of the signal killing the run without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  kolb::comm::Session mpi(argc, argv);
  CLI::App app{"kolb: portable lattice Boltzmann solver on Kokkos"};
  app.require_subcommand(1);
  std::string file;
  std::vector<std::string> sets;
  int threads = 0;
  // Every subcommand but info and schema reads one YAML file, takes --set
  // overrides, and (all but check) a thread count.
  auto command = [&](const char* name, const char* what, const char* file_help,
                     const char* threads_help) {
    CLI::App* cmd = app.add_subcommand(name, what);
    cmd->add_option("file", file, file_help)->required();
    cmd->add_option("--set", sets, "override a key, e.g. --set run.steps=200 (repeatable)");
    if (threads_help)
      cmd->add_option("--threads", threads, threads_help)
          ->check(whole_number(1, "the thread count"));
    return cmd;
  };
  CLI::App* run_cmd = command("run", "run a case described by a YAML file", "case file (YAML)",
                              "host threads (overrides execution.threads)");
  bool quiet = false;
  run_cmd->add_flag("-q,--quiet", quiet, "no progress line");
  std::string restart;
  run_cmd->add_option("--restart", restart,
                      "continue from a checkpoint: its folder, or a run's output folder (newest)");
  CLI::App* check_cmd = command("check", "validate a case file and print its derived parameters",
                                "case file (YAML)", nullptr);
  bool plan = false;
  check_cmd->add_flag("--plan", plan, "also print each part's step plan (who fills each halo)");
  command("bench",
          "measure the LBM kernels against same-pattern bandwidth probes (MLUPS, GB/s, % of bound)",
          "benchmark description (YAML), e.g. perf/bench.yaml", "host threads");
  CLI::App* tune_cmd = command(
      "tune", "calibrate the host/accelerator performance model of a case and find the best split",
      "case file (YAML)", "OpenMP threads");
  kolb::TuneOptions tune_options;
  tune_cmd->add_option("--sweep", tune_options.sweep, "also time N evenly spaced splits")
      ->check(whole_number(0, "the sweep size"));
  tune_cmd->add_option("--seconds", tune_options.seconds, "timed seconds per measurement")
      ->check(positive_seconds());
  tune_cmd->add_option("--repeats", tune_options.repeats, "repeats per measurement (median kept)")
      ->check(whole_number(1, "the repeat count"));
  command("batch", "run a sweep of cases (each in its own folder) and write a summary; resumes",
          "batch description (YAML), e.g. inputs/batches/*.yaml", "host threads of every run");
  app.add_subcommand("info", "version, Kokkos configuration and compiled variants");
  app.add_subcommand("schema", "the keys of a case file: type, default and meaning (Markdown)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : kExitConfig;
  }
  if (app.got_subcommand("run")) return run(file, sets, threads, quiet, restart);
  if (app.got_subcommand("check")) return check(file, sets, plan);
  if (app.got_subcommand("tune")) return tune(file, sets, threads, tune_options);
  if (app.got_subcommand("bench")) return bench(file, sets, threads);
  if (app.got_subcommand("batch")) return batch(file, sets, threads);
  if (app.got_subcommand("schema")) {
    for (const auto& section : kolb::case_schema())
      std::cout << "### " << section.name << "\n\n" << kolb::schema_markdown(section) << "\n";
    return 0;
  }
  return info();
}
