#pragma once
// run_bench(): `kolb bench BENCH.yaml`. In one process it measures the STREAM
// triad on the solver's execution space, then every requested lattice x
// precision x layout x kernel (fused StreamCollide, in-place AA, Propagate,
// Collide), and
// reports MLUPS, effective GB/s (2 Q sizeof(scalar) bytes per site update)
// and % of the stream bound, as CSV, JSON and a PNG plot. D2Q37 rows also
// report GFLOP/s and % of the measured FP64 peak.

#include <iosfwd>
#include <string>
#include <vector>

namespace kolb {

struct BenchRow {
  std::string lattice, precision, layout, kernel;
  std::vector<int> size;
  double seconds_per_step = 0;
  double mlups = 0;
  double gbs = 0;            // effective: 2 Q sizeof(scalar) bytes per update
  double percent_bound = 0;  // of triad GB/s / (2 Q sizeof(scalar))
  double triad_gbs = 0;      // triad measured just before this row's group of kernels
  // Compute-bound D2Q37 rows: operations per site the collision executes
  // (counted, fma = 2), GFLOP/s and % of the measured FP64 peak.
  double flops_per_site = 0;
  double gflops = 0;
  double percent_peak = 0;
};

struct BenchResult {
  double triad_gbs = 0;
  double peak_gflops = 0;  // FP64 FMA peak measured on the same space (PeakFlops)
  std::vector<BenchRow> rows;
  std::string folder;
};

// Throws ConfigError for bad input.
BenchResult run_bench(const std::string& file, const std::vector<std::string>& overrides,
                      std::ostream& log);

}  // namespace kolb
