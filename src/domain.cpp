// Domain: the parts of a case, their faces and the step schedule; thread
// placement of the node's host thread.

#include <kolb/domain/domain.hpp>
#include <kolb/domain/helper_thread.hpp>
#include <kolb/domain/registry.hpp>
#include <kolb/model/lattice_info.hpp>

#include <algorithm>
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

}  // namespace

Domain::Domain(const Case& c) : m_case(c), m_accelerator(std::make_unique<AcceleratorInstance>()) {
  const std::string where = c.source + ": execution.host_columns";
  if (c.execution.host_columns_auto && c.execution.host_columns < 0)
    throw ConfigError(where,
                      "'auto' is resolved by the load balancer (kolb run / kolb tune); "
                      "give a number of columns here");
  if (c.execution.host_columns >= 0 && !split_problem(c, c.execution.host_columns).empty())
    throw ConfigError(where, split_problem(c, c.execution.host_columns));
  const LatticeInfo& info = lattice_info(c.lattice);
  const Geometry geometry = build_geometry(c, Extents(c.size, info.halo, info.dim));
  const NodeSpaces spaces{m_accelerator->get(), NodeHost()};
  const int lx = c.size[0], m = std::max(c.execution.host_columns, 0);
  auto add = [&](PartRole role, int x0, int width, const char* label) {
    // A lone part (m = 0) is its own x neighbour across a periodic boundary.
    const PartSetup setup{c, geometry, x0, width, role, m == 0 && c.periodic()[0], label};
    m_slots.push_back({make_part(c, setup, spaces), role, {}});
  };
  if (m > 0) add(PartRole::host, 0, m, "kolb::host_left");
  if (lx - 2 * m > 0) add(PartRole::accelerator, m, lx - 2 * m, "kolb::accelerator");
  if (m > 0) add(PartRole::host, lx - m, m, "kolb::host_right");
  // Faces between x neighbours, and across the x boundary when periodic (a
  // lone part fills that halo itself).
  const int n = int(m_slots.size());
  for (int k = 0; k < n; ++k) {
    const bool wrap = c.periodic()[0] && n > 1;
    if (k > 0 || wrap) m_slots[k].faces.push_back({Side::left, (k + n - 1) % n});
    if (k + 1 < n || wrap) m_slots[k].faces.push_back({Side::right, (k + 1) % n});
  }
  if (host_parts_on_helper && has(PartRole::host)) {
    m_helper = std::make_unique<HelperThread>();
    const std::vector<int> busy = openmp_threads_cpus();
    m_helper->submit([busy] { bind_current_thread_away_from(busy); });
    m_helper->wait();
  }
  const HostFields initial = initial_fields(c);
  set_fields(initial.rho, initial.u, initial.temperature);
}

Domain::~Domain() = default;

bool Domain::has(PartRole role) const {
  return std::any_of(m_slots.begin(), m_slots.end(), [&](const Slot& s) { return s.role == role; });
}

void Domain::fill_halos(Slot& slot) {
  for (const Face& f : slot.faces) slot.part->fill_halo(f.side, *m_slots[f.neighbour].part);
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
  if (m_slots.size() > 1) {
    for (std::int64_t k = 0; k < steps; ++k) step_parts();
    return;
  }
  // One part: no faces, and launches queue back to back.
  Kokkos::Timer timer;
  Part& part = *m_slots[0].part;
  for (std::int64_t k = 0; k < steps; ++k) {
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

void Domain::step_parts() {
  Kokkos::Timer step_timer;
  double exchange = 0, accelerator = 0, host = 0;
  const bool host_work = has(PartRole::host);
  if (m_helper) {
    // Each side fills its own halos (reading the other side's border, which
    // nobody writes during a step): the halo swap overlaps the other update.
    if (host_work) m_helper->submit([&] { host = update_role(PartRole::host, true); });
    if (!m_concurrent && host_work) m_helper->wait();
    accelerator = update_role(PartRole::accelerator, true);
    if (m_concurrent && host_work) m_helper->wait();
  } else {
    // On a GPU the swap comes first, in order (device packs would otherwise
    // queue behind the long bulk kernel on the one stream): the model's T_swap.
    for (Slot& s : m_slots) fill_halos(s);
    exchange = step_timer.seconds();
    m_accelerator->start_clock();
    for (Slot& s : m_slots)
      if (s.role == PartRole::accelerator) s.part->update();  // asynchronous on a GPU
    m_accelerator->stop_clock();
    if (!m_concurrent) m_accelerator->get().fence();
    if (host_work) host = update_role(PartRole::host, false);
    m_accelerator->get().fence();
    accelerator = m_accelerator->clock_seconds();
  }
  for (Slot& s : m_slots) s.part->swap();
  ++m_step;
  m_timings.steps += 1;
  m_timings.exchange += exchange;
  m_timings.accelerator += accelerator;
  m_timings.host += host;
  m_timings.total += step_timer.seconds();
}

ObservableSums Domain::observe() {
  ObservableSums sum;
  for (Slot& s : m_slots) sum.add(s.part->observe());
  return sum;
}

HostFields Domain::fields() {
  HostFields h;
  h.n = m_case.size;
  h.rho.resize(h.size());
  h.u.resize(3 * h.size());
  if (lattice_info(m_case.lattice).has_temperature) h.temperature.resize(h.size());
  h.material.resize(h.size());
  for (Slot& s : m_slots) s.part->gather_fields(h);
  return h;
}

std::vector<double> Domain::populations() {
  const auto& n = m_case.size;
  std::vector<double> out(std::size_t(n[0]) * n[1] * n[2] * lattice_info(m_case.lattice).q);
  for (Slot& s : m_slots) s.part->gather_populations(out);
  return out;
}

void Domain::set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                        const std::vector<double>& temperature) {
  HostFields in;
  in.n = m_case.size;
  if (rho.size() != in.size() || u.size() != 3 * in.size() ||
      (!temperature.empty() && temperature.size() != in.size()))
    throw std::invalid_argument("set_fields: field sizes do not match the lattice");
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

std::string Domain::variant() const { return to_string(m_case.variant()); }

std::string Domain::execution_space() const {
  if (m_case.execution.host_columns < 0) return m_slots[0].part->space();
  return std::string(NodeAccelerator::name()) + " + " + NodeHost::name() + " (host " +
         std::to_string(m_case.execution.host_columns) + " columns per side)";
}

int Domain::concurrency() const {
  const int accelerator = m_accelerator->get().concurrency();
  return m_case.execution.host_columns < 0 ? accelerator : accelerator + 1;
}

std::unique_ptr<Domain> make_domain(const Case& c) { return std::make_unique<Domain>(c); }

int node_default_threads() {
  if (!node_accelerator_on_host) return 0;
  const int cores = int(std::thread::hardware_concurrency());
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace kolb
