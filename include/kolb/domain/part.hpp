#pragma once
// Part: one block of a Domain on one execution space: the one part of a
// single-space run, or a host or accelerator part of a node. The Domain
// sees only this interface; BlockPart implements it for each compiled
// variant. Its faces across the node's split axis are filled from a
// neighbouring part in the process (fill_halo); any face can go through a
// buffer (pack / unpack: any transport, e.g. a remote rank).

#include <kolb/core/variant.hpp>
#include <kolb/domain/step_plan.hpp>
#include <kolb/io/fields.hpp>
#include <kolb/kernels/observable_sums.hpp>

#include <array>
#include <string>
#include <vector>

namespace kolb {

enum class PartRole { accelerator, host };

// What a part is made from: the case, the whole lattice's materials, the
// box of the lattice it holds, and where it runs.
struct PartSetup {
  const Case& c;
  const Geometry& geometry;                 // over Extents(c.size, halo, dim): no row padding
  std::array<int, 3> origin{0, 0, 0};       // global coordinates of the part's first site
  std::array<int, 3> size{1, 1, 1};         // interior sites per axis
  std::array<int, 3> tile_origin{0, 0, 0};  // of the rank's tile (gathered fields are the tile's)
  PartRole role = PartRole::accelerator;
  // What lies beyond each face: the part itself (periodic, one part along
  // that axis), another part, another rank, the lattice's wall.
  std::array<std::array<FaceLink, 2>, 3> faces{};
  // Faces whose halos arrive while the part's inner sites update: faces to
  // other ranks, and the accelerator's faces to the host parts (GPU nodes
  // swap them while the accelerator updates). The update can leave the
  // sites that read them for last (UpdateZone).
  std::array<std::array<bool, 2>, 3> late{{{false, false}, {false, false}, {false, false}}};
  // The axis the node is split along (its faces between parts; their halos
  // are filled first, Extents::first_axis). 0 for a lone part.
  int split_axis = 0;
  std::string label;
};

// What update() covers: every interior site, or (to overlap a halo exchange)
// the sites that do not read the halos of late faces, then the rest.
enum class UpdateZone { all, inner, border };

// Packed halo populations in a part's memory.
struct HaloBuffer {
  void* data = nullptr;
  std::size_t count = 0;  // values
  std::size_t bytes = 0;
  bool on_host = true;
};

class Part {
 public:
  virtual ~Part() = default;
  // One step of `zone`, current -> next, after the halos are filled
  // (fill_halo, unpack, fill_periodic). Queued on the part's space (GPU
  // launches return at once); swap() after all parts. `step`: the steps
  // done before this one (the open faces' inflow ramps up over them).
  virtual void update(std::int64_t step, UpdateZone zone = UpdateZone::all) = 0;
  virtual void swap() = 0;
  // Waits for everything the part queued.
  virtual void fence() = 0;
  // Waits for the packs, copies and unpacks across the split axis only: a
  // part queues them on its halo lane (on GPUs a second stream, so they run
  // while an update queued before them does).
  virtual void fence_halos() = 0;
  // The caller has made the part's update lane wait for everything queued
  // on its halo lane (an event between a GPU's streams): kernels that read
  // the halos need no host-side fence_halos() before them.
  virtual void halos_ordered() = 0;
  // Fills the halos of a periodic axis the part is its own neighbour along
  // (over the halos of the axes filled before it, for the corners; in
  // place, before pull steps only).
  virtual void fill_periodic(int axis) = 0;
  // After the halos of late faces across the split axis arrive (between
  // update(inner) and update(border)): the edges and corners the periodic
  // fills copy from them, again; nothing else (an AA pull of the inner
  // sites has pushed into the rest of the periodic halos by then).
  virtual void fill_periodic_edges() = 0;
  // Fills the `side` halo across the split axis from `neighbour` (its
  // opposite border), directly
  // when both live in one memory space, else through pack and unpack.
  virtual void fill_halo(Side side, Part& neighbour) = 0;
  // The populations leaving through `border` of `axis` (over the halos of
  // the axes filled before it), packed in the part's memory or, with
  // `host`, copied to host memory (queued: fence first).
  virtual HaloBuffer pack(int axis, Side border, bool host) = 0;
  // The buffer a neighbour's packed populations for the `side` halo are
  // received into (host memory with `host`, else the part's).
  virtual HaloBuffer receive_buffer(int axis, Side side, bool host) = 0;
  // Writes packed populations from a neighbour into the `side` halo.
  virtual void unpack(int axis, Side side, const HaloBuffer& buffer) = 0;
  // Whether the next update() reads the halos: every two-buffer step; in
  // place (AA), the pull steps only. Before those, halos carry the slots
  // the AA pattern keeps the crossing populations in.
  virtual bool reads_halos() const = 0;
  // In place, after a pull step: the populations this part pushed into its
  // `side` halo across the split axis, packed in the part's memory or, with `host`, copied to
  // host memory (queued: fence first) ...
  virtual HaloBuffer pack_pushed(Side side, bool host) = 0;
  // ... the buffer a neighbour's pushed populations through the `side`
  // face are received into (host memory with `host`) ...
  virtual HaloBuffer pushed_receive_buffer(Side side, bool host) = 0;
  // ... and written into this part's border (`side`: the face they came
  // through).
  virtual void unpack_pushed(Side side, const HaloBuffer& buffer) = 0;

  // Sums over this part's interior, or over the rows `rows` takes.
  virtual ObservableSums observe(const RowSample& rows) = 0;
  // Adds the force the fluid exerts on each obstacle over this part's links
  // into it (momentum exchange, boundary/body_forces.hpp) to `sum` (one per
  // obstacle of the case).
  virtual void add_body_forces(std::vector<std::array<double, 3>>& sum) = 0;
  // This part's columns of the global fields / populations (x-fastest, Q
  // per site, the same whatever the layout; tile-local indices), already sized.
  virtual void gather_fields(HostFields& out) = 0;
  virtual void gather_populations(std::vector<double>& out, const std::array<int, 3>& tile) = 0;
  // Resets the populations to the equilibrium of the tile's fields `in`.
  virtual void set_fields(const HostFields& in) = 0;
  // Sets this part's columns of the tile's populations from `in` (as
  // gather_populations gives them: a checkpoint read back).
  virtual void set_populations(const std::vector<double>& in, const std::array<int, 3>& tile) = 0;
  // Benchmarks: seconds for `steps` steps of one kernel over the interior,
  // fused and aa with the part's own periodic halos and wall ghosts as its
  // update fills them (leaves the state advanced).
  virtual double time_kernel(BenchKernel kernel, int steps) = 0;
  // What the part does in each phase of a step (domain/step_plan.hpp).
  virtual const StepPlan& plan() const = 0;
  virtual std::string space() const = 0;
  virtual int concurrency() const = 0;
};

}  // namespace kolb
