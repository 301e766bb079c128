// The load balancer: calibration runs, model solve, verification, outputs.

#include <kolb/balance/tune.hpp>
#include <kolb/comm/communicator.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/model/lattice_info.hpp>

#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include "output_files.hpp"
#include "split_rules.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>

namespace kolb {

namespace {

class Tuner {
 public:
  Tuner(const Case& c, const TuneOptions& o, std::ostream* log)
      : m_case(c), m_options(o), m_log(log) {
    if (comm::size() > 1) {
      // Tiled once: every calibration run uses the same tiles.
      const TilingChoice t = choose_tiling(c, comm::size(), log);
      m_case.execution.decomposition = t.ranks;
      m_tiling = to_string(t.ranks, c.dim);
    }
    // Every rank's node is split alike: balance the largest tile.
    const auto n = comm::size() > 1 ? largest_tile(m_case, m_case.execution.decomposition) : c.size;
    const std::array<int, 3> ranks =
        comm::size() > 1 ? m_case.execution.decomposition : std::array<int, 3>{1, 1, 1};
    m_axis = node_split_axis(m_case, ranks);
    const BalanceModel g = node_geometry(c, m_axis, n);
    m_columns = g.columns;
    m_column_sites = g.column_sites;
    m_sites = double(c.size[0]) * c.size[1] * c.size[2];
    m_quantum = g.quantum;
    m_halo = g.min_part;
    m_swap_overlapped = node_swap_overlapped();
  }

  // A split every part of which is at least the halo wide (D2Q37: 3 columns),
  // or a space alone.
  bool valid(int m) const { return valid_split(m_columns, m, m_halo); }
  // Both spaces work at M (neither alone).
  bool shares(int m) const { return m > 0 && 2 * m < m_columns; }

  // Times every split of `ms` in `repeats` interleaved rounds (a fresh node
  // per round and split, so slow drifts of the machine and the luck of
  // allocation placement hit all splits alike) and keeps each split's
  // median round. `concurrent` = false runs the two sides one after the other.
  std::vector<TunePoint> measure(const std::vector<int>& ms, bool concurrent,
                                 const std::string& kind) {
    return measure(ms, concurrent, std::vector<std::string>(ms.size(), kind));
  }
  std::vector<TunePoint> measure(const std::vector<int>& ms, bool concurrent,
                                 const std::vector<std::string>& kind) {
    std::vector<std::vector<DomainTimings>> runs(ms.size());
    std::vector<int> steps(ms.size(), 0);
    for (int round = 0; round < std::max(1, m_options.repeats); ++round)
      for (std::size_t k = 0; k < ms.size(); ++k) {
        Case cm = m_case;
        cm.execution.host_columns = ms[k];
        cm.execution.host_columns_auto = false;
        // One domain at a time: freed before the next is allocated.
        const auto domain = make_domain(cm);
        domain->set_concurrent(concurrent);
        domain->advance(2);  // warm-up: first touch, caches, thread wake-up
        // In place (AA), steps alternate a pull and a local update (the
        // pull steps also swap the halos): time whole pairs.
        const int pair = m_case.execution.streaming == Streaming::aa ? 2 : 1;
        if (steps[k] == 0) {
          domain->reset_timings();
          domain->advance(pair);
          double probe = std::max(domain->timings().total / pair, 1e-6);
          comm::max(&probe, 1);  // every rank the same number of steps
          steps[k] = int(std::clamp(std::ceil(m_options.seconds / probe),
                                    double(std::max(1, m_options.min_steps)), 2000.0));
          steps[k] = (steps[k] + pair - 1) / pair * pair;
        }
        domain->reset_timings();
        domain->advance(steps[k]);
        DomainTimings t = domain->timings();
        // The slowest rank's times, so every rank takes the same decisions.
        double v[6] = {t.total, t.accelerator, t.host, t.exchange, t.mpi, t.transfer};
        comm::max(v, 6);
        t.total = v[0], t.accelerator = v[1], t.host = v[2], t.exchange = v[3], t.mpi = v[4];
        t.transfer = v[5];
        runs[k].push_back(t);
      }
    std::vector<TunePoint> out;
    for (std::size_t k = 0; k < ms.size(); ++k) {
      auto& r = runs[k];
      std::sort(r.begin(), r.end(),
                [](const DomainTimings& a, const DomainTimings& b) { return a.total < b.total; });
      const DomainTimings& t = r[r.size() / 2];
      TunePoint p;
      p.host_columns = ms[k];
      p.kind = kind[k];
      p.concurrent = concurrent;
      const double n = double(t.steps);
      p.step = t.total / n;
      p.accelerator = t.accelerator / n;
      p.host = t.host / n;
      p.exchange = t.exchange / n;
      p.mpi = t.mpi / n;
      p.transfer = t.transfer / n;
      p.mlups = m_sites / p.step * 1e-6;
      log(p);
      m_points.push_back(p);
      out.push_back(p);
    }
    return out;
  }

