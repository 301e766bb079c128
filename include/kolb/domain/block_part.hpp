#pragma once
// BlockPart<Model, Layout, Exec>: a Part holding one Block on the execution
// space Exec, with the step schedule of a block: the model's wall rows
// (D2Q37) and the fused or split two-buffer update, or the in-place AA
// pattern. Its kernels are templated on the memory space, so OpenMP and
// Serial parts share their compiled loops. Built only by the generated
// translation unit of its variant (src/variants/part.cpp.in), through
// make_block_part().

#include <kolb/domain/memory.hpp>
#include <kolb/domain/part.hpp>
#include <kolb/domain/spaces.hpp>
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/device_launch.hpp>
#include <kolb/kernels/halo.hpp>
#include <kolb/kernels/initialize.hpp>
#include <kolb/kernels/moments.hpp>
#include <kolb/kernels/observables.hpp>
#include <kolb/kernels/periodic_halo.hpp>
#include <kolb/kernels/propagate.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/kernels/wall_ghosts.hpp>
#include <kolb/model/models.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace kolb {

// The model parameters of a case.
template <class Lattice, class S>
void configure(IsothermalModel<Lattice, S>& m, const Case& c) {
  using Scalar = real_t<S>;
  m.collision.omega = Scalar(1.0 / c.tau);
  for (int a = 0; a < 3; ++a) m.collision.g[a] = Scalar(c.body_force[a]);
}
template <class Scalar, bool Regularized>
void configure(ThermalModel<Scalar, Regularized>& m, const Case& c) {
  for (int n = 0; n < 3; ++n) {
    m.collision.tau_const[n] = Scalar(c.thermal.tau_const[n]);
    m.collision.tau_per_pressure[n] = Scalar(c.thermal.tau_per_pressure[n]);
  }
  // gravity g in the model's units; dt = 1/r
  for (int a = 0; a < 3; ++a) m.collision.gdt[a] = Scalar(c.body_force[a] / D2Q37::unit());
  m.walls.active = c.faces[2].kind != FaceKind::periodic;
  for (int side = 0; side < 2; ++side) {
    const double T = c.faces[2 + side].temperature;
    m.walls.adiabatic[side] = std::isnan(T);
    m.walls.temperature[side] = std::isnan(T) ? 1.0 : T;
    m.walls.raw[side] = c.faces[2 + side].raw_temperature;
  }
}

// The block of a part, as a neighbour in the same memory space reads it.
template <class Model, class Layout, class MemorySpace>
struct PartBlock {
  Block<typename Model::lattice_type, typename Model::scalar_type, Layout, MemorySpace> block;
};

template <class Model, class Layout, class Exec>
class BlockPart final : public Part, public PartBlock<Model, Layout, typename Exec::memory_space> {
 public:
  using Lattice = typename Model::lattice_type;
  using Scalar = typename Model::value_type;  // arithmetic
  using S = typename Model::scalar_type;      // the variant's scalar (block/storage.hpp)
  using P = Storage<S>;
  using Stored = stored_t<S>;  // elements of population arrays and halo buffers
  using memory_space = typename Exec::memory_space;
  using storage = PartBlock<Model, Layout, memory_space>;
  using block_type = Block<Lattice, S, Layout, memory_space>;
  using view = Kokkos::View<Stored*, memory_space>;
  using host_view = Kokkos::View<Stored*, NodeStagingSpace>;
  static constexpr int Q = Lattice::q;

  // `halo_exec`: the instance the halos across the split axis are packed,
  // copied and unpacked on (the halo lane; may be `exec` itself).
  BlockPart(const PartSetup& s, const Model& model, const Exec& exec, const Exec& halo_exec)
      : storage{make_block(s)},
        m_exec(exec),
        m_halo_exec(halo_exec),
        m_model(model),
        m_wall(s.geometry.table),
        m_origin(s.origin),
        m_in_tile{s.origin[0] - s.tile_origin[0], s.origin[1] - s.tile_origin[1],
                  s.origin[2] - s.tile_origin[2]},
        m_periodic(s.periodic),
        m_late(s.late),
        m_split(s.split_axis),
        m_fused(s.c.execution.kernel == KernelPath::fused),
        m_aa(Model::in_place_streaming && s.c.execution.streaming == Streaming::aa) {
    const Extents& e = block().extents();
    first_touch();
    const Extents global(s.c.size, Lattice::halo, Lattice::dim);
    auto mat = Kokkos::create_mirror_view(block().material());
    const auto& o = s.origin;
    const int dx = global.halo[0] - e.halo[0];  // rows_without_x_halo: 1
    for (int z = 0; z < e.ext(2); ++z)
      for (int y = 0; y < e.ext(1); ++y)
        for (int x = 0; x < e.ext(0); ++x)
          mat(e.site_index()(x, y, z)) =
              s.geometry.material[global.site_index()(o[0] + dx + x, o[1] + y, o[2] + z)];
    // The model's wall rows belong to the parts at the lattice's y ends.
    m_wall_side = {o[1] == 0, o[1] + s.size[1] == s.c.size[1]};
    Kokkos::deep_copy(block().material(), mat);
    // Host parts pull from ghosts at the lattice's wall faces
    // (kernels/wall_ghosts.hpp); the model's wall rows (D2Q37) stream in
    // its wall kernel instead.
    const bool ghosts = is_host_space_v<Exec> && Model::max_wall_rows == 0;
    Kokkos::View<bool*, Kokkos::HostSpace> ghosted("kolb::ghosted", ghosts ? e.num_sites() : 0);
    WallFaces walls{};
    if (ghosts) {
      // The lattice's own non-periodic faces (never a neighbour's or a rank's).
      for (int a = 0; a < e.dim; ++a) {
        const bool at_end[2] = {o[a] == 0, o[a] + s.size[a] == s.c.size[a]};
        for (int side = 0; side < 2; ++side)
          walls[a][side] = at_end[side] && s.c.faces[2 * a + side].kind != FaceKind::periodic;
      }
      mark_wall_ghosts(mat, e, walls, ghosted);
    }
    m_bulk = find_bulk_rows<Lattice>(e, Kokkos::View<const material_t*, Kokkos::HostSpace>(mat),
                                     true, ghosted);
    if (ghosts) {
      m_x_wall_lanes = x_wall_lanes(s, walls, ghosted);
      const WallGhostPlan plan =
          wall_ghosts<Lattice>(mat, e, block().layout(), ghosted, m_bulk, m_aa, m_x_wall_lanes);
      m_ghost_runs = Kokkos::create_mirror_view_and_copy(memory_space(), plan.runs);
      m_lane_ghost_runs = Kokkos::create_mirror_view_and_copy(memory_space(), plan.lane_runs);
    }
    m_fluid_rows =
        find_bulk_rows<Lattice>(e, Kokkos::View<const material_t*, Kokkos::HostSpace>(mat), false);
    m_x_wraps = x_wraps_in_rows(s);
    if (e.halo[0] != Lattice::halo && !m_x_wraps)
      throw std::logic_error(s.label + ": rows stored without x halos do not wrap x");
    m_aa_x_rows = aa_x_halos_in_rows();
    m_aa_yz_rows = aa_yz_halos_in_rows();
    if constexpr (!is_host_space_v<Exec>) {
      m_bulk_on_device = bulk_runs_on<memory_space>(m_bulk);
      m_fluid_rows_on_device = bulk_runs_on<memory_space>(m_fluid_rows);
    }
    if (m_aa)  // where the populations pushed across each split face belong
      for (const Side side : {Side::left, Side::right})
        m_pushed_map[int(side)] = Kokkos::create_mirror_view_and_copy(
            memory_space(),
            pushed_across_map<Lattice>(mat, e, block().layout(), pushed_region(side, true), m_split,
                                       CrossingPopulations<Lattice>(m_split, side), m_periodic));
    // Where those pushed into periodic halos belong; where local steps fill
    // the x halos at their rows' ends, their rows take what was pushed into
    // their x halos (Collide::row_start, row_last), and in parts periodic
    // onto themselves along every axis what was pushed into every halo
    // (take_yz_halos_in_rows); those pairs are kept apart for local steps
    // that do not (UpdateZone). Reads of the state between the two steps
    // need neither: AAUnstream takes what the pull pushed into halos from
    // the halos.
    if constexpr (Model::in_place_streaming) {
      if (m_aa) {
        const auto map = [&](PushedHalos which) {
          return Kokkos::create_mirror_view_and_copy(
              memory_space(),
              periodic_push_map<Lattice>(mat, e, block().layout(), m_periodic, which));
        };
        if (!m_aa_yz_rows)
          m_periodic_push_map = map(m_aa_x_rows ? PushedHalos::outside_rows : PushedHalos::all);
        if (m_aa_x_rows) {
          m_row_push_map = map(m_aa_yz_rows ? PushedHalos::all : PushedHalos::rows_only);
          if (index_t(m_row_push_map.extent(0) / 2) != aa_local(true).row_start_copies())
            throw std::logic_error(s.label +
                                   ": the AA rows' halo copies differ from the push map's");
        }
      }
    }
  }

