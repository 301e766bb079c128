#pragma once
// BlockPart<Model, Layout, Exec>: a Part holding one Block on the execution
// space Exec. Its step plan (domain/step_plan.hpp, computed once from its
// setup) says what each phase of a step runs and who fills each halo; the
// part executes it and decides nothing else. Its kernels are templated on
// the memory space, so OpenMP and Serial parts share their compiled loops.
// Built only by the generated translation unit of its variant
// (src/variants/part.cpp.in), through make_block_part()
// (domain/make_block_part.hpp).

#include <kolb/boundary/interpolated_bounce.hpp>
#include <kolb/boundary/thermal_walls.hpp>
#include <kolb/domain/part_fields.hpp>
#include <kolb/domain/part_halos.hpp>
#include <kolb/domain/part_setup.hpp>
#include <kolb/kernels/periodic_halo.hpp>
#include <kolb/kernels/propagate.hpp>
#include <kolb/kernels/wall_rows.hpp>

#include <memory>
#include <stdexcept>
#include <vector>

namespace kolb {

// The block of a part, as a neighbour in the same memory space reads it.
template <class Model, class Layout, class MemorySpace>
struct PartBlock {
  Block<typename Model::lattice_type, typename Model::scalar_type, Layout, MemorySpace> block;
};

template <class Model, class Layout, class Exec>
class BlockPart final : public Part, public PartBlock<Model, Layout, typename Exec::memory_space> {
 public:
  using Lattice = typename Model::lattice_type;
  using S = typename Model::scalar_type;
  using memory_space = typename Exec::memory_space;
  using storage = PartBlock<Model, Layout, memory_space>;
  using block_type = Block<Lattice, S, Layout, memory_space>;
  using Crossing = CrossingPopulations<Lattice>;
  // Host parts of bounce-back models pull from ghosts at the lattice's walls.
  static constexpr bool kGhosts = is_host_space_v<Exec> && Model::max_wall_rows == 0;

  // `halo_exec`: the instance the halos across the split axis are packed,
  // copied and unpacked on (the halo lane; may be `exec` itself).
  BlockPart(const PartSetup& s, const Model& model, const Exec& exec, const Exec& halo_exec)
      : BlockPart(s, model, exec, halo_exec, prepare(s, exec)) {}

  const StepPlan& plan() const override { return m_plan; }
  // The plan a part of setup `s` on `exec` follows, without building it.
  static StepPlan plan_of(const PartSetup& s, const Exec& exec) { return prepare(s, exec).plan; }

  void update(std::int64_t step, UpdateZone zone) override {
    m_fields.changed();
    m_step = step;
    if (zone != UpdateZone::inner) m_halos.wait();
    const PhasePlan& p = phase();
    const bool pulls = p.kernel != PhaseKernel::aa_local, aa = swapped();
    if (zone != UpdateZone::border) {  // the rows' open lanes read the stash, and write it
      if (m_open.has_lanes() && m_stash_for != step) m_open.fill_stash(block(), post_state(held()));
      m_stash_for = step + 1;
    }
    if (zone != UpdateZone::border && pulls) {
      fill_wall_ghosts(m_ghosts);
      m_open.before_pull(on_part(), block(), aa, step, zone == UpdateZone::all);
    }
    // Zoned, the open faces' values are kept and written: the early links
    // before the inner sites, the late ones once their halos arrived; two
    // buffers, the early ones again too: a schedule may refill periodic halos
    // over the edges meanwhile (Distributed::step_lone), and no pull wrote
    // this buffer.
    // In place the inner pull has pushed into those slots what after_pull
    // reads: there nothing may refill them between the zones (in place,
    // Distributed does not overlap; fill_periodic_edges fills late slabs).
    if (pulls && zone != UpdateZone::all)
      m_open.write(on_part(), block(), aa, zone != UpdateZone::border || !aa,
                   zone != UpdateZone::inner);
    // Curved walls: each link once per step, after the open faces' values
    // (which may read the slots it writes), before the sites that read it.
    m_curved.apply(on_part(), block(), post_state(held()), zone != UpdateZone::border,
                   zone != UpdateZone::inner);
    if constexpr (Model::in_place_streaming) {
      if (p.kernel == PhaseKernel::aa_pull) {
        for_zone(zone, [&](const Region& r) { launch("kolb::AAPull", r, aa_pull()); });
        if (zone != UpdateZone::inner) {  // what it pushed into periodic halos and ghosts, back
          m_halos.push_back_periodic(block());
          fill_wall_ghosts<true>(m_ghosts);
          m_open.after_pull(on_part(), block(), step + 1);
        }
      } else if (p.kernel == PhaseKernel::aa_local) {
        for_zone(zone, [&](const Region& r) { launch_local("kolb::AALocal", r, aa_local()); });
      }
    }
    if (p.kernel == PhaseKernel::stream_collide || p.kernel == PhaseKernel::propagate_collide)
      for_zone(zone, [&](const Region& r) { update_region(r); });
    if (zone != UpdateZone::inner) m_phase = (m_phase + 1) % m_plan.phases;
  }