  void log(const TunePoint& p) const {
    if (!m_log) return;
    *m_log << "tune: M = " << std::setw(5) << p.host_columns << " (host " << std::fixed
           << std::setprecision(1) << std::setw(5) << 100.0 * host_fraction(p.host_columns)
           << " %) " << (p.concurrent ? "concurrent" : "sequential") << ": " << std::setprecision(3)
           << 1e3 * p.step << " ms/step (accelerator " << 1e3 * p.accelerator << ", host "
           << 1e3 * p.host << ", swap " << 1e3 * p.exchange;
    // Overlapped: `swap` is the host side's share (queueing, waiting,
    // unpacking), `lane` the whole swap on the accelerator's halo lane.
    if (m_swap_overlapped) *m_log << " (lane " << 1e3 * p.transfer << ")";
    *m_log << (comm::size() > 1 ? ", mpi " + std::to_string(1e3 * p.mpi) : std::string()) << ")  "
           << std::setprecision(1) << p.mlups << " MLUPS  [" << p.kind << "]" << std::defaultfloat
           << std::endl;
  }

  // Fits T_acc and T_host from splits measured at several M. One space
  // alone (a model check at M = 0 or LX/2) is not a split: its work is not
  // the line's (model.hpp), so it stays out; M = 0's step is m_alone.
  BalanceModel fit(const std::vector<TunePoint>& pts) const {
    std::vector<std::pair<double, double>> acc, host;
    double swap = 0, sync = 0, mpi = 0;
    int both = 0;
    for (const auto& p : pts) {
      if (!shares(p.host_columns)) continue;
      acc.emplace_back((m_columns - 2.0 * p.host_columns) * m_column_sites, p.accelerator);
      host.emplace_back(2.0 * p.host_columns * m_column_sites, p.host - p.mpi);
      swap += p.exchange;
      mpi += p.mpi;
      if (p.concurrent) {
        const double sides = m_swap_overlapped ? std::max(p.accelerator, p.host + p.exchange)
                                               : std::max(p.accelerator, p.host) + p.exchange;
        sync += std::max(0.0, p.step - sides);
        ++both;
      }
    }
    BalanceModel model;
    model.accelerator = LinearCost::fit(acc);
    model.host = LinearCost::fit(host);
    model.swap = swap / double(acc.size());
    model.mpi = mpi / double(acc.size());  // the host side's exchange with other ranks
    model.sync = both ? sync / both : 0.0;
    model.swap_overlapped = m_swap_overlapped;
    model.accelerator_alone = m_alone;
    model.columns = m_columns;
    model.column_sites = m_column_sites;
    model.quantum = m_quantum;
    model.min_part = m_halo;
    return model;
  }

