// Domain: the parts of a case, their faces and the step schedule; thread
// placement of the node's host thread.

#include <kolb/comm/communicator.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/helper_thread.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/domain/registry.hpp>
#include <kolb/model/lattice_info.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <stdexcept>
#include <thread>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace kolb {

namespace {

// CPUs of the calling thread and of every thread of its OpenMP pool.
std::vector<int> openmp_threads_cpus() {
  std::vector<int> cpus;
#pragma omp parallel
  {
#ifdef __linux__
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask) == 0)
#pragma omp critical(kolb_openmp_threads_cpus)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &mask) && std::find(cpus.begin(), cpus.end(), c) == cpus.end())
          cpus.push_back(c);
#endif
  }
  return cpus;
}

// Binds the calling thread to the CPUs not in `busy` (or to the last CPU if
// `busy` holds them all). The host thread must not share the cores of the
// OpenMP threads: created by the main thread it would inherit its binding,
// and a thread woken every step tends to be woken on its waker's CPU.
void bind_current_thread_away_from(const std::vector<int>& busy) {
#ifdef __linux__
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mask;
  CPU_ZERO(&mask);
  int free_cpus = 0;
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c)
    if (std::find(busy.begin(), busy.end(), int(c)) == busy.end()) CPU_SET(c, &mask), ++free_cpus;
  if (free_cpus == 0) {
    // The caller runs anywhere (no binding): take the last CPU, which
    // OpenMP's spread placement fills last.
    CPU_ZERO(&mask);
    CPU_SET(online - 1, &mask);
  }
  // Best effort: a restricted cpuset (containers, batch systems) may refuse
  // some CPUs; the thread then keeps the binding it inherited.
  (void)pthread_setaffinity_np(pthread_self(), sizeof(mask), &mask);
#else
  (void)busy;
#endif
}

// CPU-only builds run the host parts on a helper thread (Serial) while the
// initialising thread drives OpenMP; GPU builds launch the accelerator
// asynchronously and run the host parts on the initialising thread.
constexpr bool host_parts_on_helper =
    node_accelerator_on_host && !std::is_same<NodeAccelerator, NodeHost>::value;

// The sites of `tile` cut from fields of the whole lattice.
HostFields tile_of(const HostFields& all, const Tile& t) {
  HostFields f;
  f.allocate(t.size, t.offset, !all.temperature.empty());
  copy_box(all, t.offset, f, {0, 0, 0}, t.size);
  return f;
}

// KOLB_NODE_TRACE=N: every N overlapped steps, the host thread's time in each
// phase of them (stderr, ms per step; one tally per process, over every
// node it steps). A diagnostic for GPU nodes, whose lent machines have no
// profiler: it tells the host's own work from its waits on the
// accelerator's lanes.
struct NodeTrace {
  enum Phase {
    acc_launch,
    pack_acc,
    pack_host,
    to_acc,
    host_inner,
    wait_swap,
    host_border,
    wait_acc,
    count
  };
  static constexpr const char* names[count] = {"acc-launch",  "pack-acc",   "pack-host",
                                               "to-acc",      "host-inner", "wait-swap",
                                               "host-border", "wait-acc"};
  int every = 0, steps = 0, kind = 0, n[2] = {};
  double sum[2][count] = {};
  Kokkos::Timer clock;
  NodeTrace() {
    if (const char* e = std::getenv("KOLB_NODE_TRACE")) every = std::max(0, std::atoi(e));
  }
  void begin(bool pull) {
    if (!every) return;
    kind = pull ? 0 : 1;
    clock.reset();
  }
  void mark(Phase p) {
    if (!every) return;
    sum[kind][p] += clock.seconds();
    clock.reset();
  }
  void step_done() {
    if (!every) return;
    ++n[kind];
    if (++steps % every) return;
    for (int k = 0; k < 2; ++k) {
      if (!n[k]) continue;
      std::fprintf(stderr, "node trace, %s steps (%d):", k ? "local" : "pull", n[k]);
      for (int q = 0; q < count; ++q)
        std::fprintf(stderr, " %s %.3f", names[q], 1e3 * sum[k][q] / n[k]);
      std::fprintf(stderr, " ms/step\n");
      std::fill(sum[k], sum[k] + count, 0.0);
      n[k] = 0;
    }
  }
};
NodeTrace& node_trace() {
  static NodeTrace trace;
  return trace;
}

}  // namespace

Domain::Domain(const Case& c) : m_case(c), m_tile(whole_lattice(c)) {
  build(c);
  initialize();
}

Domain::Domain(const Case& c, std::shared_ptr<comm::CartGrid> grid, TilingChoice choice)
    : m_case(c),
      m_tile(make_tile(c, grid->dims(), grid->coords())),
      m_choice(choice),
      m_grid(grid) {
  build(c);
  initialize();
}

void Domain::initialize() {
  const HostFields initial = initial_fields(m_case);
  const HostFields mine = tile_of(initial, m_tile);
  set_fields(mine.rho, mine.u, mine.temperature);
}