  void fill_periodic(int axis) override {
    m_fields.changed();
    if (phase().fill[axis][0] != HaloFill::periodic_pass) return;
    m_halos.wait();  // its corners copy those across the split axis
    fill_periodic_axis<Lattice>(m_exec, block().current(), block().layout(), block().extents(),
                                axis, swapped());
  }

  void fill_periodic_edges() override {
    m_fields.changed();
    if (!reads_halos()) return;
    m_halos.wait();
    const Extents& e = block().extents();
    for (const Side side : {Side::left, Side::right}) {
      if (!m_late[m_split][int(side)]) continue;
      // The halo layers across the split axis, over every other axis' halos.
      const Region slab = face_region(e, m_split, side, false, true);
      for (const int a : e.fill_order())
        if (a != m_split && phase().fill[a][0] == HaloFill::periodic_pass)
          fill_periodic_axis<Lattice>(m_exec, block().current(), block().layout(), e, a, swapped(),
                                      &slab);
    }
  }

  void swap() override {
    if (m_plan.phases == 1) block().swap();
  }
  void fence() override {
    m_exec.fence();
    m_halos.fence();
  }
  void fence_halos() override { m_halos.fence(); }
  void halos_ordered() override { m_halos.ordered(); }

  void fill_halo(Side side, Part& neighbour) override {
    m_fields.changed();
    if (auto* same = dynamic_cast<storage*>(&neighbour))
      return m_halos.copy(same->block, block(), side, crossing(m_split, side));
    const HaloBuffer packed = neighbour.pack(m_split, opposite(side), false);
    neighbour.fence();
    unpack(m_split, side, packed);
  }

  HaloBuffer pack(int axis, Side border, bool host) override {
    return m_halos.pack(block(), axis, face_region(block().extents(), axis, border, true),
                        crossing(axis, opposite(border)), host, m_halos.send[axis][int(border)],
                        m_halos.send_host[axis][int(border)]);
  }
  HaloBuffer receive_buffer(int axis, Side side, bool host) override {
    return m_halos.receive_buffer(face_region(block().extents(), axis, side, false),
                                  crossing(axis, side), host, m_halos.recv[axis][int(side)],
                                  m_halos.recv_host[axis][int(side)]);
  }
  void unpack(int axis, Side side, const HaloBuffer& packed) override {
    m_fields.changed();
    m_halos.unpack(block(), axis, face_region(block().extents(), axis, side, false),
                   crossing(axis, side), packed, m_halos.recv[axis][int(side)]);
  }

  bool reads_halos() const override { return phase().kernel != PhaseKernel::aa_local; }

  // Populations leaving through `side`: those entering from the other one.
  HaloBuffer pack_pushed(Side side, bool host) override {
    return m_halos.pack(block(), m_split, pushed_region(side, false),
                        Crossing(m_split, opposite(side)), host, m_halos.pushed[int(side)],
                        m_halos.pushed_host[int(side)]);
  }
  HaloBuffer pushed_receive_buffer(Side side, bool host) override {
    return m_halos.receive_buffer(pushed_region(side, true), Crossing(m_split, side), host,
                                  m_halos.pushed_in[int(side)], m_halos.pushed_in_host[int(side)]);
  }
  void unpack_pushed(Side side, const HaloBuffer& packed) override {
    m_fields.changed();
    m_halos.scatter(block(), packed, side, pushed_region(side, true), Crossing(m_split, side));
  }

