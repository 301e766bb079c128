#pragma once
// The load balancer's driver (`kolb tune`, `execution: {host_columns: auto}`):
// calibrates the model of balance/model.hpp with short timed runs of the
// case's own node, solves for M*, checks it by timing M* and its neighbours
// (and a coarse sweep when asked), and keeps the measured best.

#include <kolb/balance/model.hpp>
#include <kolb/io/case.hpp>

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

namespace kolb {

struct TuneOptions {
  double seconds = 0.3;  // timed length of each measurement (per repeat)
  int repeats = 3;       // interleaved rounds over a set of splits; the median is kept
  int min_steps = 10;    // at least this many steps per repeat
  int bracket = 2;       // verify M* +- k delta for k = 1..bracket
  int sweep = 0;         // extra evenly spaced M values over [0, LX/2] (0: none)
  bool alone = true;     // also time M = 0 and M = LX/2 (each space alone)
  // Recalibrate (around the best split measured so far) while the model's
  // step time at M* is off the measured one by more than `tolerance`, at
  // most `max_rounds` calibrations in all.
  double tolerance = 0.05;
  int max_rounds = 3;
};

// One timed configuration: seconds per step (the median repeat).
struct TunePoint {
  int host_columns = 0;
  std::string
      kind;  // calibration-isolated | calibration-concurrent | model | bracket | sweep | alone
  bool concurrent = true;
  double step = 0, accelerator = 0, host = 0, exchange = 0;
  double mpi = 0;       // MPI exchange on the host side (within `host`)
  double transfer = 0;  // the swap on the accelerator's halo lane (DomainTimings)
  double mlups = 0;
};

struct TuneResult {
  // Layers along the split axis ("columns") of the tile balanced (the whole
  // lattice on one rank; under MPI the largest tile, every rank split
  // alike) and its tiling.
  int columns = 0;
  int split_axis = 0;
  std::array<int, 3> ranks{1, 1, 1};
  std::string tiling = "1x1";
  BalanceModel isolated;    // calibrated with the spaces running one after the other
  BalanceModel concurrent;  // calibrated with both running at once (used for M*)
  double balance_point = 0;
  int rounds = 0;             // concurrent calibrations made
  int model_columns = 0;      // M* (integer)
  double predicted_step = 0;  // concurrent model's T_exe(M*)
  double measured_step = 0;   // measured at M* in the verification set
  // The concurrent model refitted on the verification set's other splits
  // near M* (the calibration splits re-measured there and the brackets,
  // M* itself left out): the same machine state as the measurement at M*,
  // so the machine's slow drifts between calibration and verification cancel.
  BalanceModel window;
  int window_points = 0;  // 0: no window model (fewer than two splits near M*)
  int best_columns = 0;   // measured best M
  double best_step = 0;
  // Root-mean-square relative error of each model over the concurrent
  // verification points (shows which calibration predicts better).
  double isolated_rms_error = 0, concurrent_rms_error = 0;
  std::vector<TunePoint> points;
};

// `log`: one line per measurement (nullptr: silent). Under MPI every rank
// calls it: the tiling is chosen once, each rank's node is the balanced
// unit, step times are the slowest rank's and the host side's MPI exchange
// is the model's T_mpi.
TuneResult tune_node(const Case& c, const TuneOptions& options, std::ostream* log);

// The split geometry of a node over a tile of `tile` sites split along
// `axis` (its layers are the model's columns) for case c: along x, splits
// are multiples of the layout's vector length (every part's rows whole
// vectors; every column on small lattices); every part is at least the
// lattice's halo wide (D2Q37 split along y between walls: the host parts
// hold its wall rows). Costs are left zero.
BalanceModel node_geometry(const Case& c, int axis, const std::array<int, 3>& tile);

// tune.csv (measured points), tune_model.csv (model curves), tune.json and
// tune.png (MLUPS vs host fraction 2M/LX, gnuplot) in `folder`. Returns the
// JSON file's path.
std::string write_tune_outputs(const Case& c, const TuneOptions& options, const TuneResult& r,
                               const std::string& folder);

}  // namespace kolb
