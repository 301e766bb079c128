// `kolb run`: the time loop (run_case) and its pieces: the stability
// checks, re-balancing, the chunks of steps between outputs, the steady
// check; the split a case with host_columns: auto gets from the load
// balancer. The files of a run are RunOutputs' (run_outputs.hpp).

#include <kolb/app/checkpoint.hpp>
#include <kolb/app/run.hpp>
#include <kolb/balance/rebalance.hpp>
#include <kolb/balance/tune.hpp>
#include <kolb/comm/communicator.hpp>
#include <kolb/core/wait_policy.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/model/lattice_info.hpp>

#include <nlohmann/json.hpp>

#include "run_outputs.hpp"
#include "signals.hpp"
#include "steady.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>

namespace kolb {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
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

// The run's stability: every row of observables.csv reads the whole
// lattice; between rows a check reads one row in kCheckRows (RowSample: a
// different set each time, all rows once in kCheckRows checks), after at
// least 0.25 s of steps and at most every 200 times its own cost (<= 0.5 %
// of the loop). A sample that fails is confirmed from the whole lattice.
// An unstable state (not finite, or faster than the lattice sound speed:
// the run diverged) is reported and thrown as InstabilityError.
class StabilityCheck {
 public:
  StabilityCheck(const Case& c, Domain& domain, RunOutputs& out, RunSummary& summary)
      : m_case(c),
        m_domain(domain),
        m_out(out),
        m_summary(summary),
        m_limit(lattice_info(c.lattice).sound_speed()),
        m_last(domain.observe()),
        m_fluid_sites(m_last.fluid_sites) {}

  // The last observables of the whole lattice (what the report gives).
  const ObservableSums& last() const { return m_last; }
  double fluid_sites() const { return m_fluid_sites; }
  // The whole lattice's observables read again (after a step outside the loop).
  void refresh() { m_last = m_domain.observe(); }

  // After `dt` more seconds of steps, at step `now`: a row of observables
  // (`row`), or a sampled check where one is due.
  void after_steps(std::int64_t now, bool row, double dt) {
    m_since += dt;
    // A sampled check waits for a state it reads in place (AA: an even
    // step; chunks of one step, as forces_every: 1 makes, end on odd ones too).
    if (!row && (m_since < m_interval || !checkpoint_step_exact(m_case, now))) return;
    const auto t_obs = clock_type::now();
    const RowSample rows = row ? RowSample() : RowSample{kCheckRows, int(m_checks++ % kCheckRows)};
    const ObservableSums seen = m_domain.observe(rows);
    double cost = seconds_since(t_obs);
    m_summary.check_seconds += cost;
    comm::max(&cost, 1);  // every rank checks at the same steps
    m_since = 0;
    if (row) {
      m_last = seen;
      m_out.observables(now, m_last);
    } else {
      m_interval = std::max(0.25, 200 * cost);
      if (!stable(seen)) m_last = m_domain.observe();
    }
    check();
  }

  // Throws (after the report) where the last observables are unstable.
  void check() const {
    if (stable(m_last)) return;
    std::ostringstream s;
    s << "simulation became unstable at step " << m_domain.step() << ": max speed "
      << m_last.max_speed << ", mass " << m_last.mass << " (a speed above the lattice sound speed "
      << m_limit
      << " means the run diverged; raise tau/viscosity or resolution, or lower the velocities)";
    m_out.report("unstable", s.str(), m_summary, m_last, m_fluid_sites);
    throw InstabilityError(s.str());
  }

 private:
  static constexpr int kCheckRows = 8;
  bool stable(const ObservableSums& o) const {
    return std::isfinite(o.mass) && std::isfinite(o.max_speed) &&
           std::isfinite(o.internal_energy) && o.max_speed <= m_limit;
  }

  const Case& m_case;
  Domain& m_domain;
  RunOutputs& m_out;
  RunSummary& m_summary;
  double m_limit;
  ObservableSums m_last;
  double m_fluid_sites;
  double m_interval = 0.25, m_since = 0;  // seconds of steps between checks, and since the last
  std::int64_t m_checks = 0;              // sampled checks so far
};

// Re-balancing of a node's split during a run (balance/rebalance.hpp),
// judged on windows of at least a second of steps; every rank decides
// alike (times maxed over the ranks). AA states move after even steps only.
class Rebalancing {
 public:
  Rebalancing(const Case& c, const Case& resolved, Domain& domain) : m_case(c), m_domain(domain) {
    const double threshold = c.execution.rebalance >= 0      ? c.execution.rebalance
                             : c.execution.host_columns_auto ? 0.15
                                                             : 0.0;
    if (threshold > 0 && domain.host_columns() >= 0)
      m_rebalancer.emplace(node_geometry(resolved, domain.split_axis(), domain.tile().size),
                           threshold);
  }

