// Domain: the parts of a case (a Node), their faces, the faces to other
// ranks (a HaloExchange) and the choice of the step's schedule.

#include <kolb/comm/communicator.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/halo_exchange.hpp>
#include <kolb/domain/helper_thread.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/domain/registry.hpp>
#include <kolb/domain/schedule.hpp>
#include <kolb/domain/spaces.hpp>
#include <kolb/model/lattice_info.hpp>

#include "pinning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace kolb {

namespace {

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
  if (m_case.execution.streaming == Streaming::aa && m_node.step % 2 != 0)
    throw std::logic_error("Domain::resplit: an AA state is moved after even steps only");
  Case c = m_case;
  c.execution.host_columns = host_columns;
  const std::string problem = tile_split_problem(c);
  if (!problem.empty()) throw std::invalid_argument("Domain::resplit: " + problem);
  const std::vector<double> f = populations();
  const std::int64_t step = m_node.step;
  m_schedule.reset();
  m_remote.reset();
  m_node.slots.clear();  // frees the old parts before the new ones are allocated
  m_node.helper.reset();
  m_node.halo_lane.reset();
  m_node.accelerator.reset();
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
                                    : !lattice_end || periodic[a] ? FaceLink::neighbour
                                    : c.open(2 * a + int(side))   ? FaceLink::open
                                                                  : FaceLink::wall;
        // The faces between the accelerator and the host parts arrive during
        // both sides' updates where the swap overlaps them (OverlappedNode).
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
  for (const Slot& slot : m_node.slots) out.emplace_back(slot.label, slot.part->plan());
  return out;
}

void Domain::build(const Case& c) {
  Node& node = m_node;
  node.accelerator = std::make_unique<AcceleratorInstance>();
  node.halo_lane = std::make_unique<AcceleratorInstance>(StreamPriority::urgent);
  node.in_place = c.execution.streaming == Streaming::aa;
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
  const Tile& t = m_tile;
  // The parts read their sites' materials with their halos, and the force
  // on a body reads two sites along a link (boundary/body_forces.hpp).
  SiteRegion region{t.offset, {}, std::max(info.halo, 2)};
  for (int a = 0; a < 3; ++a) region.end[a] = t.offset[a] + t.size[a];
  const Geometry geometry = build_geometry(c, Extents(c.size, info.halo, info.dim), region);
  const NodeSpaces spaces{node.accelerator->get(), NodeHost(), node.halo_lane->get()};
  const int s = c.execution.host_columns >= 0 ? node_split_axis(c, t.ranks) : 0;
  node.split = s;
  const auto setups = part_setups(c, geometry, t, m_grid.get());
  for (const PartSetup& setup : setups)
    node.slots.push_back({make_part(c, setup, spaces), setup.role, {}, setup.label});
  const int n = int(node.slots.size());
  const auto periodic = c.periodic();
  if (m_grid) m_remote = std::make_unique<HaloExchange>(m_grid, c.execution.gpu_aware_mpi);
  // Faces between neighbours along s, across the s boundary when periodic
  // on one rank (a lone part fills that halo itself), and to other ranks
  // (across the other axes each part has its own; across s only the end
  // parts' outer faces, one per side).
  for (int k = 0; k < n; ++k) {
    Slot& slot = node.slots[k];
    const bool wrap = periodic[s] && t.ranks[s] == 1 && n > 1;
    if (k > 0 || wrap) slot.faces.push_back({Side::left, (k + n - 1) % n, {}});
    if (k + 1 < n || wrap) slot.faces.push_back({Side::right, (k + 1) % n, {}});
    for (int a = 0; a < 3; ++a)
      for (const Side side : {Side::left, Side::right})
        if (setups[k].faces[a][int(side)] == FaceLink::remote)
          m_remote->add(k, a, side, a != s ? k : 0);
  }
  if (host_parts_on_helper && node.has(PartRole::host)) {
    node.helper = std::make_unique<HelperThread>();
    pin_away_from_openmp(*node.helper);
  }
}

Domain::~Domain() = default;

Schedule& Domain::schedule() {
  if (!m_schedule) {
    ScheduleChoice choice;
    choice.swap_overlap = swap_overlapped();
    choice.lone_overlap = m_overlap;
    choice.ranks = m_tile.ranks;
    choice.dim = m_case.dim;
    choice.remote = m_remote.get();
    m_schedule = make_schedule(m_node, choice);
  }
  return *m_schedule;
}

void Domain::set_overlap(bool overlap) {
  m_overlap = overlap ? 1 : 0;
  m_schedule.reset();
}

void Domain::set_swap_overlap(bool overlap) {
  m_swap_overlap = overlap ? 1 : 0;
  m_schedule.reset();
}

bool Domain::swap_overlapped() const {
  return m_node.has(PartRole::host) && m_node.has(PartRole::accelerator) &&
         (m_swap_overlap >= 0 ? m_swap_overlap == 1 : node_swap_overlapped());
}

void Domain::advance(std::int64_t steps) { schedule().advance(m_node, steps); }

std::vector<std::array<double, 3>> Domain::body_forces() {
  std::vector<std::array<double, 3>> sum(m_case.obstacles.size(), {0, 0, 0});
  if (sum.empty()) return sum;
  for (Slot& s : m_node.slots) s.part->add_body_forces(sum);
  static_assert(sizeof(std::array<double, 3>) == 3 * sizeof(double), "summed as one array");
  if (m_grid) comm::sum(sum.front().data(), int(3 * sum.size()));
  return sum;
}

ObservableSums Domain::observe(const RowSample& rows) {
  ObservableSums sum;
  for (Slot& s : m_node.slots) sum.add(s.part->observe(rows));
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
  for (Slot& s : m_node.slots) s.part->gather_fields(into);
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
  for (Slot& s : m_node.slots) s.part->gather_populations(out, n);
  return out;
}

void Domain::restore(const std::vector<double>& populations, std::int64_t step) {
  const auto& n = m_tile.size;
  if (populations.size() != std::size_t(n[0]) * n[1] * n[2] * lattice_info(m_case.lattice).q)
    throw std::invalid_argument("restore: populations do not match the tile");
  for (Slot& s : m_node.slots) {
    s.part->set_populations(populations, n);
  }
  m_node.step = step;
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
  for (Slot& s : m_node.slots) s.part->set_fields(in);
}

Part& Domain::only_part() {
  if (m_node.slots.size() != 1)
    throw std::invalid_argument("Domain::only_part: the domain has several parts");
  return *m_node.slots[0].part;
}

std::string Domain::variant() const { return to_string(m_case.variant()); }

std::string Domain::execution_space() const {
  std::string s = m_case.execution.host_columns < 0
                      ? m_node.slots[0].part->space()
                      : std::string(NodeAccelerator::name()) + " + " + NodeHost::name() +
                            " (host " + std::to_string(m_case.execution.host_columns) +
                            (m_node.split == 0 ? " columns" : " layers") + " per side along " +
                            axis_name(m_node.split) + ")";
  if (m_grid)
    s += " on each of " + std::to_string(comm::size()) + " MPI ranks (tiles " +
         to_string(m_tile.ranks, m_case.dim) + ")";
  return s;
}

int Domain::concurrency() const {
  const int accelerator = m_node.accelerator->get().concurrency();
  return m_case.execution.host_columns < 0 ? accelerator : accelerator + 1;
}

bool node_swap_overlapped() { return !node_accelerator_on_host; }

int node_default_threads() {
  if (!node_accelerator_on_host) return 0;
  const int cores = int(std::thread::hardware_concurrency());
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace kolb