  TuneResult run() {
    const int half = m_columns / 2 / m_quantum * m_quantum;
    // Calibration splits: multiples of the quantum, both parts at least the
    // halo wide and neither side alone.
    const int q = m_quantum;
    const int lowest = (m_halo + q - 1) / q * q;
    const int highest = std::min(half - q, (m_columns - m_halo) / 2 / q * q);
    auto clamp_inner = [&](double m) {
      return std::clamp(int(std::lround(m / q)) * q, lowest, std::max(lowest, highest));
    };
    // 1. Each space alone (one after the other) at three splits.
    std::set<int> iso_m = {clamp_inner(m_columns / 8.0), clamp_inner(m_columns / 4.0),
                           clamp_inner(3 * m_columns / 8.0)};
    if (iso_m.size() < 2 || half < 2 || !valid(*iso_m.begin()) || !valid(*iso_m.rbegin()))
      throw ConfigError(
          m_case.source + ": domain.size",
          std::string("the lattice has too few layers along ") + axis_name(m_axis) + " (" +
              std::to_string(m_columns) + ") to calibrate a host/accelerator split" +
              (m_case.execution.split_axis < 0 ? " (execution.split_axis picks another)" : ""));
    // 0. The accelerator alone, once: the model's T_exe(0) (model.hpp).
    m_alone = measure({0}, true, "accelerator-alone")[0].step;
    const std::vector<TunePoint> iso =
        measure(std::vector<int>(iso_m.begin(), iso_m.end()), false, "calibration-isolated");
    TuneResult r;
    r.isolated = fit(iso);
    // 2. Both at once, timing whole concurrent steps at three splits around
    //    the isolated model's balance point: near balance each side spends
    //    its whole update under the other's load (shared memory system).
    //    Then time M*. If the prediction misses by more than the tolerance
    //    (the machine drifted, or per-site costs bend away from a line: they
    //    vary with block width and with what the other side does),
    //    calibrate again around the best split measured so far and fit all
    //    concurrent points measured until then: more points and a wider
    //    lever than a local fit, whose slopes drown in noise.
    double center = r.isolated.balance_point();
    std::vector<TunePoint> conc;
    std::vector<int> last_calibration;
    for (r.rounds = 1;; ++r.rounds) {
      const double spread = std::max(2.0, m_columns / 16.0);
      std::set<int> conc_m = {clamp_inner(center - spread), clamp_inner(center),
                              clamp_inner(center + spread)};
      if (conc_m.size() < 2) conc_m = iso_m;
      last_calibration.assign(conc_m.begin(), conc_m.end());
      for (const auto& p : measure(last_calibration, true, "calibration-concurrent"))
        conc.push_back(p);
      r.concurrent = fit(conc);
      r.balance_point = r.concurrent.balance_point();
      r.model_columns = r.concurrent.optimum();
      r.predicted_step = r.concurrent.step_time(r.model_columns);
      const TunePoint check = measure({r.model_columns}, true, "model-check")[0];
      conc.push_back(check);
      r.measured_step = check.step;
      if (std::abs(r.predicted_step / r.measured_step - 1) <= m_options.tolerance ||
          r.rounds >= m_options.max_rounds)
        break;
      center = best_concurrent().host_columns;
    }
    // 3. Verify in one interleaved set, so that all candidates see the same
    //    machine: M*, its neighbours, the best calibration split, each space
    //    alone and the optional sweep. M*'s time here is the measured one.
    const int delta = std::max(1, int(std::lround(m_columns / 64.0 / m_quantum))) * m_quantum;
    std::vector<int> verify = {r.model_columns};
    std::vector<std::string> kinds = {"model"};
    auto add = [&](int m, const char* kind) {
      if (!valid(m) || std::find(verify.begin(), verify.end(), m) != verify.end()) return;
      verify.push_back(m);
      kinds.push_back(kind);
    };
    for (int k = 1; k <= m_options.bracket; ++k) {
      add(r.model_columns - k * delta, "bracket");
      add(r.model_columns + k * delta, "bracket");
    }
    add(best_concurrent().host_columns, "bracket");
    for (const int m : last_calibration) add(m, "recalibration");
    if (m_options.alone) add(0, "alone"), add(m_columns / 2, "alone");
    for (int k = 0; k < m_options.sweep; ++k)
      add(int(std::lround(half * (k + 0.5) / m_options.sweep / m_quantum)) * m_quantum, "sweep");
    const std::size_t first = m_points.size();
    measure(verify, true, kinds);
    r.measured_step = m_points[first].step;
    std::vector<TunePoint> window;
    for (std::size_t k = first + 1; k < m_points.size(); ++k) {
      const TunePoint& p = m_points[k];
      if (shares(p.host_columns) && (p.kind == "bracket" || p.kind == "recalibration"))
        window.push_back(p);
    }
    std::set<int> window_m;
    for (const auto& p : window) window_m.insert(p.host_columns);
    if (window_m.size() >= 2) {
      r.window = fit(window);
      r.window_points = int(window.size());
    }
    // 4. Keep the measured best of the verification set; score both models
    //    on it.
    r.best_columns = r.model_columns;
    r.best_step = r.measured_step;
    double e_iso = 0, e_conc = 0;
    int n = 0;
    for (std::size_t k = first; k < m_points.size(); ++k) {
      const TunePoint& p = m_points[k];
      if (p.step < r.best_step) r.best_step = p.step, r.best_columns = p.host_columns;
      e_iso += std::pow(r.isolated.step_time(p.host_columns) / p.step - 1, 2);
      e_conc += std::pow(r.concurrent.step_time(p.host_columns) / p.step - 1, 2);
      ++n;
    }
    r.isolated_rms_error = n ? std::sqrt(e_iso / n) : 0;
    r.concurrent_rms_error = n ? std::sqrt(e_conc / n) : 0;
    r.points = m_points;
    r.columns = m_columns;
    r.split_axis = m_axis;
    r.tiling = m_tiling;
    r.ranks = m_case.execution.decomposition;
    return r;
  }