void Domain::resplit(int host_columns) {
  if (host_columns == m_case.execution.host_columns) return;
  if (m_case.execution.streaming == Streaming::aa && m_step % 2 != 0)
    throw std::logic_error("Domain::resplit: an AA state is moved after even steps only");
  Case c = m_case;
  c.execution.host_columns = host_columns;
  const std::string problem = tile_split_problem(c);
  if (!problem.empty()) throw std::invalid_argument("Domain::resplit: " + problem);
  const std::vector<double> f = populations();
  const std::int64_t step = m_step;
  m_slots.clear();  // frees the old parts before the new ones are allocated
  m_helper.reset();
  m_halo_lane.reset();
  m_accelerator.reset();
  m_case = c;
  build(c);
  restore(f, step);
}

std::string Domain::tile_split_problem(const Case& c) const {
  if (c.execution.host_columns < 0) return {};
  Case tile_case = c;
  tile_case.size = m_tile.size;
  return split_problem(tile_case, c.execution.host_columns, node_split_axis(c, m_tile.ranks));
}

namespace {

// The parts of a Domain of tile `t` (`grid`: the ranks; null for one), in
// order along the split axis: [host: M layers | accelerator | host: M],
// each with what lies beyond its faces and which of them are late.
std::vector<PartSetup> part_setups(const Case& c, const Geometry& geometry, const Tile& t,
                                   const comm::CartGrid* grid) {
  const int s = c.execution.host_columns >= 0 ? node_split_axis(c, t.ranks) : 0;
  const int lx = t.size[s], m = std::max(c.execution.host_columns, 0);
  const int n = (m > 0 ? 2 : 0) + (lx - 2 * m > 0 ? 1 : 0);
  const auto periodic = c.periodic();
  // Part k's face is remote where another rank holds the tile across it
  // (across s, only the end parts' outer faces).
  auto remote = [&](int k, int a, Side side) {
    const bool end = a != s || (side == Side::left ? k == 0 : k == n - 1);
    return end && grid && t.ranks[a] > 1 && grid->neighbour(a, side) >= 0;
  };
  std::vector<PartSetup> out;
  auto add = [&](PartRole role, int first, int width, const char* label) {
    const int k = int(out.size());
    // A lone part fills its halos x, y, z, as a single-space run does.
    PartSetup setup{c, geometry, t.offset, t.size, t.offset, role, {}, {}, n > 1 ? s : 0, label};
    setup.origin[s] += first;
    setup.size[s] = width;
    for (int a = 0; a < 3; ++a) {
      // A lone part along an axis no other rank shares is its own neighbour.
      const bool self = periodic[a] && t.ranks[a] == 1 && (a != s || n == 1);
      for (const Side side : {Side::left, Side::right}) {
        const bool lattice_end = side == Side::left ? setup.origin[a] == 0
                                                    : setup.origin[a] + setup.size[a] == c.size[a];
        setup.faces[a][int(side)] = a >= c.dim                    ? FaceLink::none
                                    : self                        ? FaceLink::self
                                    : remote(k, a, side)          ? FaceLink::remote
                                    : lattice_end && !periodic[a] ? FaceLink::wall
                                                                  : FaceLink::neighbour;
        // The faces between the accelerator and the host parts arrive during
        // both sides' updates where the swap overlaps them (step_overlapped).
        const bool host_to_accelerator =
            role == PartRole::host && n == 3 && side == (k == 0 ? Side::right : Side::left);
        setup.late[a][int(side)] =
            remote(k, a, side) ||
            (a == s && ((role == PartRole::accelerator && n > 1) || host_to_accelerator));
      }
    }
    out.push_back(setup);
  };
  if (m > 0) add(PartRole::host, 0, m, "kolb::host_left");
  if (lx - 2 * m > 0) add(PartRole::accelerator, m, lx - 2 * m, "kolb::accelerator");
  if (m > 0) add(PartRole::host, lx - m, m, "kolb::host_right");
  return out;
}

}  // namespace

std::vector<std::pair<std::string, StepPlan>> plan_parts(const Case& c) {
  if (const std::string problem =
          split_problem(c, std::max(c.execution.host_columns, 0), node_split_axis(c, {1, 1, 1}));
      c.execution.host_columns > 0 && !problem.empty())
    throw ConfigError(c.source + ": execution.host_columns", problem);
  const LatticeInfo& info = lattice_info(c.lattice);
  const Geometry geometry = build_geometry(c, Extents(c.size, info.halo, info.dim));
  std::vector<std::pair<std::string, StepPlan>> out;
  for (const PartSetup& s : part_setups(c, geometry, whole_lattice(c), nullptr))
    out.emplace_back(s.label, plan_part(c, s));
  return out;
}

std::vector<std::pair<std::string, StepPlan>> Domain::plans() const {
  std::vector<std::pair<std::string, StepPlan>> out;
  for (const Slot& slot : m_slots) out.emplace_back(slot.label, slot.part->plan());
  return out;
}