  // Zeros in the populations, each page first touched by the thread whose
  // rows it holds in the kernels' static row partition (on a host with
  // several NUMA nodes a page then lives next to the core that streams it;
  // a flat fill would put the first populations' arrays on one node). A
  // flat pass then zeros what no row reaches: halos and layout padding.
  void first_touch() {
    const Region all = interior_region(block().extents());
    const int buffers = block().next().data() == block().current().data() ? 1 : 2;  // AA: one
    for (int b = 0; b < buffers; ++b) {
      const view& f = b == 0 ? block().current() : block().next();
      if constexpr (is_host_space_v<Exec>)
        for_each_site(
            "kolb::FirstTouch", m_exec, all,
            ZeroSites<Stored, Layout, Q, memory_space>{f, block().layout(), block().site_index()});
      Kokkos::deep_copy(m_exec, f, Stored(0));
    }
    m_exec.fence();
  }

  void update(UpdateZone zone) override {
    m_scratch_fresh = false;
    if (zone != UpdateZone::inner) wait_for_halos();
    if constexpr (Model::in_place_streaming) {
      if (m_aa) return aa_step(zone);
    }
    if (zone != UpdateZone::border) fill_wall_ghosts();
    for_zone(zone, [&](const Region& r) { update_region(r); });
  }

  void fill_periodic(int axis) override {
    m_scratch_fresh = false;
    if (!read_periodic()[axis] || !reads_halos()) return;            // AA: before pull steps only
    if (m_rows_filled_halos && (axis == 0 || m_aa_yz_rows)) return;  // by the local step's rows
    wait_for_halos();  // its corners copy those across the split axis
    fill_periodic_axis<Lattice>(m_exec, block().current(), block().layout(), block().extents(),
                                axis, m_aa);
  }

  void fill_periodic_edges() override {
    m_scratch_fresh = false;
    if (!reads_halos()) return;
    wait_for_halos();
    const Extents& e = block().extents();
    for (const Side side : {Side::left, Side::right}) {
      if (!m_late[m_split][int(side)]) continue;
      // The halo layers across the split axis, over every other axis' halos.
      const Region slab = face_region(e, m_split, side, false, true);
      for (const int a : e.fill_order())
        if (a != m_split && m_periodic[a])
          fill_periodic_axis<Lattice>(m_exec, block().current(), block().layout(), e, a, m_aa,
                                      &slab);
    }
  }

  void swap() override {
    if (!m_aa) block().swap();
  }
  void fence() override {
    m_exec.fence();
    fence_halos();
  }
  void fence_halos() override {
    m_halo_exec.fence();
    m_halos_queued = false;
  }
  void halos_ordered() override { m_halos_queued = false; }

  void fill_halo(Side side, Part& neighbour) override {
    m_scratch_fresh = false;
    if (auto* same = dynamic_cast<storage*>(&neighbour)) {
      const block_type& src = same->block;
      const int a = m_split;
      const Region halo = face_region(block().extents(), a, side, false);
      Kokkos::Array<int, 3> shift{0, 0, 0};
      shift[a] = face_region(src.extents(), a, opposite(side), true).lo[a] - halo.lo[a];
      for_each_site("kolb::HaloCopy", m_exec, halo,
                    HaloCopy<Lattice, Stored, Layout, memory_space>{
                        src.current(), block().current(), src.layout(), block().layout(),
                        src.site_index(), block().site_index(), shift, crossing(a, side)});
      return;
    }
    const HaloBuffer packed = neighbour.pack(m_split, opposite(side), false);
    neighbour.fence();
    unpack(m_split, side, packed);
  }

  HaloBuffer pack(int axis, Side border, bool host) override {
    const Region r = face_region(block().extents(), axis, border, true);
    const CrossingPopulations<Lattice> pop = crossing(axis, opposite(border));
    view& buffer = halo_buffer(m_send[axis][int(border)], r, pop);
    const Exec& exec = lane(axis);
    for_each_site("kolb::HaloPack", exec, r, halo_pack<false>(buffer, r, pop));
    return buffer_of(exec, buffer, m_send_host[axis][int(border)], host, true);
  }

  HaloBuffer receive_buffer(int axis, Side side, bool host) override {
    const Region r = face_region(block().extents(), axis, side, false);
    view& buffer = halo_buffer(m_recv[axis][int(side)], r, crossing(axis, side));
    return buffer_of(m_exec, buffer, m_recv_host[axis][int(side)], host, false);
  }