  ObservableSums observe(const RowSample& rows) override {
    return m_fields.observe(block(), held(), rows);
  }
  void add_body_forces(std::vector<std::array<double, 3>>& sum) override {
    m_fields.add_body_forces(block(), held(), m_bodies, sum);
  }
  void gather_fields(HostFields& out) override { m_fields.gather_fields(block(), held(), out); }
  void gather_populations(std::vector<double>& out, const std::array<int, 3>& tile) override {
    m_fields.gather_populations(block(), held(), out, tile);
  }
  void set_populations(const std::vector<double>& in, const std::array<int, 3>& tile) override {
    m_phase = 0;
    m_stash_for = -1;
    m_fields.set_populations(block(), held(), in, tile);
    fill_row_halos();
  }
  void set_fields(const HostFields& in) override {
    m_phase = 0;
    m_stash_for = -1;
    m_fields.set_fields(block(), held(), in);
    fill_row_halos();
  }

  double time_kernel(BenchKernel kernel, int steps) override {
    m_fields.changed();
    m_open.fill_stash(block(), post_state(held()));  // the rows' open lanes read it
    m_stash_for = -1;
    const Region all = interior_region(block().extents());
    if constexpr (!Model::in_place_streaming) {
      if (kernel == BenchKernel::aa)
        throw std::invalid_argument("time_kernel: the model has no in-place (aa) scheme");
    }
    if (kernel == BenchKernel::aa && m_plan.phases != 2)
      throw std::invalid_argument("time_kernel: aa needs a part built for it (streaming: aa)");
    m_exec.fence();
    Kokkos::Timer timer;
    // fused and aa time whole steps as a run on one block takes them, with
    // the periodic halos (and AA's push-back); propagate and collide time
    // the two halves of a split step.
    for (int k = 0; k < steps; ++k) {
      if (kernel == BenchKernel::aa) {
        for (const int a : block().extents().fill_order()) fill_periodic(a);  // pulls only
        update(k, UpdateZone::all);
      } else if (kernel == BenchKernel::collide) {
        launch_local("kolb::Collide", all, collide(m_model));
      } else {
        const bool fused = kernel == BenchKernel::fused;
        std::array<bool, 3> axes = m_self;  // Propagate does not wrap x
        if (fused && m_plan.phase[0].lanes[0] == EndLane::image) axes[0] = false;
        fill_periodic_halo<Lattice>(m_exec, block().current(), block().layout(), block().extents(),
                                    axes, false);
        fill_wall_ghosts(m_ghosts);
        if (fused) {
          launch("kolb::StreamCollide", all, stream_collide());
        } else {
          fill_wall_ghosts(m_lane_ghosts);  // what the fused rows' end lines take
          launch("kolb::Propagate", all,
                 Propagate<Lattice, S, Layout, memory_space>(block(), m_wall));
        }
        block().swap();
      }
    }
    m_exec.fence();
    if (kernel != BenchKernel::aa && m_plan.phases == 2) m_phase = 0, fill_row_halos();
    return timer.seconds();
  }

  std::string space() const override { return Exec::name(); }
  int concurrency() const override { return m_exec.concurrency(); }

 private:
  struct Prepared {
    StepPlan plan;
    PlanInputs inputs;
    PartMaterials materials;  // on the plain extents
  };
  // The plan, from the part's materials on the extents of plain storage.
  static Prepared prepare(const PartSetup& s, const Exec& exec) {
    const Extents e(s.size, Lattice::halo, Lattice::dim, Layout::vector_length, s.split_axis);
    PartMaterials m = part_materials<Lattice>(s, e, kGhosts);
    const PlanInputs in = plan_inputs<Model, Layout, Exec>(s, m, e, exec.concurrency());
    return {make_step_plan(in), in, std::move(m)};
  }