void Domain::build(const Case& c) {
  m_accelerator = std::make_unique<AcceleratorInstance>();
  m_halo_lane = std::make_unique<AcceleratorInstance>(StreamPriority::urgent);
  const std::string where = c.source + ": execution.host_columns";
  if (c.execution.host_columns_auto && c.execution.host_columns < 0)
    throw ConfigError(where,
                      "'auto' is resolved by the load balancer (kolb run / kolb tune); "
                      "give a number of columns here");
  if (const std::string problem = tile_split_problem(c); !problem.empty())
    throw ConfigError(where, problem);
  const std::string memory = memory_problem(c, m_tile);
  if (!memory.empty()) throw ConfigError(c.source + ": domain.size", memory);
  const LatticeInfo& info = lattice_info(c.lattice);
  const Geometry geometry = build_geometry(c, Extents(c.size, info.halo, info.dim));
  const NodeSpaces spaces{m_accelerator->get(), NodeHost(), m_halo_lane->get()};
  const Tile& t = m_tile;
  const int s = c.execution.host_columns >= 0 ? node_split_axis(c, t.ranks) : 0;
  m_split = s;
  const auto setups = part_setups(c, geometry, t, m_grid.get());
  for (const PartSetup& setup : setups)
    m_slots.push_back({make_part(c, setup, spaces), setup.role, {}, setup.label});
  const int n = int(m_slots.size());
  const auto periodic = c.periodic();
  // Faces between neighbours along s, across the s boundary when periodic
  // on one rank (a lone part fills that halo itself), and to other ranks.
  // Tags name the receiving face: its axis, side and, across the other
  // axes, its part (tiles of one s range hold the same parts; across s
  // each side has one face, and uneven tiles may hold 2 or 3 parts).
  auto tag = [](int a, Side side, int k) { return (2 * a + int(side)) * 64 + k; };
  for (int k = 0; k < n; ++k) {
    Slot& slot = m_slots[k];
    const bool wrap = periodic[s] && t.ranks[s] == 1 && n > 1;
    if (k > 0 || wrap) slot.faces.push_back({s, Side::left, (k + n - 1) % n, false, 0, 0, {}, {}});
    if (k + 1 < n || wrap) slot.faces.push_back({s, Side::right, (k + 1) % n, false, 0, 0, {}, {}});
    for (int a = 0; a < 3; ++a)
      for (const Side side : {Side::left, Side::right}) {
        if (setups[k].faces[a][int(side)] != FaceLink::remote) continue;
        const int part = a != s ? k : 0;
        slot.faces.push_back({a,
                              side,
                              m_grid->neighbour(a, side),
                              true,
                              tag(a, side, part),
                              tag(a, opposite(side), part),
                              {},
                              {}});
      }
  }
  if (host_parts_on_helper && has(PartRole::host)) {
    m_helper = std::make_unique<HelperThread>();
    const std::vector<int> busy = openmp_threads_cpus();
    m_helper->submit([busy] { bind_current_thread_away_from(busy); });
    m_helper->wait();
  }
}

Domain::~Domain() = default;

bool Domain::has(PartRole role) const {
  return std::any_of(m_slots.begin(), m_slots.end(), [&](const Slot& s) { return s.role == role; });
}

void Domain::fill_halos(Slot& slot, bool own_role_only) {
  for (const Face& f : slot.faces) {
    const Slot& from = m_slots[f.neighbour];
    if (!f.remote && (!own_role_only || from.role == slot.role))
      slot.part->fill_halo(f.side, *from.part);
  }
  for (int a = 0; a < 3; ++a) slot.part->fill_periodic(a);
}

double Domain::update_role(PartRole role, bool fill) {
  Kokkos::Timer timer;
  for (Slot& s : m_slots)
    if (s.role == role) {
      if (fill) fill_halos(s);
      s.part->update();
    }
  for (Slot& s : m_slots)
    if (s.role == role) s.part->fence();
  return timer.seconds();
}

void Domain::advance(std::int64_t steps) {
  if (m_grid) {
    for (std::int64_t k = 0; k < steps; ++k) step_distributed();
    return;
  }
  if (m_slots.size() > 1) {
    for (std::int64_t k = 0; k < steps; ++k) step_parts(true);
    finish_pushes();  // the state between calls is whole
    return;
  }
  // One part: no faces, and launches queue back to back.
  Kokkos::Timer timer;
  Part& part = *m_slots[0].part;
  for (std::int64_t k = 0; k < steps; ++k) {
    for (int a = 0; a < 3; ++a) part.fill_periodic(a);
    part.update();
    part.swap();
  }
  part.fence();
  const double seconds = timer.seconds();
  m_step += steps;
  m_timings.steps += steps;
  m_timings.total += seconds;
  (m_slots[0].role == PartRole::accelerator ? m_timings.accelerator : m_timings.host) += seconds;
}