  void unpack(int axis, Side side, const HaloBuffer& packed) override {
    m_scratch_fresh = false;
    const Region r = face_region(block().extents(), axis, side, false);
    const CrossingPopulations<Lattice> pop = crossing(axis, side);
    view& buffer = halo_buffer(m_recv[axis][int(side)], r, pop);
    const Exec& exec = lane(axis);
    receive(exec, buffer, packed);
    for_each_site("kolb::HaloUnpack", exec, r, halo_pack<true>(buffer, r, pop));
  }

  bool reads_halos() const override { return !m_aa || !m_aa_streamed; }

  HaloBuffer pack_pushed(Side side, bool host) override {
    const Region r = pushed_region(side, false);
    // Populations leaving through `side`: those entering from the other one.
    const CrossingPopulations<Lattice> pop(m_split, opposite(side));
    view& buffer = halo_buffer(m_pushed[int(side)], r, pop);
    const Exec& exec = lane(m_split);
    for_each_site("kolb::PushedPack", exec, r, halo_pack<false>(buffer, r, pop));
    return buffer_of(exec, buffer, m_pushed_host[int(side)], host, true);
  }

  HaloBuffer pushed_receive_buffer(Side side, bool host) override {
    view& buffer = halo_buffer(m_pushed_in[int(side)], pushed_region(side, true),
                               CrossingPopulations<Lattice>(m_split, side));
    return buffer_of(m_exec, buffer, m_pushed_in_host[int(side)], host, false);
  }

  void unpack_pushed(Side side, const HaloBuffer& packed) override {
    m_scratch_fresh = false;
    const Region r = pushed_region(side, true);
    const CrossingPopulations<Lattice> pop(m_split, side);
    view& buffer = halo_buffer(m_pushed_in[int(side)], r, pop);
    const Exec& exec = lane(m_split);
    receive(exec, buffer, packed);
    const auto& map = m_pushed_map[int(side)];
    for_each_index("kolb::ScatterPushed", exec, index_t(map.extent(0) / 2),
                   ScatterPushed<Stored, memory_space>{block().current(), buffer, map});
  }

  // Between AA step pairs the populations are post-collision with opposites
  // swapped: the observables and moments read them in place (the run loop's
  // stability checks would otherwise copy the lattice each time).
  bool read_swapped() const { return m_aa && !m_aa_streamed && !m_scratch_fresh; }

  ObservableSums observe(const RowSample& rows) override {
    const bool swapped = read_swapped();
    const block_type b = swapped ? block() : post_collision_block();
    const Extents& e = b.extents();
    const RowSample local = rows.shifted(m_origin[1] - e.halo[1] + m_origin[2] - e.halo[2]);
    return reduce_sites(
        "kolb::Observables", m_exec, interior_region(e),
        Observables<Model, Layout, memory_space>{b.current(), b.material(), b.layout(),
                                                 b.site_index(), m_model, swapped, local});
  }