  // After `dt` more seconds of steps, at step `now` (not the run's last).
  void after_steps(std::int64_t now, double dt, RunOutputs& out, std::ostream* progress) {
    m_window += dt;
    if (!m_rebalancer || m_window < 1.0 || !checkpoint_step_exact(m_case, now)) return;
    const DomainTimings t = m_domain.timings();
    double v[4] = {double(t.steps), t.accelerator, t.host, t.mpi};
    comm::max(v, 4);
    const int from = m_domain.host_columns();
    const int to = m_rebalancer->observe(from, v[0], v[1], v[2], v[3]);
    m_domain.reset_timings();
    m_window = 0;
    if (to < 0) return;
    m_domain.resplit(to);
    m_resplits.push_back({{"step", now},
                          {"from_host_columns", from},
                          {"to_host_columns", to},
                          {"imbalance", m_rebalancer->imbalance()}});
    out.run_notes()["rebalanced"] = m_resplits;
    if (progress)
      *progress << "rebalanced at step " << now << ": " << from << " -> " << to
                << " host layers per side along " << axis_name(m_domain.split_axis())
                << " (host side " << std::showpos << std::fixed << std::setprecision(0)
                << 100 * m_rebalancer->imbalance() << std::noshowpos
                << " % against the accelerator's)" << std::endl;
  }

 private:
  const Case& m_case;
  Domain& m_domain;
  std::optional<Rebalancer> m_rebalancer;
  nlohmann::json m_resplits = nlohmann::json::array();
  double m_window = 0;
};

bool every(std::int64_t cadence, std::int64_t step) { return cadence > 0 && step % cadence == 0; }

// A row of forces.csv at step `now` where the case has obstacles and one
// is due by forces_every or `always` (the run's first and last steps), its
// time in force_seconds.
void forces_at(const Case& c, std::int64_t now, bool always, Domain& domain, RunOutputs& out,
               RunSummary& summary) {
  if (c.obstacles.empty() || !(always || every(c.output.forces_every, now))) return;
  const auto t0 = clock_type::now();
  out.forces(now, domain.body_forces());
  summary.force_seconds += seconds_since(t0);
}

// The steps of the next chunk from step s: `chunk` (adapted to ~0.25 s of
// steps, so that signals are seen that often), up to the next step an
// output or check is due. AA: chunks end on whole step pairs where they
// can, the state the checks read in place (else they copy the lattice).
std::int64_t chunk_steps(const Case& c, std::int64_t s, std::int64_t chunk) {
  std::int64_t next = c.steps;
  for (std::int64_t cadence :
       {c.output.observables_every, c.obstacles.empty() ? 0 : c.output.forces_every,
        c.output.vtk_every, c.output.checkpoint_every,
        c.steady.tolerance > 0 ? c.steady.every : std::int64_t(0)})
    if (cadence > 0) next = std::min(next, (s / cadence + 1) * cadence);
  std::int64_t n = std::min(next - s, chunk);
  if (c.execution.streaming == Streaming::aa && n < next - s && (s + n) % 2 != 0) ++n;
  return n;
}

// Whether the flow is steady at step `now` (a steady check is due and the
// relative change of u is below steady.tolerance); noted in the report.
bool steady_at(const Case& c, std::int64_t now, SteadyCheck& steady, Domain& domain,
               RunOutputs& out, std::ostream* progress) {
  if (c.steady.tolerance <= 0 || !every(c.steady.every, now)) return false;
  const double change = steady.change(domain);
  out.run_notes()["steady"] = {{"tolerance", c.steady.tolerance},
                               {"last_change", std::isfinite(change) ? change : -1.0},
                               {"step", now}};
  const bool steady_now = change < c.steady.tolerance;
  if (progress && steady_now)
    *progress << "steady at step " << now << ": relative change of u " << change << " < "
              << c.steady.tolerance << '\n';
  return steady_now;
}

// The output folder, made where it is missing.
void make_output_folder(const Case& c) {
  std::error_code ec;
  std::filesystem::create_directories(c.output.folder, ec);
  if (ec || !std::filesystem::is_directory(c.output.folder))
    throw ConfigError(c.source + ": output.folder",
                      "cannot create output folder '" + c.output.folder + "': " + ec.message());
}

}  // namespace