void Domain::start_exchange(int axis) {
  // Receives posted first; each part's packs are fenced before its sends
  // (only the packing parts: another thread may be driving the others).
  for (Slot& s : m_slots) {
    std::vector<std::pair<const Face*, HaloBuffer>> sends;
    for (Face& f : s.faces)
      if (f.remote && f.axis == axis) {
        f.received = s.part->receive_buffer(axis, f.side, !m_case.execution.gpu_aware_mpi);
        m_grid->receive(f.neighbour, f.tag, f.received.data, f.received.bytes);
        sends.emplace_back(&f, s.part->pack(axis, f.side, !m_case.execution.gpu_aware_mpi));
      }
    if (sends.empty()) continue;
    s.part->fence();
    for (const auto& [f, buffer] : sends)
      m_grid->send(f->neighbour, f->send_tag, buffer.data, buffer.bytes);
  }
}

void Domain::finish_exchange(int axis) {
  m_grid->wait_all();
  for (Slot& s : m_slots)
    for (Face& f : s.faces)
      if (f.remote && f.axis == axis) s.part->unpack(axis, f.side, f.received);
}

void Domain::step_distributed() {
  Kokkos::Timer step_timer;
  double exchange = 0;
  auto exchanged = [&](auto&& phase) {
    Kokkos::Timer t;
    phase();
    exchange += t.seconds();
  };
  const int dim = m_case.dim;
  if (m_slots.size() == 1) {
    // Self-periodic halos first; then the first axis with remote faces is in
    // flight while the sites that do not read them update (overlap); later
    // axes carry the halos of the earlier ones (edges, corners), so they
    // follow in order; then the sites next to remote faces.
    // In place (AA; slabs along x, tiling_problem), only pull steps read
    // the halos, and what they push into the x halos goes back afterwards.
    Part& part = *m_slots[0].part;
    const bool in_place = m_case.execution.streaming == Streaming::aa;
    const bool halos = part.reads_halos();
    int first = 0;
    while (first < dim && m_tile.ranks[first] == 1) ++first;
    for (int a = 0; a < 3; ++a) part.fill_periodic(a);
    if (halos && first < dim) exchanged([&] { start_exchange(first); });
    // Overlap pays where launches are asynchronous (a GPU): host kernels
    // block, MPI progresses only inside its calls meanwhile, and x borders
    // are one-site-long rows.
    const bool overlap = !in_place && (m_overlap >= 0 ? m_overlap == 1
                                                      : m_slots[0].role == PartRole::accelerator &&
                                                            !node_accelerator_on_host);
    if (overlap) part.update(UpdateZone::inner);
    if (halos)
      exchanged([&] {
        for (int a = first; a < dim; ++a) {
          if (a > first) start_exchange(a);
          finish_exchange(a);
          part.fill_periodic(a);  // again: its corners over the halos just received
        }
      });
    part.update(overlap ? UpdateZone::border : UpdateZone::all);
    part.fence();
    if (in_place && halos) exchanged([&] { push_remote_x(); });
    part.swap();
    const double total = step_timer.seconds();
    ++m_step;
    m_timings.steps += 1;
    m_timings.exchange += exchange;
    (m_slots[0].role == PartRole::accelerator ? m_timings.accelerator : m_timings.host) +=
        total - exchange;
    m_timings.total += total;
    return;
  }
  // A node on each rank. Tiled along the split axis only: the host parts
  // hold the remote faces and exchange them as part of the host side's
  // work, while the accelerator updates. Else every halo first, axis by
  // axis (the split axis between the parts and to the neighbouring ranks,
  // then the others in order), then the parts update together.
  bool slabs = true;
  for (int a = 0; a < 3; ++a) slabs = slabs && (a == m_split || m_tile.ranks[a] == 1);
  if (slabs) {
    step_parts(true, true);
    return;
  }
  exchanged([&] {
    for (const int a : fill_order(m_split)) {  // the parts' order (Extents::first_axis)
      if (a >= dim) continue;
      start_exchange(a);
      finish_exchange(a);
      for (Slot& s : m_slots) {
        if (a == m_split)
          for (const Face& f : s.faces)
            if (!f.remote) s.part->fill_halo(f.side, *m_slots[f.neighbour].part);
        s.part->fill_periodic(a);
      }
      for (Slot& s : m_slots) s.part->fence();
    }
  });
  step_parts(false);
  m_timings.exchange += exchange;
  m_timings.mpi += exchange;
  m_timings.total += exchange;
}

void Domain::for_each_side(const std::function<void(PartRole)>& f) {
  if (m_helper && has(PartRole::host)) {
    m_helper->submit([&] { f(PartRole::host); });
    f(PartRole::accelerator);
    m_helper->wait();
  } else {
    f(PartRole::accelerator);
    f(PartRole::host);
  }
}

void Domain::push_across() {
  // Every part packs what it pushed into its x halos, then every part takes
  // from each neighbour what that one pushed towards it.
  for_each_side([&](PartRole role) {
    for (Slot& s : m_slots)
      if (s.role == role) {
        for (Face& f : s.faces)
          if (!f.remote) f.pushed = s.part->pack_pushed(f.side, false);
        s.part->fence();
      }
  });
  for_each_side([&](PartRole role) {
    for (Slot& s : m_slots)
      if (s.role == role) {
        for (const Face& f : s.faces) {
          if (f.remote) continue;
          for (const Face& g : m_slots[f.neighbour].faces)
            if (!g.remote && g.side == opposite(f.side)) s.part->unpack_pushed(f.side, g.pushed);
        }
        s.part->fence();
      }
  });
}