  BlockPart(const PartSetup& s, const Model& model, const Exec& exec, const Exec& halo_exec,
            Prepared p)
      : storage{make_part_block<block_type>(s, p.plan.storage, p.plan.phases == 2 ? 1 : 2, exec)},
        m_exec(exec),
        m_model(model),
        m_wall(s.geometry.table),
        m_plan(p.plan),
        m_halos(exec, halo_exec, s.split_axis),
        m_fields(exec, model, m_wall, s.origin,
                 {s.origin[0] - s.tile_origin[0], s.origin[1] - s.tile_origin[1],
                  s.origin[2] - s.tile_origin[2]}),
        m_late(s.late),
        m_split(s.split_axis),
        m_wall_side(p.inputs.model_walls) {
    for (int a = 0; a < 3; ++a) m_self[a] = p.inputs.faces[a][0] == FaceLink::self;
    const Extents& e = block().extents();
    const PartMaterials m = m_plan.storage == RowStorage::plain
                                ? std::move(p.materials)
                                : part_materials<Lattice>(s, e, kGhosts);
    Kokkos::deep_copy(block().material(), m.material);
    m_bulk = m.bulk;
    m_fluid_rows = m.fluid;
    if constexpr (!is_host_space_v<Exec>) {
      m_bulk_on_device = bulk_runs_on<memory_space>(m_bulk);
      m_fluid_rows_on_device = bulk_runs_on<memory_space>(m_fluid_rows);
    }
    const Kokkos::View<const material_t*, Kokkos::HostSpace> mat = m.material;
    const PhasePlan& first = m_plan.phase[0];
    if constexpr (kGhosts) {
      const std::array<bool, 2> lanes{first.lanes[0] == EndLane::wall,
                                      first.lanes[1] == EndLane::wall};
      const WallGhostPlan g = wall_ghosts<Lattice>(mat, e, block().layout(), m.ghosted, m_bulk,
                                                   m_plan.phases == 2, lanes);
      m_ghosts = Kokkos::create_mirror_view_and_copy(memory_space(), g.runs);
      m_lane_ghosts = Kokkos::create_mirror_view_and_copy(memory_space(), g.lane_runs);
    }
    const auto& lanes = first.lanes;
    m_open = OpenFaces<Lattice, S, Layout, memory_space>(
        open_face_setup(s), mat, e, [&](int y, int z, int side) {
          // The sites whose rows take the face at their end (EndLane::open):
          // in their bulk runs, and in place in the local step's fluid runs.
          if (lanes[side] != EndLane::open) return false;
          const int x = side == 0 ? e.halo[0] : e.halo[0] + e.n[0] - 1;
          const auto in = [&](const BulkRows& runs) {
            return x >= runs(y, z, 0) && x < runs(y, z, 1);
          };
          return in(m_bulk) && (m_plan.phases == 1 || in(m_fluid_rows));
        });
    // The lane sites take their values only from the rows' hooks over the
    // whole interior: a zoned update would leave them to neither.
    if (m_open.has_lanes() && m_plan.phase[0].zoned)
      throw std::logic_error("BlockPart: open lanes in a zoned plan");
    const LatticeSites<Lattice> sites{s};
    const auto fraction = [&](const int* p, int i) { return sites.fraction(p, i); };
    m_curved = InterpolatedWalls<Lattice, S, Layout, memory_space>(
        curved_links<Lattice>(e, s.origin, s.late, m_self, fraction));
    m_bodies = body_links<Lattice, memory_space>(
        e, s.origin, int(s.c.obstacles.size()), [&](const int* p) { return sites.body(p); },
        [&](const int* p) { return sites.fluid(p); }, fraction);
    if constexpr (Model::in_place_streaming) {
      if (m_plan.phases == 2)
        m_halos.map_pushes(first, m_plan.phase[1].row_halos, mat, block(),
                           {pushed_region(Side::left, true), pushed_region(Side::right, true)},
                           m_self, aa_local().row_start_copies());
    }
  }

  block_type& block() { return storage::block; }
  const block_type& block() const { return storage::block; }

