#pragma once
// run_bench(): `kolb bench BENCH.yaml`. In one process it measures every
// requested lattice x precision x layout x kernel (fused StreamCollide,
// in-place AA, Propagate, Collide) and reports MLUPS, effective GB/s (2 Q
// sizeof(scalar) bytes per site update) and % of the bound of the same
// access pattern, measured between the row's repeats on the same
// space (kernels/stream_probes.hpp: copy for two-buffer kernels, in-place
// update for AA and Collide), with % of the STREAM triad beside it; as CSV,
// JSON and a PNG plot. D2Q37 rows also report GFLOP/s and % of the
// measured FP64 peak.

#include <iosfwd>
#include <string>
#include <vector>

namespace kolb {

struct BenchRow {
  std::string lattice, precision, layout, kernel;
  std::vector<int> size;
  double seconds_per_step = 0;  // the median of the repeats (what a run sustains)
  double mlups = 0;
  double mlups_best = 0;      // the fastest repeat
  double gbs = 0;             // effective: 2 Q sizeof(scalar) bytes per update
  std::string bound_pattern;  // "copy" or "update": the probe with this kernel's access pattern
  double bound_gbs = 0;       // that probe, best in windows before, between and after the repeats
  double probe_one_stream_gbs = 0;  // the probe over one stream (bound_gbs is the better of
  double probe_q_streams_gbs = 0;   // it and the probe over the lattice's Q streams)
  double percent_bound = 0;         // gbs / bound_gbs
  double percent_triad = 0;         // gbs / the STREAM triad (the familiar reference)
  // The bench's timeline of the row (bench.json): seconds per step of each
  // repeat and the probe (GB/s) of each window, window 0 before repeat 0.
  std::vector<double> repeat_seconds, window_gbs;
  // Compute-bound D2Q37 rows: operations per site the collision executes
  // (counted, fma = 2), GFLOP/s and % of the FP64 peak measured in the same
  // windows as the bandwidth bounds (the best of them).
  double flops_per_site = 0;
  double gflops = 0;
  double peak_gflops = 0;
  double percent_peak = 0;
};

struct BenchResult {
  double triad_gbs = 0;    // best of the triads before and after all rows
  double peak_gflops = 0;  // best FP64 FMA peak measured on the same space (PeakFlops)
  // GPU builds: plain grid-stride copy, update and triad without Kokkos
  // (kernels/grid_stride_probe.hpp), GB/s; 0 elsewhere.
  double grid_stride_copy = 0, grid_stride_update = 0, grid_stride_triad = 0;
  std::vector<BenchRow> rows;
  std::string folder;
};

// Throws ConfigError for bad input.
BenchResult run_bench(const std::string& file, const std::vector<std::string>& overrides,
                      std::ostream& log);

}  // namespace kolb