void Domain::push_remote_x() {
  // Tags apart from the halo exchange's: the same faces carry both.
  constexpr int offset = 2048;
  const bool host = !m_case.execution.gpu_aware_mpi;
  Part& part = *m_slots[0].part;
  std::vector<std::pair<const Face*, HaloBuffer>> sends;
  for (Face& f : m_slots[0].faces)
    if (f.remote && f.axis == 0) {
      f.received = part.pushed_receive_buffer(f.side, host);
      m_grid->receive(f.neighbour, offset + f.tag, f.received.data, f.received.bytes);
      sends.emplace_back(&f, part.pack_pushed(f.side, host));
    }
  part.fence();
  for (const auto& [f, buffer] : sends)
    m_grid->send(f->neighbour, offset + f->send_tag, buffer.data, buffer.bytes);
  m_grid->wait_all();
  for (const Face& f : m_slots[0].faces)
    if (f.remote && f.axis == 0) part.unpack_pushed(f.side, f.received);
  part.fence();
}

double Domain::exchange_remote_split() {
  Kokkos::Timer timer;
  start_exchange(m_split);
  finish_exchange(m_split);
  return timer.seconds();
}

bool Domain::swap_overlapped() const {
  return has(PartRole::host) && has(PartRole::accelerator) &&
         (m_swap_overlap >= 0 ? m_swap_overlap == 1 : node_swap_overlapped());
}

Domain::SwapInFlight Domain::start_swap(bool pushed) {
  const int s = m_split;
  // The accelerator's packs first, so that its copies start while the host
  // packs: every transfer from or to it is queued on its halo lane, through
  // pinned host memory. Halos between host parts (across a periodic wrap)
  // are filled directly by fill_halos; pushes between them go here too.
  SwapInFlight swap{pushed, {}};
  std::vector<Transfer> to_accelerator, between_hosts;
  m_halo_lane->start_clock();
  for (const PartRole from : {PartRole::accelerator, PartRole::host}) {
    for (Slot& slot : m_slots) {
      if (slot.role != from) continue;
      for (const Face& f : slot.faces) {
        Slot& to = m_slots[f.neighbour];
        if (f.remote || (to.role == from && !pushed)) continue;
        const HaloBuffer data =
            pushed ? slot.part->pack_pushed(f.side, true) : slot.part->pack(s, f.side, true);
        (to.role == PartRole::accelerator ? to_accelerator
         : from == PartRole::host         ? between_hosts
                                          : swap.to_host)
            .push_back({to.part.get(), opposite(f.side), data});
      }
    }
    node_trace().mark(from == PartRole::accelerator ? NodeTrace::pack_acc : NodeTrace::pack_host);
  }
  for (const Transfer& t : to_accelerator)
    pushed ? t.to->unpack_pushed(t.side, t.data) : t.to->unpack(s, t.side, t.data);
  // Pushes between host parts land now: the host's inner sites, which run
  // before finish_swap, include those next to a host-host face.
  for (const Transfer& t : between_hosts) t.to->unpack_pushed(t.side, t.data);
  m_halo_lane->stop_clock();
  node_trace().mark(NodeTrace::to_acc);
  return swap;
}

double Domain::finish_swap(const SwapInFlight& swap) {
  for (Slot& slot : m_slots)
    if (slot.role == PartRole::accelerator) slot.part->fence_halos();
  for (const Transfer& t : swap.to_host)
    swap.pushed ? t.to->unpack_pushed(t.side, t.data) : t.to->unpack(m_split, t.side, t.data);
  return m_halo_lane->clock_seconds();  // the lane is fenced
}