RunSummary run_case(const Case& c, std::ostream* progress, const std::string& restart) {
  make_output_folder(c);
  const std::string checkpoint = restart.empty() ? "" : find_checkpoint(restart);
  if (const MachineLoad load = machine_load(); progress && load.busy())
    *progress << "note: this machine is busy (load " << std::fixed << std::setprecision(1)
              << load.load << " on " << load.cpus
              << " CPUs): speeds will vary; OpenMP waits: " << wait_policy() << "\n"
              << std::defaultfloat;
  const auto [resolved, tuning] = resolve_split(c, progress);
  const InputDigests inputs = input_digests(c);  // as the domain reads its files
  auto domain = make_domain(resolved, progress);
  const std::int64_t first_step =
      checkpoint.empty() ? 0 : read_checkpoint(checkpoint, c, *domain, inputs);
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

  const double sites = double(c.size[0]) * c.size[1] * c.size[2];
  RunSummary summary;
  summary.report = out.report_path();
  summary.status = "completed";
  StabilityCheck stability(c, *domain, out, summary);
  if (checkpoint.empty()) {
    out.observables(0, stability.last());
    forces_at(c, 0, true, *domain, out, summary);
    if (c.output.vtk_every > 0) out.snapshot();
  }
  stability.check();

  std::string last_checkpoint;
  const auto save = [&] {
    if (!checkpoint_step_exact(c, domain->step())) {
      // AA after an odd step (a signal, the last step): one more step first.
      if (domain->step() >= c.steps) {
        if (progress) *progress << "no checkpoint at the odd last step (AA streaming)\n";
        return;
      }
      domain->advance(1);
      summary.steps += 1;
      stability.refresh();
    }
    last_checkpoint = write_checkpoint(c, *domain, inputs);
    out.run_notes()["checkpoint"] = {{"folder", last_checkpoint}, {"step", domain->step()}};
  };
  Rebalancing rebalancing(c, resolved, *domain);
  domain->reset_timings();
  SteadyCheck steady;
  g_signal = 0;
  const SignalGuard signals(note_signal);
  const auto t_loop = clock_type::now();
  const auto finish_loop = [&] { finish(summary, t_loop, sites, stability.fluid_sites()); };
  try {
    auto t_progress = clock_type::now();
    std::int64_t chunk = 1;
    while (domain->step() < c.steps) {
      const std::int64_t n = chunk_steps(c, domain->step(), chunk);
      const auto t0 = clock_type::now();
      domain->advance(n);
      // Every rank takes the same chunks and stops on a signal any rank got.
      double agreed[2] = {seconds_since(t0), double(g_signal)};
      comm::max(agreed, 2);
      const double dt = agreed[0];
      const int signal = int(agreed[1]);
      summary.seconds += dt;
      summary.steps += n;
      chunk = std::max<std::int64_t>(1, std::int64_t(double(n) * 0.25 / std::max(dt, 1e-6)));

      const std::int64_t now = domain->step();
      const bool steady_now = steady_at(c, now, steady, *domain, out, progress);
      const bool end = now == c.steps || steady_now || signal != 0;
      forces_at(c, now, end, *domain, out, summary);  // before a check that may throw
      stability.after_steps(now, every(c.output.observables_every, now) || end, dt);
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
                  << stability.last().max_speed << "  ETA "
                  << format_duration((c.steps - now) / rate) << std::endl;
      }
      if (!end) rebalancing.after_steps(now, dt, out, progress);
      if (signal != 0) {
        const std::string what = std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") +
                                 " at step " + std::to_string(now) + ": checkpoint " +
                                 last_checkpoint + "; continue with --restart " + c.output.folder;
        finish_loop();
        out.report("interrupted", what, summary, stability.last(), stability.fluid_sites());
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
    finish_loop();
    try {
      out.report("failed", e.what(), summary, stability.last(), stability.fluid_sites());
    } catch (...) {
    }
    throw;
  }
  if (c.steps == 0 && c.output.vtk_every == 0) out.snapshot();
  // A last checkpoint lets a finished run be extended (raise run.steps, --restart).
  if (c.output.checkpoint_every > 0 && !every(c.output.checkpoint_every, domain->step())) save();
  finish_loop();
  out.report(summary.status, "", summary, stability.last(), stability.fluid_sites());
  return summary;
}

}  // namespace kolb
