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
// update of the sites that do not need them. The step schedule and the
// bitwise invariance under the split and the tiling: docs/design.md.

#include <kolb/comm/tiling.hpp>
#include <kolb/domain/part.hpp>
#include <kolb/io/vtk.hpp>

#include <functional>
#include <iosfwd>
#include <memory>
#include <vector>

namespace kolb {

class HelperThread;
class AcceleratorInstance;
namespace comm {
class CartGrid;
}

// Accumulated wall-clock seconds of the phases of steps.
struct DomainTimings {
  std::int64_t steps = 0;
  // Halo swap: done before both updates (MPI: packing, sending, waiting and
  // unpacking), or the host side's share of it where it overlaps the
  // accelerator's update (GPU nodes: queueing, waiting for the copies,
  // unpacking; in place also the pushes across the faces). CPU-only nodes
  // fill each side's halos within their own update time instead.
  double exchange = 0;
  double accelerator = 0;  // accelerator part update, launch to completion
  double host = 0;         // host parts update, on the host space (with `mpi`)
  double mpi = 0;          // exchange with other ranks (slab-tiled node: on the host side)
  double total = 0;        // whole steps
  // Where the swap overlaps (step_overlapped): the accelerator's halo lane
  // from its first to its last piece of the swap (packs, copies both ways,
  // unpacks, and the gaps while the host packs), timed with events on it;
  // 0 elsewhere. Against `exchange` it says how much of the swap the host's
  // inner layers hid.
  double transfer = 0;
};

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
  // Benchmark hook (one part only): seconds for `steps` steps of one kernel
  // over the interior; fused and aa with the part's own halo fills, as a
  // run on one block steps; advances the state.
  double time_kernel(BenchKernel kernel, int steps);

  // Seconds to pack and unpack one face of the first part normal to `axis`
  // through host memory (the tiling model's face cost), fastest of `repeats`.
  double time_face(int axis, int repeats);
  // Bytes of that face.
  std::size_t face_bytes(int axis);

  std::int64_t step() const { return m_step; }
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
  int split_axis() const { return m_split; }
  int columns() const { return m_tile.size[m_split]; }
  std::int64_t column_sites() const {
    return std::int64_t(m_tile.size[0]) * m_tile.size[1] * m_tile.size[2] / m_tile.size[m_split];
  }
  // true (default): all parts update at the same time. false: the host
  // parts after the accelerator's, so each side is timed without the
  // other's load.
  void set_concurrent(bool concurrent) { m_concurrent = concurrent; }
  // MPI: whether a lone part updates its inner sites while the first tiled
  // axis's halos are in flight (default: on GPUs, where launches are
  // asynchronous) or exchanges first and then updates everything.
  void set_overlap(bool overlap) { m_overlap = overlap ? 1 : 0; }
  // Whether the host/accelerator halo swap runs while the accelerator
  // updates (step_overlapped; default node_swap_overlapped: GPU nodes).
  // Forced on, CPU-only builds run the GPU nodes' schedule on one thread
  // (tests).
  void set_swap_overlap(bool overlap) { m_swap_overlap = overlap ? 1 : 0; }
  bool swap_overlapped() const;
  DomainTimings timings() const { return m_timings; }
  void reset_timings() { m_timings = DomainTimings(); }

 private:
  struct Face {
    int axis;
    Side side;
    int neighbour;  // local: index of the part across the face; remote: its rank
    bool remote;
    int tag;       // remote: message tag of the data this face receives
    int send_tag;  // remote: tag of the data it sends
    HaloBuffer received;
    HaloBuffer pushed;  // in place: what the part pushed into this face's halo
  };
  struct Slot {
    std::unique_ptr<Part> part;
    PartRole role;
    std::vector<Face> faces;
    std::string label;
  };
  void build(const Case& c);
  // What is wrong with c's host/accelerator split on this rank's tile ("" if nothing).
  std::string tile_split_problem(const Case& c) const;
  // The case's initial state (initial_fields) on every part.
  void initialize();
  // remote_split: the host parts exchange their faces across the split
  // axis with other ranks before their update, while the accelerator
  // updates (slabs along the split axis).
  void step_parts(bool fill, bool remote_split = false);
  // The step of a GPU node: the accelerator updates the sites
  // that do not read its halos across the split axis while the swap runs on
  // its halo lane, then its border layers; the host parts update theirs
  // likewise, the inner layers while the copies run, the layers next to the
  // accelerator once its borders have arrived. In place (AA), a pull step
  // swaps the halos so, and what it pushed across the faces crosses during
  // the next (local) step, while the accelerator collides its inner sites.
  void step_overlapped(bool remote_split);
  // A swap across the split axis in flight: what the host parts receive.
  struct Transfer {
    Part* to;
    Side side;  // the face of `to` the data comes through
    HaloBuffer data;
  };
  struct SwapInFlight {
    bool pushed;
    std::vector<Transfer> to_host;
  };
  // The swap of step_overlapped, started: the halos (or, with `pushed`,
  // what an AA pull pushed into them) packed on both sides, and every copy
  // and unpack into the accelerator queued on its halo lane ...
  SwapInFlight start_swap(bool pushed);
  // ... and finished: the lane waited for, the accelerator's borders
  // unpacked into the host parts. Returns the lane's seconds on the swap
  // (DomainTimings::transfer; start_swap times what it queues there).
  double finish_swap(const SwapInFlight& swap);
  // The pushes a last overlapped pull step left in flight (advance returns
  // a whole state).
  void finish_pushes();
  double exchange_remote_split();
  // In place (AA), after a pull step: the populations each part pushed into
  // its halos across the split axis go to the neighbours across them.
  void push_across();
  // The same across the x faces to other ranks (slabs along x, one part).
  void push_remote_x();
  // f(host) on the helper thread while f(accelerator) runs here (CPU-only
  // builds), else one after the other.
  void for_each_side(const std::function<void(PartRole)>& f);
  void step_distributed();
  // Posts the receives and sends of the remote faces normal to `axis`, and
  // completes them (unpacking into the halos).
  void start_exchange(int axis);
  void finish_exchange(int axis);
  // Fills the halos (if asked), updates and fences the parts of `role`;
  // returns the seconds taken.
  double update_role(PartRole role, bool fill_halos);
  // Fills the slot's halos from its local neighbours (only those of its own
  // role if asked: the overlapped swap moves the others) and its periodic
  // wraps.
  void fill_halos(Slot& slot, bool own_role_only = false);
  bool has(PartRole role) const;

  Case m_case;
  Tile m_tile;
  TilingChoice m_choice;
  std::shared_ptr<comm::CartGrid> m_grid;  // null: the whole lattice here
  std::unique_ptr<AcceleratorInstance> m_accelerator;
  std::unique_ptr<AcceleratorInstance> m_halo_lane;  // the accelerator part's halo lane
  std::vector<Slot> m_slots;                         // left to right
  std::unique_ptr<HelperThread> m_helper;
  bool m_concurrent = true;
  int m_overlap = -1;             // -1: by the part's space
  int m_swap_overlap = -1;        // -1: node_swap_overlapped
  bool m_pushes_pending = false;  // AA: an overlapped pull step's pushes not yet moved
  std::int64_t m_step = 0;
  int m_split = 0;  // the axis the parts are layers across
  DomainTimings m_timings;
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
