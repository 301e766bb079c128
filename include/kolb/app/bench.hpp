#pragma once
// run_bench(): `kolb bench BENCH.yaml`. In one process it measures the STREAM
// triad on the solver's execution space, then every requested lattice x
// precision x layout x kernel (fused StreamCollide, in-place AA, Propagate,
// Collide), and
// reports MLUPS, effective GB/s (2 Q sizeof(scalar) bytes per site update)
// and % of the stream bound, as CSV, JSON and a PNG plot.

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
};

struct BenchResult {
  double triad_gbs = 0;
  std::vector<BenchRow> rows;
  std::string folder;
};

// Throws ConfigError for bad input.
BenchResult run_bench(const std::string& file, const std::vector<std::string>& overrides,
                      std::ostream& log);

}  // namespace kolb