  const PhasePlan& phase() const { return m_plan.phase[m_phase]; }
  // Whether the buffer holds an AA state before its pull (opposites swapped).
  bool swapped() const { return phase().kernel == PhaseKernel::aa_pull; }
  Held held() const {
    return m_plan.phases == 1 ? Held::stored : m_phase == 0 ? Held::swapped : Held::streamed;
  }
  // The populations crossing `side` of `axis` as the next pull reads them.
  Crossing crossing(int axis, Side side) const { return Crossing(axis, side, swapped()); }
  // The halo layers across the split axis on `side` (border = false) or the
  // border layers next to them, over the other axes with their halos: where
  // an AA pull pushes populations across a face between parts, and where
  // they belong.
  Region pushed_region(Side side, bool border) const {
    return face_region(block().extents(), m_split, side, border, true);
  }

  // The halos an AA local step's rows fill, filled once where no local
  // step filled them (a state just set).
  void fill_row_halos() {
    for (const int a : block().extents().fill_order())
      if (m_plan.phases == 2 && m_plan.phase[0].fill[a][0] == HaloFill::rows)
        fill_periodic_axis<Lattice>(m_exec, block().current(), block().layout(), block().extents(),
                                    a, true);
    m_exec.fence();
  }

  // The runs of the rows' bulk sites (upstream neighbours fluid), and of
  // their fluid sites (kernels that read their own site only), as this
  // part's launches take them.
  const auto& bulk_runs() const {
    if constexpr (is_host_space_v<Exec>)
      return m_bulk;
    else
      return m_bulk_on_device;
  }
  const auto& fluid_runs() const {
    if constexpr (is_host_space_v<Exec>)
      return m_fluid_rows;
    else
      return m_fluid_rows_on_device;
  }
  // f(j) for j < n on the part's space, as a boundary/ pass launches it.
  auto on_part() const {
    return [this](const char* label, index_t n, const auto& f) {
      for_each_index(label, m_exec, n, f);
    };
  }
  template <class F>
  void launch(const char* label, const Region& r, const F& f) {
    for_each_site_split(label, m_exec, r, f, bulk_runs());
  }
  template <class F>
  void launch_local(const char* label, const Region& r, const F& f) {
    for_each_site_split(label, m_exec, r, f, fluid_runs());
  }
  StreamCollide<Model, Layout, memory_space> stream_collide() const {
    typename StreamCollide<Model, Layout, memory_space>::Args args(block(), m_wall);
    const Extents& e = block().extents();
    const auto& lanes = m_plan.phase[0].lanes;
    if (lanes[0] != EndLane::halo) args.m_end_first = e.halo[0];
    if (lanes[1] != EndLane::halo) args.m_end_last = e.halo[0] + e.n[0] - 1;
    args.m_end_walls = lanes[0] != EndLane::image;
    args.m_open = m_open.lanes(m_step);
    return {args, m_model};
  }
  Collide<Model, Layout, memory_space> collide(const Model& model) const {
    return {block(), model};
  }
  // The pull step's functor, its rows taking the open x faces the plan gives them.
  AAPull<Model, Layout, memory_space> aa_pull() const {
    typename AAPull<Model, Layout, memory_space>::Args args(block(), m_wall);
    args.m_open = m_open.lanes(m_step);
    return {args, m_model};
  }
  // The local step's functor, its rows filling and taking the halos and the
  // open x faces the plan gives them.
  AALocal<Model, Layout, memory_space> aa_local() const {
    typename AALocal<Model, Layout, memory_space>::Args args(block());
    args.m_open = m_open.lanes(m_step);
    const RowHalos rows = m_plan.phases == 2 ? m_plan.phase[1].row_halos : RowHalos::none;
    if (rows != RowHalos::none) {
      args.fill_x_halos_at_row_ends(block().extents().n[0]);
      args.take_x_pushes_at_row_starts(block().extents());
      if (rows == RowHalos::all) args.take_yz_halos_in_rows();
    }
    return {args, m_model};
  }

