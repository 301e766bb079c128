// `kolb bench`: the plan read from the bench file, the measurements (the
// same-pattern probe around every kernel row, the triad, the FP64 peak for
// D2Q37), and the outputs.

#include <kolb/app/bench.hpp>
#include <kolb/app/bench_windows.hpp>
#include <kolb/app/input.hpp>
#include <kolb/config.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/kernels/grid_stride_probe.hpp>
#include <kolb/kernels/peak_flops.hpp>
#include <kolb/kernels/stream_probes.hpp>
#include <kolb/model/lattice_info.hpp>
#include <kolb/model/thermal/collision.hpp>

#include <nlohmann/json.hpp>

#include "output_files.hpp"
#include "yaml_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <type_traits>

namespace kolb {

namespace {

using yaml::Map;
using yaml::Reader;

// The D2Q37 collide kernel's operation count in the model authors' code
// (docs/reference/d2q37.md §12, NFLOP): GFLOP/s "at the reference count", as their papers
// report them. Ours does fewer operations (Hermite-space relaxation, exact
// zeros skipped), so % of peak uses the operations it really executes.
constexpr double kReferenceFlopsPerSite = 6613;

#if !defined(__CUDACC__) && !defined(__HIPCC__)
// A scalar that counts the floating-point operations a collision executes:
// + - * / one each, fma two, conversions and negation none. Common
// subexpressions the compiler might merge are counted each time (an upper
// bound; the D2Q37 collision has few, site constants are hoisted by hand).
struct CountedScalar {
  double v = 0;
  static inline long long ops = 0;
  CountedScalar() = default;
  CountedScalar(double x) : v(x) {}  // NOLINT: implicit, like a double
  friend CountedScalar operator+(CountedScalar a, CountedScalar b) { return ++ops, a.v + b.v; }
  friend CountedScalar operator-(CountedScalar a, CountedScalar b) { return ++ops, a.v - b.v; }
  friend CountedScalar operator*(CountedScalar a, CountedScalar b) { return ++ops, a.v * b.v; }
  friend CountedScalar operator/(CountedScalar a, CountedScalar b) { return ++ops, a.v / b.v; }
  [[maybe_unused]] friend CountedScalar operator-(CountedScalar a) { return -a.v; }
  CountedScalar& operator+=(CountedScalar b) { return *this = *this + b; }
  friend CountedScalar fma(CountedScalar a, CountedScalar b, CountedScalar c) {
    return ops += 2, a.v * b.v + c.v;
  }
};

// Operations of one D2Q37 collision at a typical site.
double d2q37_collision_flops(bool regularized) {
  CountedScalar f[D2Q37::q];
  for (int i = 0; i < D2Q37::q; ++i) f[i] = thermal::equilibrium<double>(i, 1.0, 0.05, -0.02, 1.0);
  CountedScalar::ops = 0;
  if (regularized) {
    ThermalCollision<CountedScalar, true> c;
    c.tau_const[0] = c.tau_const[1] = 0.5, c.tau_const[2] = 1.0;
    c.tau_per_pressure[0] = c.tau_per_pressure[1] = 0.001;
    c(f);
  } else {
    ThermalCollision<CountedScalar, false> c;
    c.tau_const[0] = 0.6;
    c(f);
  }
  return double(CountedScalar::ops);
}
#else
// Device compilers would warn about the host-only counting scalar inside the
// host-device collision; CPU builds count (the operations are the same).
double d2q37_collision_flops(bool) { return 0; }
#endif

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

// The run whose domain times a kernel (aa, fused, or split: propagate and
// collide): each stores its host rows as its step plan's RowStorage says.
enum class BenchRun { fused, split, aa };
BenchRun bench_run(BenchKernel k, LatticeId l) {
  if (k == BenchKernel::aa && lattice_info(l).in_place_streaming) return BenchRun::aa;
  return k == BenchKernel::propagate || k == BenchKernel::collide ? BenchRun::split
                                                                  : BenchRun::fused;
}

// A periodic box with a uniform flow: every site runs the bulk path.
// D2Q37: the collision named in the bench file (regularized: the authors'
// production kernel, with their relaxation constants).
Case bench_case(const VariantKey& v, const std::vector<int>& size, Collision collision,
                BenchRun run) {
  const bool d3 = lattice_info(v.lattice).dim == 3;
  const std::string physics = !lattice_info(v.lattice).has_temperature ? "{tau: 0.6}"
                              : collision == Collision::regularized
                                  ? "{collision: regularized, relaxation_constants: "
                                    "[0.001, 0.001, 0.5], gravity: [0, -2.6e-6]}"
                                  : "{collision: bgk, tau: 0.6, gravity: [0, -2.6e-6]}";
  std::ostringstream y;
  y << "lattice: " << to_string(v.lattice) << "\nprecision: " << to_string(v.precision)
    << "\ndomain: {size: [" << size[0] << ", " << size[1]
    << (d3 ? ", " + std::to_string(size[2]) : "") << "]}\nphysics: " << physics
    << "\nboundaries: {x-: periodic, x+: periodic, y-: periodic, y+: periodic"
    << (d3 ? ", z-: periodic, z+: periodic" : "") << "}\n"
    << "initial: {type: uniform, velocity: " << (d3 ? "[0.05, 0.02, 0.01]" : "[0.05, 0.02]")
    << "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
  std::vector<std::string> sets = {"execution.layout=" + to_string(v.layout.kind)};
  if (run == BenchRun::aa) sets.push_back("execution.streaming=aa");
  if (run == BenchRun::split) sets.push_back("execution.kernel=split");
  if (v.layout.vector_length > 1)
    sets.push_back("execution.vector_length=" + std::to_string(v.layout.vector_length));
  return read_case_string(y.str(), "<bench>", sets);
}

void write_plot(const BenchResult& r, const std::string& dir) {
  // One bar per layout, grouped by lattice/precision/kernel (gnuplot, if installed).
  const std::string data = dir + "/bench_plot.dat";
  {
    std::ofstream out(data);
    for (const auto& row : r.rows)
      out << row.lattice << "/" << row.precision << "/" << row.layout << "/" << row.kernel << ' '
          << row.percent_bound << ' ' << row.percent_triad << '\n';
  }
  std::ofstream gp(dir + "/bench_plot.gp");
  gp << "set terminal pngcairo size 1400,700\nset output '" << dir << "/bench.png'\n"
     << "set style fill solid 0.7\nset boxwidth 0.4\nset ylabel '% of bound'\n"
     << "set title 'kolb kernels vs the same-pattern probe (copy / in-place update) and the "
        "STREAM triad ("
     << std::fixed << std::setprecision(1) << r.triad_gbs
     << " GB/s)'\nset xtics rotate by 60 right font ',8'\nset yrange [0:*]\n"
     << "set grid ytics\nplot '" << data
     << "' using ($0-0.2):2:xtic(1) with boxes title 'same-pattern probe', '' using "
        "($0+0.2):3 with boxes title 'triad'\n";
  gp.close();
  run_gnuplot(dir + "/bench_plot.gp", "kolb bench");
}

// What a bench file asks for, validated.
struct BenchPlan {
  std::vector<LatticeId> lattices;
  std::vector<Precision> precisions;
  std::vector<LayoutId> layouts;
  std::vector<BenchKernel> kernels;
  std::map<LatticeId, std::vector<int>> sizes;
  Collision thermal_collision = Collision::regularized;
  int steps = 10, repeats = 3;
  double triad_megabytes = 1536;
  std::string folder;
};

BenchPlan read_plan(const std::string& file, const std::vector<std::string>& overrides) {
  YAML::Node root = yaml::load_file(file, "benchmark");
  const Reader reader(file, yaml::apply_overrides(root, overrides));
  const Map top(reader, root, "",
                {"lattices", "precisions", "layouts", "kernels", "size", "steps", "repeats",
                 "triad_megabytes", "output", "d2q37_collision"});
  // A non-empty list of names, each parsed by `parse_item`.
  auto list = [&](const std::string& key, auto parse_item,
                  const std::vector<std::string>& allowed) {
    const YAML::Node n = top.get(key);
    if (!n.IsSequence() || n.size() == 0)
      reader.fail(n, key, "expected a non-empty list, got " + yaml::yaml_text(n));
    std::vector<std::decay_t<decltype(*parse_item(std::string()))>> v;
    for (std::size_t i = 0; i < n.size(); ++i) {
      const std::string p = key + "[" + std::to_string(i) + "]";
      const auto item = parse_item(top.as_text(n[i], p));
      if (!item)
        reader.fail(n[i], p,
                    yaml::quoted(n[i].Scalar()) + " is not one of: " + yaml::join(allowed));
      v.push_back(*item);
    }
    return v;
  };
  BenchPlan plan;
  plan.lattices = list("lattices", parse<LatticeId>, names<LatticeId>());
  plan.precisions = list("precisions", parse<Precision>, names<Precision>());
  plan.kernels = list("kernels", parse<BenchKernel>, names<BenchKernel>());
  std::vector<std::string> layout_names;  // of this build
  for (const VariantKey& v : compiled_variants())
    if (std::find(layout_names.begin(), layout_names.end(), to_string(v.layout)) ==
        layout_names.end())
      layout_names.push_back(to_string(v.layout));
  plan.layouts = list("layouts", parse_layout, layout_names);
  if (top.has("d2q37_collision")) plan.thermal_collision = top.choice<Collision>("d2q37_collision");
  for (std::size_t i = 0; i < plan.layouts.size(); ++i)
    for (const LatticeId l : plan.lattices)
      for (const Precision p : plan.precisions) {
        const VariantKey v{l, p, plan.layouts[i]};
        // D2Q37 is FP64 unless float was compiled too, and fp16 is compiled for
        // the unit-stride layouts only: those are skipped at run time.
        if (!variant_compiled(v) && p != Precision::fp16 &&
            !(l == LatticeId::D2Q37 && p != Precision::float64))
          reader.fail(
              top.get("layouts")[i], "layouts[" + std::to_string(i) + "]",
              to_string(v) + " is not compiled into this build (`kolb info` lists the variants)");
      }
  const Map s(reader, top.get("size"), "size", names<LatticeId>());
  for (const LatticeId l : plan.lattices) {
    const auto v = s.numbers(to_string(l), std::size_t(lattice_info(l).dim));
    for (const double x : v)
      if (!(x >= 8 && x == std::floor(x))) s.fail(to_string(l), "sizes must be integers >= 8");
    plan.sizes[l] = std::vector<int>(v.begin(), v.end());
  }
  plan.steps = int(top.at_least("steps", 1));
  plan.repeats = int(top.at_least("repeats", 1, 3));
  plan.triad_megabytes = top.number("triad_megabytes", 1536);
  if (!(plan.triad_megabytes >= 1))
    reader.fail(top.get("triad_megabytes"), "triad_megabytes", "must be >= 1");
  plan.folder = top.text("output");
  std::error_code ec;
  std::filesystem::create_directories(plan.folder, ec);
  if (ec || !std::filesystem::is_directory(plan.folder))
    reader.fail(top.get("output"), "output", "cannot create folder '" + plan.folder + "'");
  return plan;
}

// Timings in each probe window (per variant of the pattern).
constexpr int kWindowTimings = 3;

// A row as bench.json and bench.csv hold it.
nlohmann::ordered_json row_json(const BenchRow& r) {
  return {{"lattice", r.lattice},
          {"precision", r.precision},
          {"layout", r.layout},
          {"kernel", r.kernel},
          {"size", r.size},
          {"seconds_per_step", r.seconds_per_step},
          {"mlups", r.mlups},
          {"mlups_best", r.mlups_best},
          {"gbs", r.gbs},
          {"bound_pattern", r.bound_pattern},
          {"bound_gbs", r.bound_gbs},
          {"probe_one_stream_gbs", r.probe_one_stream_gbs},
          {"probe_q_streams_gbs", r.probe_q_streams_gbs},
          {"percent_of_bound", r.percent_bound},
          {"percent_of_triad", r.percent_triad},
          {"repeat_seconds_per_step", r.repeat_seconds},
          {"window_probe_gbs", r.window_gbs},
          {"flops_per_site", r.flops_per_site},
          {"gflops", r.gflops},
          {"fp64_peak_gflops", r.peak_gflops},
          {"percent_of_fp64_peak", r.percent_peak},
          {"gflops_at_reference_count",
           r.flops_per_site > 0 ? r.mlups * 1e6 * kReferenceFlopsPerSite * 1e-9 : 0.0}};
}

void write_results(const BenchResult& result, const BenchPlan& plan, double triad_before,
                   double triad_after) {
  using exec = Kokkos::DefaultExecutionSpace;
  nlohmann::ordered_json j;
  j["kolb_version"] = KOLB_VERSION_STRING;
  j["machine"] = {{"cpu", cpu_model()},
                  {"execution_space", exec::name()},
                  {"concurrency", exec().concurrency()},
                  {"compiler", KOLB_CXX_COMPILER},
                  {"ieee_order", bool(KOLB_IEEE_ORDER)},
                  {"host_last_level_cache_bytes", host::last_level_cache_bytes()}};
  j["triad_gbs"] = result.triad_gbs;
  if (result.peak_gflops > 0) {
    j["fp64_peak_gflops"] = result.peak_gflops;
    j["d2q37_collision"] = to_string(plan.thermal_collision);
    j["flops_per_site"] =
        "D2Q37 fused/collide: operations the collision executes, counted with a counting "
        "scalar (fma = 2); gflops_at_reference_count uses the authors' 6613 "
        "(docs/reference/d2q37.md §12)";
  }
  j["triad_gbs_before_after"] = std::vector<double>{triad_before, triad_after};
  if (result.grid_stride_triad > 0)
    j["grid_stride_gbs"] = {{"copy", result.grid_stride_copy},
                            {"update", result.grid_stride_update},
                            {"triad", result.grid_stride_triad},
                            {"what",
                             "plain CUDA/HIP grid-stride kernels without Kokkos; a copy or "
                             "update row's bound is at least these"}};
  j["bytes_per_update"] = "2 Q sizeof(scalar) (write-allocate not counted, as in STREAM)";
  j["timed"] =
      "fused and aa: whole steps of a periodic box as a run on one block takes them (the periodic "
      "halo fills, and AA's push-back after its pull steps); propagate (after the same halo "
      "fills) and collide: the two halves of a split step; mlups: the median of the repeats, "
      "mlups_best the fastest";
  j["bounds"] =
      "each row against the probe of its access pattern on the same space, timed in windows "
      "before, between and after the row's repeats (3 timings each): the best window, each the "
      "better of one stream and the lattice's Q concurrent streams over one population buffer's "
      "bytes: "
      "copy b[i] = a[i] (16 B per element) for fused and propagate, in-place update "
      "a[i] = s a[i] (16 B) for aa and collide; "
      "percent_of_triad against the best STREAM triad (24 B) before and after all rows";
  j["timeline"] =
      "repeat_seconds_per_step: each repeat in the order run; window_probe_gbs: the probe "
      "(better of one and Q streams) in the window before each repeat and after the last";
  std::vector<nlohmann::ordered_json> rows, csv_rows;
  for (const auto& r : result.rows) {
    rows.push_back(row_json(r));
    csv_rows.push_back(rows.back());  // one value a field: the timeline stays in the JSON
    csv_rows.back().erase("repeat_seconds_per_step");
    csv_rows.back().erase("window_probe_gbs");
  }
  j["rows"] = rows;
  write_atomically(result.folder + "/bench.csv", csv_of(csv_rows));
  write_atomically(result.folder + "/bench.json", j.dump(2) + "\n");
  write_plot(result, result.folder);
}

}  // namespace

BenchResult run_bench(const std::string& file, const std::vector<std::string>& overrides,
                      std::ostream& log) {
  const BenchPlan plan = read_plan(file, overrides);
  // Each variant's Domains reuse the host memory the last one freed, already
  // touched (HostMemoryReuse: off where the host has several NUMA nodes).
  const HostMemoryReuse reuse;
  BenchResult result;
  result.folder = plan.folder;
  using exec = Kokkos::DefaultExecutionSpace;
  const index_t n_triad = index_t(plan.triad_megabytes * 1e6 / (3 * sizeof(double)));
  // A row's probe: one stream and the lattice's Q streams (the better
  // counts) over the bytes of one population buffer of the row's case,
  // halos included: the kernel's pattern and footprint.
  auto probe_key = [&](LatticeId l, Precision p) {
    const LatticeInfo& info = lattice_info(l);
    const std::vector<int>& sz = plan.sizes.at(l);
    double sites = 1;
    for (int a = 0; a < info.dim; ++a) sites *= sz[a] + 2 * info.halo;
    const double bytes = sites * info.q * stored_bytes(p);
    return std::make_pair(info.q, index_t(bytes / sizeof(double)));
  };
  index_t n = n_triad;
  for (const LatticeId l : plan.lattices)
    for (const Precision p : plan.precisions) n = std::max(n, probe_key(l, p).second);
  // A row's bound is its pattern's best probe in windows before, between and
  // after its repeats (time_between_probes): a shared machine's bandwidth
  // drifts within minutes.
  const StreamProbes<exec> probes(exec(), n);
  const int probe_repeats = 2 * plan.repeats;
  const double triad_before = probes.measure(StreamPattern::triad, plan.repeats, 1, n_triad);
  result.triad_gbs = triad_before;
#if defined(KOLB_GPU)
  // The Kokkos probes must reach what plain kernels reach; rows are judged
  // against the better of the two.
  if constexpr (!is_host_space_v<exec>) {
    const GridStrideRates g = grid_stride_rates(std::size_t(n_triad), probe_repeats);
    result.grid_stride_copy = g.copy, result.grid_stride_update = g.update;
    result.grid_stride_triad = g.triad;
    log << "plain grid-stride kernels (no Kokkos) over arrays of " << std::fixed
        << std::setprecision(0) << plan.triad_megabytes / 3 << " MB: copy " << std::setprecision(1)
        << g.copy << ", in-place update " << g.update << ", triad " << g.triad << " GB/s\n";
  }
#endif
  const bool thermal = std::count(plan.lattices.begin(), plan.lattices.end(), LatticeId::D2Q37);
  const double counted =
      thermal ? d2q37_collision_flops(plan.thermal_collision == Collision::regularized) : 0;
  // The peak is measured again in the windows of every compute-bound row: on a shared
  // machine the cores' speed moves as the bandwidth does, and a peak from
  // another minute let a row read above 100 %. Each timing is a few ms
  // (0.13 GFLOP per host thread; on a GPU, 4 work items per resident thread).
  const index_t peak_items = (is_host_space_v<exec> ? 512 : 4) * exec().concurrency();
  const auto measure_peak = [&] {
    const double gflops = PeakFlops<exec>::measure(exec(), peak_items, probe_repeats);
    result.peak_gflops = std::max(result.peak_gflops, gflops);
    return gflops;
  };
  if (thermal) {
    measure_peak();
    log << "FP64 FMA peak on " << exec::name() << ": " << std::fixed << std::setprecision(1)
        << result.peak_gflops << " GFLOP/s\n";
  }
  log << "probes on " << exec::name() << " (" << exec().concurrency() << " threads): triad "
      << std::fixed << std::setprecision(1) << triad_before << " GB/s over arrays of "
      << std::setprecision(0) << plan.triad_megabytes / 3 << " MB";
  log << "; each row's copy or update bound is measured between its repeats (bench.json: "
         "bound_gbs, window_probe_gbs)\n";
  log << std::left << std::setw(8) << "lattice" << std::setw(8) << "prec" << std::setw(10)
      << "layout" << std::setw(10) << "kernel" << std::right << std::setw(9) << "MLUPS"
      << std::setw(9) << "GB/s" << std::setw(17) << "%bound (probe)\n";

  // Host rows whose buffer the last-level cache could hold in good part run
  // partly from it, as their probes do, by what other programs leave there
  // (a server's L3 of hundreds of MiB holds D2Q9 FP32 at 2048^2): said next
  // to them rather than taken as memory bandwidth.
  const double llc = std::is_same<exec::memory_space, Kokkos::HostSpace>::value
                         ? double(host::last_level_cache_bytes())
                         : 0.0;
  for (const LatticeId l : plan.lattices)
    for (const Precision p : plan.precisions) {
      const double buffer = double(probe_key(l, p).second) * sizeof(double);
      if (buffer < 2 * llc)
        log << "note: " << to_string(l) << " " << to_string(p) << ": a population buffer of "
            << std::setprecision(0) << buffer * 1e-6 << " MB is within twice the "
            << llc / double(1 << 20)
            << " MiB last-level cache this CPU reports; its rows and their probes may run "
               "partly from that cache, by what other programs leave in it\n";
      for (const LayoutId& y : plan.layouts) {
        const VariantKey v{l, p, y};
        if (!variant_compiled(v)) {
          log << to_string(v) << ": not compiled, skipped\n";
          continue;
        }
        const std::vector<int>& sz = plan.sizes.at(l);
        const double sites = double(sz[0]) * sz[1] * (sz.size() > 2 ? sz[2] : 1);
        const double bytes = 2.0 * lattice_info(l).q * stored_bytes(p);
        // Each kernel runs on the domain of the run that takes its steps
        // (bench_run), grouped by run: fused, split, then AA, one domain at
        // a time (the freed memory serves the next).
        std::vector<BenchKernel> kernels = plan.kernels;
        std::stable_sort(kernels.begin(), kernels.end(), [&](BenchKernel a, BenchKernel b) {
          return int(bench_run(a, l)) < int(bench_run(b, l));
        });
        std::unique_ptr<Domain> domain;
        BenchRun domain_run = BenchRun::fused;
        for (const BenchKernel k : kernels) {
          const BenchRun run = bench_run(k, l);
          if (!domain || run != domain_run) {
            domain.reset();
            domain = make_domain(bench_case(v, sz, plan.thermal_collision, run));
            domain_run = run;
          }
          domain->only_part().time_kernel(k, 2);  // warm up (first touch done at allocation)
          const bool in_place = k == BenchKernel::aa || k == BenchKernel::collide;
          const StreamPattern pattern = in_place ? StreamPattern::update : StreamPattern::copy;
          // Not a structured binding: nvcc's C++17 cannot capture one.
          const std::pair<int, index_t> key = probe_key(l, p);
          const bool compute_bound = l == LatticeId::D2Q37 &&
                                     (k == BenchKernel::fused || k == BenchKernel::collide) &&
                                     counted > 0;
          const TimedRow timed = time_between_probes(
              [&] { return domain->only_part().time_kernel(k, plan.steps) / plan.steps; },
              [&] {
                return probes.measure_streams(pattern, kWindowTimings, key.first, key.second);
              },
              [&] { return compute_bound ? measure_peak() : 0.0; }, plan.repeats);
          const double plain =
              in_place ? result.grid_stride_update : result.grid_stride_copy;  // 0 on CPUs
          const double bound = std::max({timed.one, timed.many, plain});
          BenchRow row;
          row.lattice = to_string(l), row.precision = to_string(p);
          row.layout = to_string(y), row.kernel = to_string(k);
          row.size = sz;
          row.seconds_per_step = timed.median;
          row.mlups = sites / timed.median * 1e-6;
          row.mlups_best = sites / timed.best * 1e-6;
          row.gbs = row.mlups * 1e6 * bytes * 1e-9;
          row.bound_pattern = in_place ? "update" : "copy";
          row.bound_gbs = bound;
          row.probe_one_stream_gbs = timed.one;
          row.probe_q_streams_gbs = timed.many;
          row.repeat_seconds = timed.seconds, row.window_gbs = timed.windows;
          row.percent_bound = 100.0 * row.gbs / bound;
          if (compute_bound) {
            row.flops_per_site = counted;
            row.gflops = row.mlups * 1e6 * row.flops_per_site * 1e-9;
            row.peak_gflops = timed.peak;
            row.percent_peak = 100.0 * row.gflops / row.peak_gflops;
          }
          result.rows.push_back(row);
          log << std::left << std::setw(8) << row.lattice << std::setw(8) << row.precision
              << std::setw(10) << row.layout << std::setw(10) << row.kernel << std::right
              << std::setprecision(1) << std::setw(9) << row.mlups << std::setw(9) << row.gbs
              << std::setw(7) << row.percent_bound << "% (" << std::setw(6) << row.bound_pattern
              << ")";
          log << "  Q-stream probe " << std::setw(5) << 100.0 * row.gbs / timed.many << "%";
          if (row.percent_bound > 100)
            log << "  above its probes: the kernel moved its bytes faster than the "
                << row.bound_pattern
                << " probes over one and over Q streams of the same size (the bandwidth moved "
                   "between the probes and the row, or the kernel's streams suit the memory "
                   "system better); this bound is approximate here";
          if (row.flops_per_site > 0)
            log << "  " << row.flops_per_site << " flop/site: " << row.gflops
                << " GFLOP/s = " << row.percent_peak << "% of the FP64 peak next to it ("
                << row.peak_gflops << "; " << row.mlups * kReferenceFlopsPerSite * 1e-3
                << " at the reference's 6613)";
          if (row.percent_peak > 100)
            log << "  above the peak: the cores ran faster during the row than during the "
                   "peak probes around it; this percentage is approximate here";
          log << std::endl;
        }
      }
    }

  const double triad_after = probes.measure(StreamPattern::triad, plan.repeats, 1, n_triad);
  log << "STREAM triad again: " << std::setprecision(1) << triad_after << " GB/s\n";
  result.triad_gbs = std::max(result.triad_gbs, triad_after);
  for (BenchRow& row : result.rows) row.percent_triad = 100.0 * row.gbs / result.triad_gbs;
  write_results(result, plan, triad_before, triad_after);
  log << "wrote " << result.folder << "/bench.csv, bench.json, bench.png\n";
  return result;
}

}  // namespace kolb