 private:
  double host_fraction(int m) const { return 2.0 * m / m_columns; }
  const TunePoint& best_concurrent() const {
    const TunePoint* best = nullptr;
    for (const auto& p : m_points)
      if (p.concurrent && (!best || p.step < best->step)) best = &p;
    return *best;
  }

  Case m_case;
  std::string m_tiling = "1x1";
  double m_sites = 0;
  TuneOptions m_options;
  std::ostream* m_log;
  int m_columns = 0;
  int m_quantum = 1;
  int m_axis = 0;                  // the split axis (its layers are the columns)
  int m_halo = 1;                  // the lattice's halo width: the narrowest part
  bool m_swap_overlapped = false;  // node_swap_overlapped: the swap is on the host side's path
  double m_alone = 0;              // the measured step at M = 0, timed first
  double m_column_sites = 0;
  std::vector<TunePoint> m_points;
};

nlohmann::json model_json(const BalanceModel& m) {
  return {{"accelerator",
           {{"overhead_s", m.accelerator.overhead}, {"per_site_s", m.accelerator.per_site}}},
          {"host", {{"overhead_s", m.host.overhead}, {"per_site_s", m.host.per_site}}},
          {"swap_s", m.swap},
          {"mpi_s", m.mpi},
          {"sync_s", m.sync},
          {"swap_overlapped", m.swap_overlapped},
          {"balance_point", m.balance_point()},
          {"optimum", m.optimum()}};
}

}  // namespace

BalanceModel node_geometry(const Case& c, int axis, const std::array<int, 3>& tile) {
  BalanceModel g;
  g.columns = tile[axis];
  g.column_sites = double(tile[0]) * tile[1] * tile[2] / tile[axis];
  // Clustered layouts split along x: splits at multiples of the vector
  // length keep every block's rows whole vectors (no scalar remainder loop
  // per row). Along y or z every layer is whole rows.
  g.quantum = axis == 0 ? c.execution.layout.vector_length : 1;
  if (g.columns / 2 < 4 * g.quantum) g.quantum = 1;  // small lattices: every column
  g.min_part = std::max(lattice_info(c.lattice).halo, wall_layers_needed(c, axis));
  return g;
}

TuneResult tune_node(const Case& c, const TuneOptions& options, std::ostream* log) {
  // Every split timed is a fresh node of the same size: the memory the last
  // one freed serves the next, already touched (not cleared again by the
  // kernel for every split).
  const HostMemoryReuse reuse;
  return Tuner(c, options, log).run();
}

std::string write_tune_outputs(const Case& c, const TuneOptions& options, const TuneResult& r,
                               const std::string& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw std::runtime_error("cannot create " + folder + ": " + ec.message());
  const int lx = r.columns;  // of the tile balanced
  const double sites = double(c.size[0]) * c.size[1] * c.size[2];
  auto mlups = [&](double seconds) { return sites / seconds * 1e-6; };

  std::vector<nlohmann::ordered_json> points, curves;
  for (const auto& p : r.points)
    points.push_back({{"host_columns", p.host_columns},
                      {"host_fraction", 2.0 * p.host_columns / lx},
                      {"kind", p.kind},
                      {"concurrent", p.concurrent},
                      {"step_s", p.step},
                      {"accelerator_s", p.accelerator},
                      {"host_s", p.host},
                      {"exchange_s", p.exchange},
                      {"mpi_s", p.mpi},
                      {"transfer_s", p.transfer},
                      {"mlups", p.mlups},
                      {"model_isolated_s", r.isolated.step_time(p.host_columns)},
                      {"model_concurrent_s", r.concurrent.step_time(p.host_columns)}});
  write_atomically(folder + "/tune.csv", csv_of(points));
  const bool window = r.window_points > 0;
  for (int k = 0; k <= 200; ++k) {
    const int m = int(std::lround(lx / 2 * k / 200.0));
    curves.push_back({{"host_columns", m},
                      {"host_fraction", 2.0 * m / lx},
                      {"mlups_isolated_model", mlups(r.isolated.step_time(m))},
                      {"mlups_concurrent_model", mlups(r.concurrent.step_time(m))}});
    if (window) curves.back()["mlups_window_model"] = mlups(r.window.step_time(m));
  }
  write_atomically(folder + "/tune_model.csv", csv_of(curves));

  nlohmann::json j;
  j["case"] = c.source;
  j["lattice"] = to_string(c.lattice);
  j["precision"] = to_string(c.precision);
  j["size"] = c.size;
  j["layout"] = to_string(c.execution.layout);
  j["kernel"] = to_string(c.execution.kernel);
  j["streaming"] = c.execution.streaming == Streaming::aa ? "aa" : "two_buffer";
  j["columns"] = lx;
  j["split_axis"] = axis_name(r.split_axis);
  j["tiling"] = r.tiling;
  j["kokkos"] = {{"accelerator", Kokkos::DefaultExecutionSpace::name()},
                 {"accelerator_concurrency", Kokkos::DefaultExecutionSpace().concurrency()}};
  j["options"] = {{"seconds", options.seconds},     {"repeats", options.repeats},
                  {"bracket", options.bracket},     {"sweep", options.sweep},
                  {"tolerance", options.tolerance}, {"max_rounds", options.max_rounds}};
  j["calibration_rounds"] = r.rounds;
  j["model_isolated"] = model_json(r.isolated);
  j["model_concurrent"] = model_json(r.concurrent);
  j["model_host_columns"] = r.model_columns;
  if (const std::string why = r.concurrent.why_alone(); !why.empty()) j["why_alone"] = why;
  j["predicted_step_s"] = r.predicted_step;
  j["measured_step_s"] = r.measured_step;
  j["prediction_error"] = r.predicted_step / r.measured_step - 1;
  if (window) {
    const double predicted = r.window.step_time(r.model_columns);
    j["model_window"] = model_json(r.window);
    j["window_points"] = r.window_points;
    j["window_predicted_step_s"] = predicted;
    j["window_prediction_error"] = predicted / r.measured_step - 1;
    j["window_model_host_columns"] = r.window.optimum();
  }
  j["best_host_columns"] = r.best_columns;
  j["best_step_s"] = r.best_step;
  j["best_mlups"] = mlups(r.best_step);
  j["best_minus_model_columns_fraction"] = double(r.best_columns - r.model_columns) / lx;
  j["rms_error_isolated_model"] = r.isolated_rms_error;
  j["rms_error_concurrent_model"] = r.concurrent_rms_error;
  double acc_alone = 0, host_alone = 0;
  // Each space alone: M = 0 and M = LX/2 of the verification set, whatever
  // their kind there (M* itself may be 0 or LX/2); it is measured last.
  for (const auto& p : r.points) {
    if (!p.concurrent) continue;
    if (p.host_columns == 0) acc_alone = p.mlups;
    if (p.host_columns == lx / 2 && lx / 2 > 0) host_alone = p.mlups;
  }
  if (acc_alone > 0 && host_alone > 0) {
    j["accelerator_alone_mlups"] = acc_alone;
    j["host_alone_mlups"] = host_alone;
    j["speedup_over_faster_alone"] = mlups(r.best_step) / std::max(acc_alone, host_alone);
  }
  j["points"] = points;
  const std::string json_path = folder + "/tune.json";
  write_atomically(json_path, j.dump(2) + "\n");

  // The measured points by their CSV columns' names (1-based for gnuplot):
  // a fixed number drifted when mpi_s was added and plotted it instead.
  const auto column = [&](const char* key) {
    int k = 1;
    for (const auto& item : points.front().items()) {
      if (item.key() == key) return k;
      ++k;
    }
    throw std::logic_error(std::string("tune.csv has no column ") + key);
  };
  std::ofstream gp(folder + "/tune.gp");
  gp << "set terminal pngcairo size 1000,650\nset output '" << folder << "/tune.png'\n"
     << "set datafile separator ','\nset key outside bottom center horizontal\n"
     << "set xlabel 'host fraction 2M/LX'\nset ylabel 'MLUPS'\nset grid\nset xrange [0:1]\n"
     << "set title '" << to_string(c.lattice) << " " << to_string(c.precision) << " "
     << to_string(c.size, c.dim) << ": model M* = " << r.model_columns
     << ", measured best M = " << r.best_columns << "'\n"
     << "set arrow from " << 2.0 * r.model_columns / lx << ", graph 0 to "
     << 2.0 * r.model_columns / lx << ", graph 1 nohead dt 3 lc rgb 'gray40'\n"
     << "plot '" << folder << "/tune_model.csv' every ::1 using 2:4 with lines lw 2 title "
     << "'model (concurrent calibration)', '' every ::1 using 2:3 with lines dt 2 title "
     << "'model (isolated calibration)', "
     << (window ? "'' every ::1 using 2:5 with lines dt 4 lw 2 title 'model (refitted in the "
                  "verification window)', "
                : "")
     << "'" << folder << "/tune.csv' every ::1 using "
     << "($" << column("concurrent") << "==1?$" << column("host_fraction")
     << ":1/0):" << column("mlups") << " with points pt 7 ps 1.2 title 'measured (concurrent)'\n";
  gp.close();
  run_gnuplot(folder + "/tune.gp", "kolb tune");
  return json_path;
}

}  // namespace kolb