void Domain::step_overlapped(bool remote_split) {
  Kokkos::Timer step_timer;
  auto each = [&](PartRole role, auto&& f) {
    for (Slot& slot : m_slots)
      if (slot.role == role) f(slot);
  };
  const bool in_place = m_case.execution.streaming == Streaming::aa;
  const bool pull = m_slots.front().part->reads_halos();  // two buffers: every step
  double swap = 0, mpi = 0, lane = 0;
  SwapInFlight in_flight{false, {}};
  NodeTrace& trace = node_trace();
  trace.begin(pull);
  m_accelerator->start_clock();
  if (pull) {
    // 1. The accelerator's periodic halos and its inner sites, which read
    //    none across s (asynchronous on a GPU). The halo lane starts after
    //    the fills: their corners read the halos it writes.
    each(PartRole::accelerator, [](Slot& a) {
      for (int axis = 0; axis < 3; ++axis) a.part->fill_periodic(axis);
    });
    m_halo_lane->wait_for(*m_accelerator);
    each(PartRole::accelerator, [](Slot& a) { a.part->update(UpdateZone::inner); });
    trace.mark(NodeTrace::acc_launch);
    // 2. The swap starts on the halo lane. In place, the inner pulls (of
    //    both sides) leave alone the slots it moves: the border slots the
    //    neighbours pull from, and the halos (an AA site touches only the
    //    slots it pulls from, kernels/aa.hpp).
    Kokkos::Timer timer;
    in_flight = start_swap(false);
    swap = timer.seconds();
    // 3. The accelerator's border layers, queued behind the lane (an event
    //    between the streams: the host goes on), its periodic edges filled
    //    again over the halos received.
    m_accelerator->wait_for(*m_halo_lane);
    each(PartRole::accelerator, [](Slot& a) {
      a.part->halos_ordered();
      a.part->fill_periodic_edges();
      a.part->update(UpdateZone::border);
    });
    trace.mark(NodeTrace::acc_launch);
  } else {
    // An AA local step: what the last pull step pushed across the faces
    // crosses while both sides collide their inner sites (the lane waits
    // for that pull step only); the border sites, which receive those
    // populations, collide after them: the accelerator's queued behind
    // the lane, the host's after finish_swap (step 4).
    m_halo_lane->wait_for(*m_accelerator);
    each(PartRole::accelerator, [](Slot& a) { a.part->update(UpdateZone::inner); });
    trace.mark(NodeTrace::acc_launch);
    if (m_pushes_pending) {
      Kokkos::Timer timer;
      in_flight = start_swap(true);
      swap = timer.seconds();
      m_accelerator->wait_for(*m_halo_lane);
      each(PartRole::accelerator, [](Slot& a) { a.part->halos_ordered(); });
    }
    each(PartRole::accelerator, [](Slot& a) { a.part->update(UpdateZone::border); });
    trace.mark(NodeTrace::acc_launch);
  }
  const bool pushes = m_pushes_pending;
  // After a pull step the pushes wait for the next step (or finish_pushes).
  m_pushes_pending = in_place && pull;
  m_accelerator->stop_clock();
  if (!m_concurrent) m_accelerator->get().fence();
  // 4. The host parts. After a pull: their own halos (between host parts,
  //    periodic wraps) and inner layers while the copies (and the MPI faces
  //    of slabs along s) are in flight, then the accelerator's borders
  //    into their halos, the periodic edges over them, and the layers next
  //    to the accelerator. After an AA pull, the local step's inner
  //    sites, the pushes received, then the border sites. The wait for
  //    the copies counts as swap time.
  Kokkos::Timer host_timer;
  double waited = 0;
  if (pull || pushes) {
    const bool remote = pull && remote_split;
    if (remote) {
      Kokkos::Timer timer;
      start_exchange(m_split);
      mpi += timer.seconds();
    }
    each(PartRole::host, [&](Slot& h) {
      if (pull) fill_halos(h, true);
      h.part->update(UpdateZone::inner);
    });
    trace.mark(NodeTrace::host_inner);
    Kokkos::Timer timer;
    if (remote) {
      finish_exchange(m_split);
      mpi += timer.seconds();
      timer.reset();
    }
    lane = finish_swap(in_flight);
    waited = timer.seconds();
    trace.mark(NodeTrace::wait_swap);
    each(PartRole::host, [&](Slot& h) {
      if (pull) h.part->fill_periodic_edges();
      h.part->update(UpdateZone::border);
    });
  } else {
    each(PartRole::host, [](Slot& h) { h.part->update(); });
  }
  each(PartRole::host, [](Slot& h) { h.part->fence(); });
  trace.mark(NodeTrace::host_border);
  const double host = host_timer.seconds() - waited;
  swap += waited;
  each(PartRole::accelerator, [](Slot& a) { a.part->fence(); });
  trace.mark(NodeTrace::wait_acc);
  trace.step_done();
  for (Slot& slot : m_slots) slot.part->swap();
  ++m_step;
  m_timings.steps += 1;
  m_timings.exchange += swap;
  m_timings.transfer += lane;
  m_timings.accelerator += m_accelerator->clock_seconds();
  m_timings.host += host;
  m_timings.mpi += mpi;
  m_timings.total += step_timer.seconds();
}

void Domain::finish_pushes() {
  if (!m_pushes_pending) return;
  Kokkos::Timer timer;
  push_across();
  m_pushes_pending = false;
  const double seconds = timer.seconds();
  m_timings.exchange += seconds;
  m_timings.total += seconds;
}