  void gather_fields(HostFields& out) override {
    const bool swapped = read_swapped();
    const block_type b = swapped ? block() : post_collision_block();
    const Extents& e = b.extents();
    if constexpr (std::is_same<memory_space, Kokkos::HostSpace>::value) {
      // Host parts write straight into the tile's arrays (views of them, the
      // index shifted to this part's place): no staging arrays, whose fresh
      // pages cost more than the moments themselves, and no serial copy.
      InteriorIndex at(e);
      at.hx -= m_in_tile[0], at.hy -= m_in_tile[1], at.hz -= m_in_tile[2];
      at.nx = out.n[0], at.ny = out.n[1];
      const std::size_t n = out.size();
      using arrays = MomentArrays<memory_space>;
      compute_moments(
          m_exec, b, m_model, at, swapped,
          arrays{decltype(arrays::rho)(out.rho.data(), n), decltype(arrays::u)(out.u.data(), n),
                 decltype(arrays::T)(out.temperature.data(), out.temperature.size()),
                 decltype(arrays::material)(out.material.data(), n)});
      m_exec.fence();
    } else {
      // Device parts: compact arrays in the part's memory, copied to the
      // host and placed in the tile there.
      const index_t n = e.num_interior();
      // Every entry is written by Moments: no fill.
      const auto no_fill = [](const char* label) {
        return Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing);
      };
      using arrays = MomentArrays<memory_space>;
      const arrays moments{decltype(arrays::rho)(no_fill("kolb::rho"), n),
                           decltype(arrays::u)(no_fill("kolb::u"), n),
                           decltype(arrays::T)(no_fill("kolb::T"), Model::has_temperature ? n : 0),
                           decltype(arrays::material)(no_fill("kolb::material"), n)};
      compute_moments(m_exec, b, m_model, InteriorIndex(e), swapped, moments);
      m_exec.fence();
      auto rho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.rho);
      auto u = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.u);
      auto T = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.T);
      auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), moments.material);
      for_each_interior([&](index_t k, int x, int y, int z) {
        const std::size_t g = tile_index(out, x, y, z);
        out.rho[g] = rho(k);
        for (int a = 0; a < 3; ++a) out.u[3 * g + a] = u(k, a);
        if (Model::has_temperature) out.temperature[g] = T(k);
        out.material[g] = mat(k);
      });
    }
  }

  void gather_populations(std::vector<double>& out, const std::array<int, 3>& tile) override {
    const block_type b = post_collision_block();
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.current());
    for_each_interior([&](index_t, int x, int y, int z) {
      const std::size_t g = tile_index(tile, x, y, z);
      for (int i = 0; i < Q; ++i)
        out[g * Q + i] = P::template exact<Lattice>(f(b.layout()(b.extents().site(x, y, z), i)), i);
    });
  }

  void set_populations(const std::vector<double>& in, const std::array<int, 3>& tile) override {
    m_scratch_fresh = false;
    m_exec.fence();
    auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block().current());
    const auto& layout = block().layout();
    const Extents& e = block().extents();
    for_each_interior([&](index_t, int x, int y, int z) {
      const std::size_t g = tile_index(tile, x, y, z);
      for (int i = 0; i < Q; ++i)
        f(layout(e.site(x, y, z), i)) = P::template from_exact<Lattice>(in[g * Q + i], i);
    });
    Kokkos::deep_copy(block().current(), f);
    if constexpr (Model::in_place_streaming) {
      if (m_aa) {  // the AA state between steps: post-collision, swapped
        swap_opposites(block().current());
        m_aa_streamed = false;
        m_rows_filled_halos = false;
      }
    }
    m_exec.fence();
  }

  void set_fields(const HostFields& in) override {
    m_scratch_fresh = false;
    const Extents& e = block().extents();
    const index_t n = e.num_interior();
    Kokkos::View<double*, Kokkos::HostSpace> rho_h("kolb::rho0", n), T_h("kolb::T0", n);
    Kokkos::View<double* [3], Kokkos::LayoutRight, Kokkos::HostSpace> u_h("kolb::u0", n);
    for_each_interior([&](index_t k, int x, int y, int z) {
      const std::size_t g = tile_index(in, x, y, z);
      rho_h(k) = in.rho[g];
      for (int a = 0; a < 3; ++a) u_h(k, a) = in.u[3 * g + a];
      T_h(k) = in.temperature.empty() ? 1.0 : in.temperature[g];
    });
    auto rho = Kokkos::create_mirror_view_and_copy(memory_space(), rho_h);
    auto u = Kokkos::create_mirror_view_and_copy(memory_space(), u_h);
    auto T = Kokkos::create_mirror_view_and_copy(memory_space(), T_h);
    for (const view& f : {block().current(), block().next()})
      for_each_site("kolb::InitializeEquilibrium", m_exec, interior_region(e),
                    InitializeEquilibrium<Model, Layout, memory_space>{
                        f, block().material(), rho, u, T, block().layout(), block().site_index(),
                        InteriorIndex(e), m_model});
    if constexpr (Model::in_place_streaming) {
      if (m_aa) {  // AA state between steps: post-collision, swapped
        swap_opposites(block().current());
        m_aa_streamed = false;
        m_rows_filled_halos = false;
      }
    }
    m_exec.fence();
  }

  double time_kernel(BenchKernel kernel, int steps) override {
    m_scratch_fresh = false;
    if (kernel != BenchKernel::aa) m_rows_filled_halos = false;  // the others write the buffer too
    const Region all = interior_region(block().extents());
    m_exec.fence();
    Kokkos::Timer timer;
    // fused and aa time whole steps as a run on one block takes them, with
    // the periodic halos (and AA's push-back); propagate and collide time
    // the two halves of a split step.
    for (int k = 0; k < steps; ++k) {
      switch (kernel) {
        case BenchKernel::fused:
          two_buffer_halos(read_periodic());
          launch("kolb::StreamCollide", all, stream_collide());
          block().swap();
          break;
        case BenchKernel::propagate:
          two_buffer_halos(m_periodic);
          fill_wall_ghosts(m_lane_ghost_runs);  // what the fused rows' end lines take
          launch("kolb::Propagate", all, propagate());
          block().swap();
          break;
        case BenchKernel::collide: launch_local("kolb::Collide", all, collide(m_model)); break;
        case BenchKernel::aa:  // AAPull / AALocal steps on one buffer, as a run takes them
          if constexpr (!Model::in_place_streaming) {
            throw std::invalid_argument("time_kernel: the model has no in-place (aa) scheme");
          } else {
            if (!m_aa)
              throw std::invalid_argument(
                  "time_kernel: aa needs a part built for it (execution.streaming: aa)");
            for (const int a : block().extents().fill_order()) fill_periodic(a);  // pulls only
            aa_step(UpdateZone::all);
          }
      }
    }
    m_exec.fence();
    return timer.seconds();
  }

  std::string space() const override { return Exec::name(); }
  int concurrency() const override { return m_exec.concurrency(); }

 private:
  // Host SoA and CSoA parts of fused two-buffer runs whose rows go by lines
  // with non-temporal stores (StreamCollide: by_lines, beyond the cache)
  // start each x row's first interior site on a cache line of every
  // population array (rows padded to whole lines, and to whole clusters for
  // CSoA; arrays shifted by block.hpp's aligned_row_lead): their line rows
  // then store every line whole, where a row's partial first and last lines
  // went through the cache (D3Q19 fused at 160^3 on a Zen 4,
  // docs/performance-log.md "Aligned two-buffer rows"; short rows gain most:
  // 48-site rows 1.4-3.6x, 16-site rows 1.2-2.3x; D3Q19 CSoA rows on a Xeon 1.2-2.1x,
  // "Aligned CSoA rows"). AA parts stay unpadded (the same alignment slowed
  // their in-place rows), and so do parts the padding would not speed up,
  // among them rows shorter than a line (a thin host part split along x),
  // which store no whole line.
  static bool aligned_rows(const PartSetup& s) {
    using Fused = StreamCollide<Model, Layout, memory_space>;
    if (!is_host_space_v<Exec> ||
        !pads_rows(s.c.execution, Fused::by_lines, s.size[0], host::line_values<Stored>))
      return false;
    const Extents plain(s.size, Lattice::halo, Lattice::dim);
    return Fused::lines_for(2 * std::size_t(plain.num_sites()) * Q * sizeof(Stored));
  }
  // Aligned rows that wrap x themselves (x_wraps_in_rows) read no value of
  // their x halos: stored without them, a 160-site FP32 row takes 10 lines
  // instead of 11 (its halo sites and padding), and the hardware streamed
  // that line too (D3Q19 fused 160^3 FP32 1.10x, FP64 1.06x on one thread
  // of an Emerald Rapids VM; docs/performance-log.md, "Rows without x halos"). Decided before
  // the block exists, so from what makes x_wraps_in_rows hold: 3-D parts
  // (a 2-D row's first site has a neighbour one site before the array)
  // periodic onto themselves along every axis (no neighbour, whose halo
  // faces would have another shape, and no wall), n_x a whole number of
  // lines, and every site of the box with its halos fluid (every row one
  // bulk run).
  static bool rows_without_x_halo(const PartSetup& s) {
    using Fused = StreamCollide<Model, Layout, memory_space>;
    if constexpr (Lattice::dim < 3 || !Fused::lines_by_pointers || Model::max_wall_rows > 0) {
      return false;
    } else {
      if (!aligned_rows(s) || s.size[0] % Fused::line_sites != 0) return false;
      for (int a = 0; a < Lattice::dim; ++a)
        if (!s.periodic[a]) return false;
      // Lines also for the smaller block (StreamCollide::m_lines).
      const Extents rows(s.size, Lattice::halo, Lattice::dim, 1, 0, false);
      if (!Fused::lines_for(2 * std::size_t(rows.num_sites()) * Q * sizeof(Stored))) return false;
      const Extents part(s.size, Lattice::halo, Lattice::dim),
          global(s.c.size, Lattice::halo, Lattice::dim);
      const auto& o = s.origin;
      for (int z = 0; z < part.ext(2); ++z)
        for (int y = 0; y < part.ext(1); ++y)
          for (int x = 0; x < part.ext(0); ++x)
            if (s.geometry.material[global.site_index()(o[0] + x, o[1] + y, o[2] + z)] != kFluid)
              return false;
      return true;
    }
  }
  // The part's block: populations not yet touched (first_touch), rows
  // padded and shifted where aligned_rows says so, without x halos where
  // rows_without_x_halo says so.
  static block_type make_block(const PartSetup& s) {
    const bool aligned = aligned_rows(s), x_halo = !rows_without_x_halo(s);
    const Extents e(s.size, Lattice::halo, Lattice::dim,
                    row_align_sites(aligned, host::line_values<Stored>, Layout::vector_length),
                    s.split_axis, x_halo);
    return block_type(e, s.label, s.c.execution.streaming == Streaming::aa ? 1 : 2, false,
                      aligned ? aligned_row_lead<Stored>(e.halo[0]) : 0);
  }
  block_type& block() { return storage::block; }
  const block_type& block() const { return storage::block; }

  // Whether the fused rows' end lines can take the x halo's lanes
  // themselves (StreamCollide::m_end_first): host two-buffer parts whose
  // rows go by aligned lines through pointers (blocks beyond the cache)
  // from the first interior site on, with no face filled during the update
  // (x_wraps_in_rows, x_wall_lanes).
  bool end_lines_take_halo(const PartSetup& s) const {
    using Fused = StreamCollide<Model, Layout, memory_space>;
    if constexpr (!Fused::lines_by_pointers || Model::max_wall_rows > 0) {
      return false;
    } else {
      if (!m_fused || m_aa || !aligned_rows(s)) return false;
      for (const auto& face : m_late)
        if (face[0] || face[1]) return false;
      const Extents& e = block().extents();
      const Fused f(block(), m_wall, m_model);
      return f.m_lines && f.line_start(e.halo[2], e.halo[1], e.halo[0]) == e.halo[0];
    }
  }
  // Whether the fused rows wrap x instead of reading x halos that a pass
  // over the x faces fills before each step: end_lines_take_halo, periodic
  // in x onto itself, every row one bulk run (no general site) and n_x a
  // whole number of lines. The pass touched a cache line per row and
  // crossing population on each x face: skipping it ran the D3Q19 fused
  // rows at 160^3 1.07-1.17x faster on a Zen 4 (docs/performance-log.md, "The
  // periodic x halos").
  bool x_wraps_in_rows(const PartSetup& s) const {
    using Fused = StreamCollide<Model, Layout, memory_space>;
    return m_periodic[0] && m_bulk.whole && block().extents().n[0] % Fused::line_sites == 0 &&
           end_lines_take_halo(s);
  }
  // Whether AA local steps fill the x halos at their rows' ends
  // (Collide::row_end) instead of the pass before each pull step: host AA
  // parts periodic onto themselves along x, whose x halos are filled first
  // (over the interior rows only, the rows the local step runs) and whose
  // rows are each one fluid run, whole in one work item of the local step's
  // launch (RowPieces).
  bool aa_x_halos_in_rows() const {
    if constexpr (!is_host_space_v<Exec> || !Model::in_place_streaming) {
      return false;
    } else {
      const Extents& e = block().extents();
      return m_aa && m_periodic[0] && m_fluid_rows.whole && e.halo[0] > 0 &&
             e.fill_order()[0] == 0 &&
             impl::RowPieces::of(interior_region(e), m_exec.concurrency()).pieces == 1;
    }
  }
  // Whether those rows also take and fill the y and z halos
  // (Collide::take_yz_halos_in_rows): where the part is periodic onto itself
  // along every axis, so that no halo is a wall's or a neighbour's, whose
  // fills and exchanges span the periodic halos in their own order.
  bool aa_yz_halos_in_rows() const {
    if (!m_aa_x_rows) return false;
    for (int a = 1; a < Lattice::dim; ++a)
      if (!m_periodic[a]) return false;
    return true;
  }
  // Which x faces' wall ghosts (low, high) the fused rows bounce in their
  // end lines (StreamCollide::m_end_walls) instead of the pass before each
  // step filling them: end_lines_take_halo, walls on those faces (for the
  // high face, n_x a whole number of lines), and every bulk run that
  // reaches the face at least a line long and pulling across it only from
  // ghosts. The pass touched two cold lines a row and crossing population
  // on each x face, ~10 % of a 128^3 cavity step (docs/performance-log.md, "X
  // walls in the rows' end lines").
  std::array<bool, 2> x_wall_lanes(const PartSetup& s, const WallFaces& walls,
                                   const Kokkos::View<bool*, Kokkos::HostSpace>& ghosted) const {
    constexpr int line = StreamCollide<Model, Layout, memory_space>::line_sites;
    std::array<bool, 2> lanes{false, false};
    if (!end_lines_take_halo(s)) return lanes;
    const Extents& e = block().extents();
    const SiteIndex site = e.site_index();
    for (int side = 0; side < 2; ++side) {
      bool ok = walls[0][side] && (side == 0 || e.n[0] % line == 0);
      const int x = side == 0 ? e.halo[0] : e.halo[0] + e.n[0] - 1;  // next to the face
      const int cx = side == 0 ? 1 : -1;                             // populations pulled across it
      for (int z = e.halo[2]; ok && z < e.halo[2] + e.n[2]; ++z)
        for (int y = e.halo[1]; ok && y < e.halo[1] + e.n[1]; ++y) {
          const int b = m_bulk(y, z, 0), end = m_bulk(y, z, 1);
          if (x < b || x >= end) continue;  // a general site bounces by itself
          ok = end - b >= line;
          for (int i = 0; ok && i < Q; ++i)
            if (Lattice::c(i, 0) == cx)
              ok = ghosted(site(x - cx, y - Lattice::c(i, 1), z - Lattice::c(i, 2)));
        }
      lanes[side] = ok;
    }
    return lanes;
  }
  // The periodic axes whose halos the update reads: all of m_periodic but x
  // where the fused rows wrap it.
  std::array<bool, 3> read_periodic() const {
    std::array<bool, 3> axes = m_periodic;
    axes[0] = axes[0] && !m_x_wraps;
    return axes;
  }

  template <class F>
  void launch(const char* label, const Region& r, const F& f) {
    if constexpr (is_host_space_v<Exec>)
      for_each_site_split(label, m_exec, r, f, m_bulk);
    else
      for_each_site_split(label, m_exec, r, f, m_bulk_on_device);
  }
  // Kernels that read only their own site: bulk over runs of fluid sites.
  template <class F>
  void launch_local(const char* label, const Region& r, const F& f) {
    if constexpr (is_host_space_v<Exec>)
      for_each_site_split(label, m_exec, r, f, m_fluid_rows);
    else
      for_each_site_split(label, m_exec, r, f, m_fluid_rows_on_device);
  }
  StreamCollide<Model, Layout, memory_space> stream_collide() const {
    StreamCollide<Model, Layout, memory_space> f(block(), m_wall, m_model);
    const Extents& e = block().extents();
    if (m_x_wraps || m_x_wall_lanes[0]) f.m_end_first = e.halo[0];
    if (m_x_wraps || m_x_wall_lanes[1]) f.m_end_last = e.halo[0] + e.n[0] - 1;
    f.m_end_walls = !m_x_wraps;
    return f;
  }
  Propagate<Lattice, S, Layout, memory_space> propagate() const { return {block(), m_wall}; }
  Collide<Model, Layout, memory_space> collide(const Model& model) const {
    return {block(), model};
  }

  // One step of region r: the two-buffer update, and the model's wall rows
  // (D2Q37) streamed and completed by its wall kernel, then collided with
  // its wall collision (docs/reference/d2q37.md §8) where r meets them.
  void update_region(const Region& r) {
    if constexpr (Model::max_wall_rows > 0) {
      if (const int rows = m_model.wall_rows()) {
        const Region all = interior_region(block().extents());
        Region inner = r, edge[2] = {r, r};
        if (m_wall_side[0]) inner.lo[1] = std::max(inner.lo[1], all.lo[1] + rows);
        if (m_wall_side[1]) inner.hi[1] = std::min(inner.hi[1], all.hi[1] - rows);
        edge[0].hi[1] = std::min(r.hi[1], all.lo[1] + rows);
        edge[1].lo[1] = std::max(r.lo[1], all.hi[1] - rows);
        for (int side = 0; side < 2; ++side)
          if (!m_wall_side[side]) edge[side].hi[1] = edge[side].lo[1];  // empty
        two_buffer(inner);
        update_wall_rows(edge, rows);
        return;
      }
    }
    two_buffer(r);
  }

  // The wall rows of a region (edge[side], empty where it has none of that
  // side's): streamed and completed by the model's wall kernel, then
  // collided with its wall model. A host launches a side's rows together
  // when it has all of them (ThermalWalls::side_rows: row 3's temperature
  // once per column), each row kind in a vectorised loop otherwise, then
  // the collisions; a device runs both sides' rows and their collisions in
  // one launch (WallRowsCollided), as small launches cost it more than
  // their sites.
  void update_wall_rows(const Region (&edge)[2], int rows) {
    const auto walls = m_model.wall_kernel(block());
    const auto wall_collide = collide(m_model.wall_model());
    if constexpr (is_host_space_v<Exec>) {
      for (const Region& e : edge) {
        if (e.hi[1] - e.lo[1] == rows) {  // all of a side's rows: one launch over one row
          Region one = e;
          one.hi[1] = one.lo[1] + 1;
          for_each_site("kolb::WallRows", m_exec, one, walls.sides());
        } else {
          for_each_site("kolb::WallRows", m_exec, e, walls);
        }
      }
      for (const Region& e : edge) launch_local("kolb::Collide", e, wall_collide);
    } else {
      const int n0 = std::max(0, edge[0].hi[1] - edge[0].lo[1]);
      const int n1 = std::max(0, edge[1].hi[1] - edge[1].lo[1]);
      Region both = edge[0];  // x and z as the region's; rows k = 0 .. n0 + n1 - 1
      both.lo[1] = 0;
      both.hi[1] = n0 + n1;
      impl::with_bulk_functor(wall_collide, [&](const auto& lean) {
        using Walls = std::decay_t<decltype(walls)>;
        using Lean = std::decay_t<decltype(lean)>;
        for_each_site(
            "kolb::WallRows", m_exec, both,
            WallRowsCollided<Walls, std::decay_t<decltype(wall_collide)>, Lean, memory_space>{
                walls, wall_collide, lean, m_fluid_rows_on_device, n0, edge[0].lo[1],
                edge[1].lo[1]});
      });
    }
  }

  // The regions of a zone: `inner` leaves out the halo-wide layers next to
  // late faces, `border` is those layers (slabs along x, then y, then z).
  std::vector<Region> zone_regions(UpdateZone zone) const {
    const Extents& e = block().extents();
    const Region all = interior_region(e);
    Region inner = all;
    for (int a = 0; a < e.dim; ++a) {
      if (m_late[a][0]) inner.lo[a] += e.halo[a];
      if (m_late[a][1]) inner.hi[a] -= e.halo[a];
      inner.hi[a] = std::max(inner.hi[a], inner.lo[a]);
    }
    if constexpr (Model::max_wall_rows > 0) {
      // Wall rows read the pre-streaming state twice their depth into the
      // fluid, which on a short tile is a late halo: they wait for it there.
      if (const int rows = m_model.wall_rows();
          rows > 0 && (m_late[1][0] || m_late[1][1]) && e.n[1] <= 2 * rows) {
        if (m_wall_side[0]) inner.lo[1] = std::max(inner.lo[1], all.lo[1] + rows);
        if (m_wall_side[1]) inner.hi[1] = std::min(inner.hi[1], all.hi[1] - rows);
        inner.hi[1] = std::max(inner.hi[1], inner.lo[1]);
      }
    }
    if (zone == UpdateZone::inner) return {inner};
    std::vector<Region> border;
    Region rest = all;  // what the slabs of earlier axes have not covered
    for (int a = 0; a < e.dim; ++a) {
      Region lo = rest, hi = rest;
      lo.hi[a] = inner.lo[a];
      hi.lo[a] = std::max(inner.hi[a], inner.lo[a]);
      for (const Region& slab : {lo, hi})
        if (!slab.empty()) border.push_back(slab);
      rest.lo[a] = inner.lo[a];
      rest.hi[a] = std::max(inner.hi[a], inner.lo[a]);
    }
    return border;
  }

  // Index of interior site (x, y, z) of this part in its tile's arrays.
  std::size_t tile_index(const std::array<int, 3>& n, int x, int y, int z) const {
    const std::size_t tx = m_in_tile[0] + x, ty = m_in_tile[1] + y, tz = m_in_tile[2] + z;
    return tx + std::size_t(n[0]) * (ty + std::size_t(n[1]) * tz);
  }
  std::size_t tile_index(const HostFields& f, int x, int y, int z) const {
    return tile_index(f.n, x, y, z);
  }

  // A packed buffer as the caller asked for it: in the part's memory, or in
  // host memory (staged through `staging` when the part is elsewhere, the
  // copy queued on `exec`).
  HaloBuffer buffer_of(const Exec& exec, view& buffer, host_view& staging, bool host,
                       bool outgoing) {
    const bool here = std::is_same<memory_space, Kokkos::HostSpace>::value;
    if (!host || here) return {buffer.data(), buffer.size(), buffer.size() * sizeof(Stored), here};
    if (staging.size() != buffer.size())
      staging = host_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kolb::halo_staging"),
                          buffer.size());
    if (outgoing) Kokkos::deep_copy(exec, staging, buffer);
    return {staging.data(), staging.size(), staging.size() * sizeof(Stored), true};
  }

  // The instance the halos of `axis` go through: the halo lane across the
  // split axis (noted, so that kernels reading those halos wait for it).
  // A lone part has m_split 0, so its MPI x faces take the lane too; the
  // update, the periodic fills and the MPI path wait for it all the same.
  const Exec& lane(int axis) {
    if (axis != m_split) return m_exec;
    m_halos_queued = true;
    return m_halo_exec;
  }
  // Before a kernel of the update lane reads the halos across the split axis.
  void wait_for_halos() {
    if (m_halos_queued) fence_halos();
  }

  void two_buffer(const Region& r) {
    if (m_fused) {
      launch("kolb::StreamCollide", r, stream_collide());
    } else {
      launch("kolb::Propagate", r, propagate());
      launch_local("kolb::Collide", r, collide(m_model));
    }
  }

  // Calls f(k, x, y, z) for every interior site (interior coordinates) in
  // compact order k = x + nx (y + ny z).
  template <class F>
  void for_each_interior(F&& f) const {
    const Extents& e = block().extents();
    index_t k = 0;
    for (int z = 0; z < e.n[2]; ++z)
      for (int y = 0; y < e.n[1]; ++y)
        for (int x = 0; x < e.n[0]; ++x, ++k) f(k, x, y, z);
  }

  // The populations crossing `side` of `axis` as the next pull reads them.
  CrossingPopulations<Lattice> crossing(int axis, Side side) const {
    return CrossingPopulations<Lattice>(axis, side, m_aa && !m_aa_streamed);
  }

  // The halo layers across the split axis on `side` (border = false) or the
  // border layers next to them, over the other axes with their halos: where
  // an AA pull pushes populations across a face between parts, and where
  // they belong.
  Region pushed_region(Side side, bool border) const {
    return face_region(block().extents(), m_split, side, border, true);
  }

  // Copies a neighbour's packed buffer into `buffer` (unless it is that
  // one), queued on `exec`.
  void receive(const Exec& exec, view& buffer, const HaloBuffer& packed) {
    if (packed.count != buffer.size())
      throw std::logic_error("kolb: halo buffer of the wrong size for " +
                             block().material().label());
    const auto* data = static_cast<const Stored*>(packed.data);
    if (data == buffer.data()) return;
    if (packed.on_host)
      Kokkos::deep_copy(exec, buffer, unmanaged<Kokkos::HostSpace>(data, packed.count));
    else
      Kokkos::deep_copy(exec, buffer, unmanaged<NodeAccelerator::memory_space>(data, packed.count));
  }

  template <class Memory>
  using unmanaged = Kokkos::View<const Stored*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  template <bool Unpack>
  HaloPack<Lattice, Stored, Layout, memory_space, Unpack> halo_pack(
      const view& buffer, const Region& r, const CrossingPopulations<Lattice>& pop) const {
    return {block().current(), buffer,  block().layout(),  block().site_index(), r.lo[0],
            r.lo[1],           r.lo[2], r.hi[0] - r.lo[0], r.hi[1] - r.lo[1],    pop};
  }

  view& halo_buffer(view& buffer, const Region& r, const CrossingPopulations<Lattice>& pop) {
    const std::size_t n = std::size_t(r.size()) * pop.count;
    if (buffer.size() == n) return buffer;
    const auto label = Kokkos::view_alloc(Kokkos::WithoutInitializing, "kolb::halo_buffer");
    // A host part's buffers are pinned where the accelerator has pinned
    // memory: its copies from and to them then run asynchronously.
    if constexpr (std::is_same<memory_space, Kokkos::HostSpace>::value &&
                  !std::is_same<NodeStagingSpace, Kokkos::HostSpace>::value)
      buffer = host_view(label, n);
    else
      buffer = view(label, n);
    return buffer;
  }

  void swap_opposites(const view& f) {
    for_each_site("kolb::SwapOpposites", m_exec, interior_region(block().extents()),
                  SwapOpposites<Lattice, Stored, Layout, memory_space>{f, block().layout(),
                                                                       block().site_index()});
  }

  // f(region) over the regions of a zone (zone_regions; the interior for all).
  template <class F>
  void for_zone(UpdateZone zone, F&& f) {
    if (zone == UpdateZone::all) return f(interior_region(block().extents()));
    for (const Region& r : zone_regions(zone)) f(r);
  }

  // One AA step (or its inner sites, then its border: UpdateZone):
  // AAPull after a local step, AALocal after a pull.
  void aa_step(UpdateZone zone) {
    m_aa_streamed ? aa_local_step(zone) : aa_pull_step(zone);
    if (zone != UpdateZone::inner) m_aa_streamed = !m_aa_streamed;
  }
  // AA's odd step, after the halos (swapped slots; fill_periodic): the wall
  // ghosts, the pull, then what it pushed into periodic halos and ghosts
  // back to the sites.
  void aa_pull_step(UpdateZone zone) {
    if (zone != UpdateZone::border) fill_wall_ghosts();
    for_zone(zone, [&](const Region& r) {
      launch("kolb::AAPull", r, AAPull<Model, Layout, memory_space>(block(), m_wall, m_model));
    });
    m_rows_filled_halos = false;
    if (zone == UpdateZone::inner) return;
    push_back_periodic();
    m_row_pushes_pending = m_row_push_map.extent(0) > 0;
    fill_wall_ghosts<true>();
  }
  // AA's even step: collision in place, no halo read; where
  // aa_x_halos_in_rows, each whole row first takes what the pull pushed into
  // its x halos, and fills them for the next pull at its end (and, where
  // aa_yz_halos_in_rows, the y and z halo rows whose image it is).
  void aa_local_step(UpdateZone zone) {
    const bool rows = m_aa_x_rows && zone == UpdateZone::all;
    if (rows)
      m_row_pushes_pending = false;  // the rows take them
    else
      push_back_rows();
    for_zone(zone, [&](const Region& r) { launch_local("kolb::AALocal", r, aa_local(rows)); });
    m_rows_filled_halos = rows;
  }
  // The local step's functor; with `rows`, its rows take and fill their x
  // halos, and with m_aa_yz_rows the y and z halo rows whose images they are.
  AALocal<Model, Layout, memory_space> aa_local(bool rows) const {
    typename AALocal<Model, Layout, memory_space>::Args args(block());
    if (rows) {
      args.fill_x_halos_at_row_ends(block().extents().n[0]);
      args.take_x_pushes_at_row_starts(block().extents());
      if (m_aa_yz_rows) args.take_yz_halos_in_rows();
    }
    return {args, m_model};
  }
  // A lone two-buffer part's halos before its step (Domain::fill_halos):
  // the periodic ones of `axes` (read_periodic for StreamCollide, all for
  // Propagate, which does not wrap x).
  void two_buffer_halos(const std::array<bool, 3>& axes) {
    fill_periodic_halo<Lattice>(m_exec, block().current(), block().layout(), block().extents(),
                                axes, false);
    fill_wall_ghosts();
  }

  // The current buffer's wall ghosts, for the pull of the next step; with
  // Return (AA, after a pull step), what the bulk pushed into them goes back
  // to the sites as the general push bounces it.
  template <bool Return = false>
  void fill_wall_ghosts() {
    fill_wall_ghosts<Return>(m_ghost_runs);
  }
  template <bool Return = false>
  void fill_wall_ghosts(const Kokkos::View<GhostRun*, memory_space>& runs) {
    if (runs.extent(0) == 0) return;
    for_each_index(Return ? "kolb::WallGhostsReturn" : "kolb::WallGhosts", m_exec,
                   index_t(runs.extent(0)),
                   WallGhosts<Lattice, S, memory_space, Return>{block().current(), runs, m_wall});
  }

  // Values AAPull pushed into periodic halos go to the sites they belong to;
  // those in the interior rows' x halos, where the local rows take them, by
  // push_back_rows before a local step that does not.
  void push_back_periodic() { scatter_own("kolb::PeriodicPushBack", m_periodic_push_map); }
  void push_back_rows() {
    if (m_row_pushes_pending) scatter_own("kolb::RowPushBack", m_row_push_map);
    m_row_pushes_pending = false;
  }
  void scatter_own(const char* label, const Kokkos::View<index_t*, memory_space>& map) {
    if (map.extent(0) == 0) return;
    for_each_index(label, m_exec, index_t(map.extent(0) / 2),
                   ScatterPushed<Stored, memory_space>{block().current(), block().current(), map});
  }

  // The block as the two-buffer scheme holds it between steps
  // (post-collision populations in their own slots); a copy for AA states.
  block_type post_collision_block() {
    if constexpr (!Model::in_place_streaming) {
      return block();
    } else {
      if (!m_aa) return block();
      if (m_scratch_fresh) return block().with_current(m_scratch);
      const Extents& e = block().extents();
      // Scratch kept between calls: the run loop observes every fraction of a second.
      if (m_scratch.size() != block().current().size())
        m_scratch = view("kolb::post_collision", block().current().size());
      if (m_aa_streamed) {  // reads what the pull pushed into halos there (AAUnstream)
        for_each_site("kolb::AAUnstream", m_exec, interior_region(e),
                      AAUnstream<Lattice, S, Layout, memory_space>{
                          block().current(), m_scratch, block().material(), block().layout(),
                          m_wall, block().site_index()});
      } else {
        Kokkos::deep_copy(m_exec, m_scratch, block().current());
        swap_opposites(m_scratch);
      }
      m_scratch_fresh = true;
      return block().with_current(m_scratch);
    }
  }

  Exec m_exec;
  Exec m_halo_exec;             // the halo lane (lane())
  bool m_halos_queued = false;  // work queued on it since its last fence
  Model m_model;
  WallTerms<Lattice, Scalar> m_wall;
  // Device parts launch with copies of m_bulk and m_fluid_rows in their memory.
  BulkRunsOn<memory_space> m_bulk_on_device, m_fluid_rows_on_device;
  BulkRows m_bulk;
  BulkRows m_fluid_rows;           // runs of fluid sites (kernels reading their own site only)
  std::array<int, 3> m_origin;     // the part's first site in the lattice
  std::array<int, 3> m_in_tile;    // the part's first site in its tile's arrays
  std::array<bool, 3> m_periodic;  // axes whose halos this part fills from itself
  std::array<std::array<bool, 2>, 3> m_late;      // faces filled during the update (UpdateZone)
  int m_split;                                    // the node's split axis (faces between parts)
  std::array<bool, 2> m_wall_side{false, false};  // the part holds the y- / y+ wall rows
  bool m_fused, m_aa;
  bool m_x_wraps = false;            // x_wraps_in_rows: fused rows wrap x, no x halo filled
  bool m_aa_streamed = false;        // AA buffer holds streamed (not swapped) populations
  bool m_aa_x_rows = false;          // aa_x_halos_in_rows
  bool m_aa_yz_rows = false;         // aa_yz_halos_in_rows
  bool m_rows_filled_halos = false;  // the last step was a local one whose rows filled the x halos
                                     // (and with m_aa_yz_rows the y and z ones)
  view m_scratch;                    // AA: reconstructed post-collision state
  bool m_scratch_fresh = false;      // m_scratch matches the block (no change since)
  view m_send[3][2], m_recv[3][2];   // packed halos by axis and side
  host_view m_send_host[3][2], m_recv_host[3][2];  // their host copies (device parts)
  // AA: populations pushed across the split axis' faces, by side, and where they go.
  view m_pushed[2], m_pushed_in[2];
  host_view m_pushed_host[2], m_pushed_in_host[2];       // their host copies (device parts, MPI)
  Kokkos::View<index_t*, memory_space> m_pushed_map[2];  // pairs (packed, storage index)
  Kokkos::View<index_t*, memory_space> m_periodic_push_map;  // pairs (halo, image storage index)
  Kokkos::View<index_t*, memory_space> m_row_push_map;  // those the local rows take (row_start)
  bool m_row_pushes_pending = false;  // a pull's m_row_push_map pairs not yet moved
  Kokkos::View<GhostRun*, memory_space> m_ghost_runs;       // kernels/wall_ghosts.hpp
  Kokkos::View<GhostRun*, memory_space> m_lane_ghost_runs;  // those the rows' end lines take
  std::array<bool, 2> m_x_wall_lanes{false, false};         // x_wall_lanes
};

// A part of a variant on the role's execution space; this memory space's
// translation unit builds the roles whose space lives in it.
template <class Model, class Layout, class MemorySpace>
std::unique_ptr<Part> make_block_part(const PartSetup& s, const NodeSpaces& spaces) {
  Model model;
  configure(model, s.c);
  if constexpr (std::is_same<NodeAccelerator::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::accelerator)
      return std::make_unique<BlockPart<Model, Layout, NodeAccelerator>>(
          s, model, spaces.accelerator, spaces.accelerator_halos);
  }
  if constexpr (std::is_same<NodeHost::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::host)
      return std::make_unique<BlockPart<Model, Layout, NodeHost>>(s, model, spaces.host,
                                                                  spaces.host);
  }
  throw std::logic_error("kolb: no part of this role in this memory space");
}

}  // namespace kolb
