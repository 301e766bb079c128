#pragma once
// Domain: the parts (blocks) one process updates, each on an execution
// space, and the faces between them: one part for a single-space run, three
// layers across the split axis s for the heterogeneous node
// (execution.host_columns = M, execution.split_axis; node_split_axis):
//   [ host-left: M layers | accelerator: L_s - 2M | host-right: M layers ].
// Along the slowest axis (z in 3-D, y in 2-D) every part keeps whole x rows
// and planes, however small M is.
// Under MPI each rank owns one Domain for its tile of the lattice; faces to
// other ranks are exchanged through a comm::CartGrid, overlapped with the
// update of the sites that do not need them. The Domain builds the parts
// (a Node), the faces to other ranks (a HaloExchange) and picks the step's
// schedule (schedule.hpp); the bitwise invariance under the split and the
// tiling: docs/design.md.

#include <kolb/comm/tiling.hpp>
#include <kolb/domain/node.hpp>
#include <kolb/io/vtk.hpp>

#include <functional>
#include <iosfwd>
#include <memory>
#include <vector>

namespace kolb {

class HaloExchange;
class Schedule;
namespace comm {
class CartGrid;
}

class Domain {
 public:
  // Builds the parts of the case's variant and split for the whole lattice
  // (on this process alone, whatever the number of ranks); throws
  // ConfigError when this build lacks the variant or the split is impossible.
  explicit Domain(const Case& c);
  // This rank's tile of the lattice in `grid` (every rank constructs its
  // Domain; faces between tiles are exchanged every step).
  Domain(const Case& c, std::shared_ptr<comm::CartGrid> grid, TilingChoice choice = {});
  ~Domain();
  Domain(const Domain&) = delete;
  Domain& operator=(const Domain&) = delete;

  // Advances by `steps` time steps (fenced on return; every rank together).
  void advance(std::int64_t steps);
  // Sums over the whole lattice, or over the rows `rows` takes of each
  // part (the run loop's stability checks; every rank together).
  ObservableSums observe(const RowSample& rows = RowSample());
  // The force the fluid exerts on each obstacle of the case, in its order
  // (momentum exchange from the post-collision state; every rank together).
  std::vector<std::array<double, 3>> body_forces();
  // The fields of this rank's tile (`origin` = its place in the lattice).
  HostFields fields();
  // The same into `into`, whose arrays are reused where they have the size
  // (snapshots and steady checks: fresh pages each time cost more than the
  // moments themselves).
  void fields(HostFields& into);
  // The tile's fields as a piece of a parallel VTK image: extended by the
  // first layer of the next tile along each tiled axis (every rank together).
  HostFields piece_fields();
  // Every rank's piece (its points and file `folder`/piece_name(rank)).
  std::vector<VtiPiece> pieces(const std::string& folder) const;
  // Interior populations of the tile (stored, post-collision), site by site
  // in x-fastest order, Q per site: the same sequence whatever the layout.
  std::vector<double> populations();
  // Continues from a checkpoint: the tile's populations (as populations()
  // gives them) at time step `step`.
  void restore(const std::vector<double>& populations, std::int64_t step);
  // Resets the populations to the equilibrium of the given fields of the
  // tile (`temperature` for models with one; empty means T0 = 1 there).
  void set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                  const std::vector<double>& temperature = {});
  // The one part of a Domain of one part (benchmarks and the tiling
  // model's probes time its kernels and faces); throws otherwise.
  Part& only_part();

  std::int64_t step() const { return m_node.step; }
  const Tile& tile() const { return m_tile; }
  const TilingChoice& tiling_choice() const { return m_choice; }
  bool distributed() const { return m_grid != nullptr; }
  std::string variant() const;  // "D2Q9/double/soa"
  // "OpenMP", "OpenMP + Serial (host 7 layers per side along z)"
  std::string execution_space() const;
  int concurrency() const;
  // The step plan of each part (domain/step_plan.hpp), by the part's label.
  std::vector<std::pair<std::string, StepPlan>> plans() const;