void Domain::step_parts(bool fill, bool remote_split) {
  if (fill && swap_overlapped()) return step_overlapped(remote_split);
  Kokkos::Timer step_timer;
  double exchange = 0, accelerator = 0, host = 0, mpi = 0;
  const bool host_work = has(PartRole::host);
  // In place (AA), a pull step can write a slot its neighbour's halo copies
  // (a border site bouncing off a solid site across the face), so here every
  // halo is filled before any part updates, and what each part pushed into
  // its halos across the split axis goes to its neighbours after all have
  // updated (step_overlapped moves only slots no concurrent pull touches).
  // Local steps read no halos.
  const bool in_place = m_case.execution.streaming == Streaming::aa;  // (config: isothermal only)
  const bool pull = m_slots.front().part->reads_halos();
  if (in_place) {
    if (fill && pull)
      for_each_side([&](PartRole role) {
        for (Slot& s : m_slots)
          if (s.role == role) {
            fill_halos(s);
            s.part->fence();
          }
      });
    fill = false;
    exchange += step_timer.seconds();
  }
  if (m_helper) {
    // Each side fills its own halos (reading the other side's border, which
    // nobody writes during a step): the halo swap overlaps the other update.
    if (host_work)
      m_helper->submit([&] {
        if (remote_split) mpi = exchange_remote_split();
        host = mpi + update_role(PartRole::host, fill);
      });
    if (!m_concurrent && host_work) m_helper->wait();
    accelerator = update_role(PartRole::accelerator, fill);
    if (m_concurrent && host_work) m_helper->wait();
  } else {
    // Where the swap does not overlap (Serial-only builds, or GPU nodes with
    // set_swap_overlap(false)) it comes first, in order: the model's T_swap.
    if (fill)
      for (Slot& s : m_slots) fill_halos(s);
    exchange = step_timer.seconds();
    m_accelerator->start_clock();
    for (Slot& s : m_slots)
      if (s.role == PartRole::accelerator) s.part->update();  // asynchronous on a GPU
    m_accelerator->stop_clock();
    if (!m_concurrent) m_accelerator->get().fence();
    if (remote_split) {
      // Host-side MPI while the GPU runs; then the host parts' periodic
      // corners again, over the halos just received.
      mpi = exchange_remote_split();
      for (Slot& s : m_slots)
        if (s.role == PartRole::host)
          for (const int a : fill_order(m_split))
            if (a != m_split) s.part->fill_periodic(a);
    }
    if (host_work) host = mpi + update_role(PartRole::host, false);
    m_accelerator->get().fence();
    accelerator = m_accelerator->clock_seconds();
  }
  if (in_place && pull) {
    Kokkos::Timer timer;
    push_across();
    exchange += timer.seconds();
  }
  for (Slot& s : m_slots) s.part->swap();
  ++m_step;
  m_timings.steps += 1;
  m_timings.exchange += exchange;
  m_timings.accelerator += accelerator;
  m_timings.host += host;
  m_timings.mpi += mpi;
  m_timings.total += step_timer.seconds();
}

ObservableSums Domain::observe(const RowSample& rows) {
  ObservableSums sum;
  for (Slot& s : m_slots) sum.add(s.part->observe(rows));
  if (m_grid) {
    double sums[8] = {sum.mass,           sum.momentum[0],     sum.momentum[1], sum.momentum[2],
                      sum.kinetic_energy, sum.internal_energy, sum.speed_sum,   sum.fluid_sites};
    comm::sum(sums, 8);
    // MPI's max may drop a NaN: carry it as infinity.
    double top = std::isnan(sum.max_speed) ? HUGE_VAL : sum.max_speed;
    comm::max(&top, 1);
    sum.mass = sums[0];
    for (int a = 0; a < 3; ++a) sum.momentum[a] = sums[1 + a];
    sum.kinetic_energy = sums[4];
    sum.internal_energy = sums[5];
    sum.speed_sum = sums[6];
    sum.fluid_sites = sums[7];
    sum.max_speed = std::isinf(top) ? std::nan("") : top;
  }
  return sum;
}

HostFields Domain::fields() {
  HostFields h;
  fields(h);
  return h;
}

void Domain::fields(HostFields& into) {
  // The parts cover the tile: every entry is written, none needs a fill.
  into.resize(m_tile.size, m_tile.offset, lattice_info(m_case.lattice).has_temperature);
  for (Slot& s : m_slots) s.part->gather_fields(into);
}

HostFields Domain::piece_fields() {
  HostFields f = fields();
  if (!m_grid) return f;
  const bool thermal = !f.temperature.empty();
  // A layer of sites as one message: rho, u, T, material.
  auto flatten = [](const HostFields& h) {
    std::vector<double> v(h.rho);
    v.insert(v.end(), h.u.begin(), h.u.end());
    v.insert(v.end(), h.temperature.begin(), h.temperature.end());
    v.insert(v.end(), h.material.begin(), h.material.end());
    return v;
  };
  auto unflatten = [](const std::vector<double>& v, HostFields& h) {
    auto it = v.begin();
    for (auto* field : {&h.rho, &h.u, &h.temperature})
      for (double& x : *field) x = *it++;
    for (material_t& m : h.material) m = material_t(*it++);
  };
  for (int a = 0; a < m_case.dim; ++a) {
    if (m_tile.ranks[a] == 1) continue;
    // Point data: each piece reaches the first points of the next one, so
    // ParaView shows no gap between pieces.
    const bool send = m_tile.coords[a] > 0, receive = m_tile.coords[a] + 1 < m_tile.ranks[a];
    std::array<int, 3> layer_n = f.n;
    layer_n[a] = 1;
    HostFields first, next;
    first.allocate(layer_n, {}, thermal);
    next.allocate(layer_n, {}, thermal);
    copy_box(f, {0, 0, 0}, first, {0, 0, 0}, layer_n);
    const std::vector<double> out = flatten(first);
    std::vector<double> in(receive ? out.size() : 0);
    const int tag = 1000 + a;
    if (receive) m_grid->receive(m_grid->neighbour(a, Side::right), tag, in.data(), in.size() * 8);
    if (send) m_grid->send(m_grid->neighbour(a, Side::left), tag, out.data(), out.size() * 8);
    m_grid->wait_all();
    if (!receive) continue;
    unflatten(in, next);
    HostFields g;
    std::array<int, 3> wider = f.n, at{0, 0, 0};
    wider[a] += 1;
    at[a] = f.n[a];
    g.allocate(wider, f.origin, thermal);
    copy_box(f, {0, 0, 0}, g, {0, 0, 0}, f.n);
    copy_box(next, {0, 0, 0}, g, at, layer_n);
    f = std::move(g);
  }
  return f;
}