  // One two-buffer step of region r, and the model's wall rows (D2Q37)
  // streamed and completed by its wall kernel, then collided with its wall
  // collision (docs/reference/d2q37.md §8) where r meets them.
  void update_region(const Region& r) {
    if constexpr (Model::max_wall_rows > 0) {
      if (const int rows = m_model.wall_rows()) {
        const WallRowSplit split(r, interior_region(block().extents()), rows, m_wall_side);
        two_buffer(split.inner);
        update_wall_rows(m_exec, thermal_walls(block(), m_model), collide(m_model.wall_model()),
                         split.edge, rows, fluid_runs());
        return;
      }
    }
    two_buffer(r);
  }
  void two_buffer(const Region& r) {
    if (phase().kernel == PhaseKernel::stream_collide) {
      launch("kolb::StreamCollide", r, stream_collide());
    } else {
      launch("kolb::Propagate", r, Propagate<Lattice, S, Layout, memory_space>(block(), m_wall));
      launch_local("kolb::Collide", r, collide(m_model));
    }
  }

  // f(region) over the regions of a zone: the interior for all; `inner`
  // leaves out the halo-wide layers next to late faces, `border` is those
  // layers.
  template <class F>
  void for_zone(UpdateZone zone, F&& f) {
    const Extents& e = block().extents();
    const Region all = interior_region(e);
    if (zone == UpdateZone::all) return f(all);
    Region inner = inner_region(e, m_late);
    if constexpr (Model::max_wall_rows > 0) {
      // Wall rows read the pre-streaming state twice their depth into the
      // fluid, which on a short tile is a late halo: they wait for it there.
      if (const int rows = m_model.wall_rows();
          rows > 0 && (m_late[1][0] || m_late[1][1]) && e.n[1] <= 2 * rows)
        inner = WallRowSplit(inner, all, rows, m_wall_side).inner;
    }
    if (zone == UpdateZone::inner) return f(inner);
    for_each_border_slab(all, inner, f);
  }

  // The wall ghosts (boundary/bounce_back.hpp) of the current buffer for
  // the next pull; with Return (AA, after a pull), what the bulk pushed into
  // them goes back to the sites, bounced.
  template <bool Return = false>
  void fill_wall_ghosts(const Kokkos::View<GhostRun*, memory_space>& runs) {
    if (runs.extent(0) == 0) return;
    for_each_index(Return ? "kolb::WallGhostsReturn" : "kolb::WallGhosts", m_exec,
                   index_t(runs.extent(0)),
                   WallGhosts<Lattice, S, memory_space, Return>{block().current(), runs, m_wall});
  }

  Exec m_exec;
  Model m_model;
  WallTerms<Lattice, typename Model::value_type> m_wall;
  StepPlan m_plan;
  int m_phase = 0;  // the phase of the plan the next update runs
  PartHalos<block_type, Exec> m_halos;
  PartFields<Model, Layout, Exec> m_fields;
  std::array<std::array<bool, 2>, 3> m_late;        // faces whose halos arrive during the update
  int m_split;                                      // the node's split axis (faces between parts)
  std::array<bool, 2> m_wall_side;                  // the part holds the model's y- / y+ wall rows
  std::array<bool, 3> m_self{false, false, false};  // axes periodic onto the part itself
  BulkRows m_bulk;        // runs of fluid sites whose upstream neighbours are fluid (or ghosts)
  BulkRows m_fluid_rows;  // runs of fluid sites (kernels reading their own site only)
  BulkRunsOn<memory_space> m_bulk_on_device, m_fluid_rows_on_device;  // device parts' copies
  Kokkos::View<GhostRun*, memory_space> m_ghosts;       // filled before each (pull) step
  Kokkos::View<GhostRun*, memory_space> m_lane_ghosts;  // those the fused end lines take
  OpenFaces<Lattice, S, Layout, memory_space> m_open;   // inlets and outlets, before each pull
  std::int64_t m_step = 0;                              // the step update() takes
  std::int64_t m_stash_for = -1;  // the step the open lanes' stash holds the state of
  InterpolatedWalls<Lattice, S, Layout, memory_space> m_curved;  // curved walls, before each step
  BodyLinks<memory_space> m_bodies;  // the momentum exchange's terms (forces on obstacles)
};

}  // namespace kolb
