#pragma once
// run_batch(): `kolb batch BATCH.yaml`. A base case plus sweeps over any
// dotted key (cartesian `sweep`, or `zip`: lists varied together), each run
// a `kolb run` process of its own in <output>/runs/<name>/, named from its
// parameters; a summary row per run (parameters, status, MLUPS, % of the
// STREAM bound, final observables, wall time) in summary.csv / .json,
// rewritten after every run. A failed run is recorded and the batch goes
// on; running the batch again skips the runs that finished and continues
// interrupted ones from their checkpoints. Schema: docs/user-guide.md.

#include <iosfwd>
#include <string>
#include <vector>

namespace kolb {

struct BatchResult {
  int runs = 0, completed = 0, skipped = 0, failed = 0;
  bool interrupted = false;  // a signal stopped the batch (run it again to resume)
  int signal = 0;
  std::string summary;  // path of summary.csv
};

// `kolb_binary`: the kolb executable each run is started with. `overrides`
// apply to every run (after the batch file's `set`). `threads` > 0 passes
// --threads to every run. Throws ConfigError for a bad batch file.
BatchResult run_batch(const std::string& file, const std::vector<std::string>& overrides,
                      const std::string& kolb_binary, int threads, std::ostream& log);

}  // namespace kolb