std::vector<VtiPiece> Domain::pieces(const std::string& folder) const {
  std::vector<VtiPiece> out;
  const Ranks& r = m_tile.ranks;
  for (int k = 0; k < r[0] * r[1] * r[2]; ++k) {
    // Ranks of the grid run x fastest (comm::CartGrid).
    const std::array<int, 3> coords{k % r[0], k / r[0] % r[1], k / (r[0] * r[1])};
    const Tile t = make_tile(m_case, r, coords);
    VtiPiece p{t.offset, t.size, folder + "/" + piece_name(k)};
    for (int a = 0; a < 3; ++a) p.n[a] += coords[a] + 1 < r[a] ? 1 : 0;
    out.push_back(p);
  }
  return out;
}

std::string piece_name(int rank) {
  char name[32];
  std::snprintf(name, sizeof name, "rank_%05d.vti", rank);
  return name;
}

std::vector<double> Domain::populations() {
  const auto& n = m_tile.size;
  std::vector<double> out(std::size_t(n[0]) * n[1] * n[2] * lattice_info(m_case.lattice).q);
  for (Slot& s : m_slots) s.part->gather_populations(out, n);
  return out;
}

void Domain::restore(const std::vector<double>& populations, std::int64_t step) {
  const auto& n = m_tile.size;
  if (populations.size() != std::size_t(n[0]) * n[1] * n[2] * lattice_info(m_case.lattice).q)
    throw std::invalid_argument("restore: populations do not match the tile");
  for (Slot& s : m_slots) s.part->set_populations(populations, n);
  m_step = step;
}

void Domain::set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                        const std::vector<double>& temperature) {
  HostFields in;
  in.n = m_tile.size;
  in.origin = m_tile.offset;
  if (rho.size() != in.size() || u.size() != 3 * in.size() ||
      (!temperature.empty() && temperature.size() != in.size()))
    throw std::invalid_argument("set_fields: field sizes do not match the tile");
  in.rho = rho;
  in.u = u;
  in.temperature = temperature;
  for (Slot& s : m_slots) s.part->set_fields(in);
}

double Domain::time_kernel(BenchKernel kernel, int steps) {
  if (m_slots.size() != 1)
    throw std::invalid_argument("time_kernel: a node times whole steps only (advance)");
  return m_slots[0].part->time_kernel(kernel, steps);
}

double Domain::time_face(int axis, int repeats) {
  Part& part = *m_slots[0].part;
  double best = 1e300;
  for (int r = 0; r < repeats + 1; ++r) {
    part.fence();
    Kokkos::Timer timer;
    const HaloBuffer sent = part.pack(axis, Side::right, true);
    part.fence();
    part.unpack(axis, Side::left, sent);
    part.fence();
    if (r > 0) best = std::min(best, timer.seconds());
  }
  return best;
}

std::size_t Domain::face_bytes(int axis) {
  return m_slots[0].part->receive_buffer(axis, Side::left, true).bytes;
}

std::string Domain::variant() const { return to_string(m_case.variant()); }

std::string Domain::execution_space() const {
  std::string s = m_case.execution.host_columns < 0
                      ? m_slots[0].part->space()
                      : std::string(NodeAccelerator::name()) + " + " + NodeHost::name() +
                            " (host " + std::to_string(m_case.execution.host_columns) +
                            (m_split == 0 ? " columns" : " layers") + " per side along " +
                            axis_name(m_split) + ")";
  if (m_grid)
    s += " on each of " + std::to_string(comm::size()) + " MPI ranks (tiles " +
         to_string(m_tile.ranks, m_case.dim) + ")";
  return s;
}

int Domain::concurrency() const {
  const int accelerator = m_accelerator->get().concurrency();
  return m_case.execution.host_columns < 0 ? accelerator : accelerator + 1;
}

bool node_swap_overlapped() { return !node_accelerator_on_host; }

int node_default_threads() {
  if (!node_accelerator_on_host) return 0;
  const int cores = int(std::thread::hardware_concurrency());
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace kolb