  // Moves to a split of `host_columns` per side, keeping the populations
  // bit for bit (with AA streaming: after even steps only). Every rank
  // together, with the same M.
  void resplit(int host_columns);

  // The host/accelerator split: M host layers ("columns") per side across
  // split_axis() (-1: one part); the tile's layers along that axis and the
  // sites of one layer (the balancer's geometry).
  int host_columns() const { return m_case.execution.host_columns; }
  int split_axis() const { return m_node.split; }
  int columns() const { return m_tile.size[m_node.split]; }
  std::int64_t column_sites() const {
    return std::int64_t(m_tile.size[0]) * m_tile.size[1] * m_tile.size[2] /
           m_tile.size[m_node.split];
  }
  // true (default): all parts update at the same time. false: the host
  // parts after the accelerator's, so each side is timed without the
  // other's load.
  void set_concurrent(bool concurrent) { m_node.concurrent = concurrent; }
  // MPI: whether a lone part updates its inner sites while the first tiled
  // axis's halos are in flight (default: on GPUs, where launches are
  // asynchronous) or exchanges first and then updates everything.
  void set_overlap(bool overlap);
  // Whether the host/accelerator halo swap runs while the accelerator
  // updates (OverlappedNode; default node_swap_overlapped: GPU nodes).
  // Forced on, CPU-only builds run the GPU nodes' schedule on one thread
  // (tests).
  void set_swap_overlap(bool overlap);
  bool swap_overlapped() const;
  DomainTimings timings() const { return m_node.timings; }
  void reset_timings() { m_node.timings = DomainTimings(); }

 private:
  void build(const Case& c);
  // What is wrong with c's host/accelerator split on this rank's tile ("" if nothing).
  std::string tile_split_problem(const Case& c) const;
  // The case's initial state (initial_fields) on every part.
  void initialize();
  // The schedule of the node's step, made anew when a choice changes.
  Schedule& schedule();

  Case m_case;
  Tile m_tile;
  TilingChoice m_choice;
  std::shared_ptr<comm::CartGrid> m_grid;  // null: the whole lattice here
  Node m_node;
  std::unique_ptr<HaloExchange> m_remote;  // faces to other ranks (MPI)
  std::unique_ptr<Schedule> m_schedule;
  int m_overlap = -1;       // -1: by the part's space
  int m_swap_overlap = -1;  // -1: node_swap_overlapped
};

// The Domain of this process: the whole lattice on one rank, else this
// rank's tile of the tiling the case asks for (execution.decomposition;
// `auto` measures and applies the tiling model, logging to `log` on rank 0).
std::unique_ptr<Domain> make_domain(const Case& c, std::ostream* log = nullptr);

// The step plans the parts of the case's Domain on one process follow, by
// label, without allocating them (kolb check --plan).
std::vector<std::pair<std::string, StepPlan>> plan_parts(const Case& c);

// File name of a rank's piece of a snapshot ("rank_00003.vti").
std::string piece_name(int rank);

// The tiling of the case over `ranks` ranks (ConfigError when impossible).
TilingChoice choose_tiling(const Case& c, int ranks, std::ostream* log);

// The variants this build holds (the registry generated by CMake).
std::vector<VariantKey> compiled_variants();
bool variant_compiled(const VariantKey& key);
// The collisions compiled for a variant (empty: the variant is not compiled).
std::vector<Collision> compiled_collisions(const VariantKey& key);

// Whether a node swaps its host/accelerator halos while the accelerator
// updates (GPU builds, both streaming schemes): the swap is then on the host
// side's path only (BalanceModel::swap_overlapped).
bool node_swap_overlapped();

// OpenMP threads a node gives the accelerator role by default: in a
// CPU-only build all cores but the one the Serial host thread takes, else 0
// (Kokkos' default).
int node_default_threads();

}  // namespace kolb
