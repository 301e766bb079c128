#pragma once
// NodeSolver: one case on a heterogeneous node. Along x the lattice is
//   [ host-left: M columns | accelerator block | host-right: M columns ]
// (DESIGN.md §5). Each step:
//   1. each block's x halo columns are filled from its neighbours (and
//      across a periodic x boundary), only the crossing populations;
//   2. each block fills its own y/z periodic halos and is updated;
//   3. wait for both spaces, swap buffers.
// The accelerator side and the host side run 1-2 at the same time. In
// CPU-only builds each side also fills its own x halos (reading the other
// side's border columns, which nobody writes during a step), so the halo
// swap overlaps the other side's update. On a GPU the swap is done first,
// in order (device packs would otherwise queue behind the long bulk kernel
// on the one stream), and counts as the model's T_swap.
// Every block runs the same functors as the single-block Solver on sites
// whose halos hold the same values, so results are bit-for-bit the same
// for any M. Instantiated per variant in src/variants/node_*.cpp.

#include <kolb/app/block_io.hpp>
#include <kolb/kernels/periodic_halo.hpp>
#include <kolb/kernels/two_buffer_step.hpp>
#include <kolb/node/halo_exchange.hpp>
#include <kolb/node/helper_thread.hpp>
#include <kolb/node/node_simulation.hpp>
#include <kolb/node/spaces.hpp>

#include <functional>
#include <optional>

namespace kolb {

// CPUs the calling thread may run on (empty if unknown), and those of the
// calling thread plus every thread of its OpenMP pool.
std::vector<int> current_thread_cpus();
std::vector<int> openmp_threads_cpus();
// Binds the calling thread to the CPUs not in `busy` (or to the last CPU if
// `busy` holds them all). The host thread must not share the cores of the
// OpenMP threads: created by the main thread it would inherit its binding,
// and a thread woken every step tends to be woken on its waker's CPU.
void bind_current_thread_away_from(const std::vector<int>& busy);

template <class Lattice, class Scalar, class Layout>
class NodeSolver final : public NodeSimulation {
 public:
  using Accelerator = NodeAccelerator;
  using Host = NodeHost;
  template <class Exec>
  struct Part {
    Block<Lattice, Scalar, Layout, Exec> block;
    bulk_rows_view bulk_rows;
    int x0 = 0;  // first global column
  };

  explicit NodeSolver(const Case& c)
      : m_size(c.size), m_periodic(c.periodic()), m_host_columns(c.execution.host_columns) {
    constexpr int h = Lattice::halo;
    const int lx = c.size[0], m = m_host_columns;
    const std::string where = c.source + ": execution.host_columns";
    if (c.execution.streaming != "two_buffer")
      throw ConfigError(c.source + ": execution.streaming",
                        "a heterogeneous node (execution.host_columns) runs the two_buffer "
                        "streaming scheme only");
    if (m < 0 || 2 * m > lx)
      throw ConfigError(where, std::to_string(m) + " host columns per side do not fit in " +
                                   std::to_string(lx) + " lattice columns (at most " +
                                   std::to_string(lx / 2) + ")");
    if ((m > 0 && m < h) || (lx - 2 * m > 0 && lx - 2 * m < h))
      throw ConfigError(where, "every block needs at least " + std::to_string(h) +
                                   " columns (the halo width of " + Lattice::name + "); " +
                                   std::to_string(m) + " host columns per side leave " +
                                   std::to_string(lx - 2 * m) + " to the accelerator");

    const Extents global(c.size, h, Lattice::dim, Layout::vector_length);
    const Geometry geo = build_geometry(c, global);
    Kokkos::View<material_t*, Kokkos::HostSpace> material("kolb::material", geo.material.size());
    for (std::size_t s = 0; s < geo.material.size(); ++s) material(s) = geo.material[s];
    fill_periodic_halo(Kokkos::DefaultHostExecutionSpace(), material, ScalarSiteLayout{}, 1, global,
                       m_periodic);
    Kokkos::DefaultHostExecutionSpace().fence();
    m_step_kernels = TwoBufferStep<Lattice, Scalar, Layout>(c, geo.table);
    m_step_kernels.acceleration(m_g);

    if (m > 0) m_left = make_part<Host>(global, material, 0, m, "kolb::host_left");
    if (lx - 2 * m > 0)
      m_acc = make_part<Accelerator>(global, material, m, lx - 2 * m, "kolb::acc");
    if (m > 0) m_right = make_part<Host>(global, material, lx - m, m, "kolb::host_right");
    make_links();

    if constexpr (concurrent_helper) m_helper.emplace();
    if constexpr (concurrent_helper) {
      const std::vector<int> busy = openmp_threads_cpus();
      run_on_helper([busy] { bind_current_thread_away_from(busy); });
    }

    std::vector<double> rho, u, T;
    HostFields shape;
    shape.n = m_size;
    initial_fields(c, shape, rho, u, T);
    set_fields(rho, u, T);
  }

  void advance(std::int64_t steps) override {
    for (std::int64_t k = 0; k < steps; ++k) step_once();
  }

  double time_kernel(const std::string& kernel, int steps) override {
    if (kernel != "fused")
      throw std::invalid_argument("a node times whole fused steps only, not " + kernel);
    Kokkos::Timer timer;
    advance(steps);
    return timer.seconds();
  }

  ObservableSums observe() override {
    ObservableSums sum;
    for_each_part([&](const auto& exec, auto& part) {
      using exec_t = std::decay_t<decltype(exec)>;
      sum.add(Observables<Lattice, Scalar, Layout, exec_t>::apply(exec, part.block, m_g));
    });
    return sum;
  }

  HostFields fields() override {
    HostFields h;
    h.n = m_size;
    const std::size_t n = std::size_t(m_size[0]) * m_size[1] * m_size[2];
    h.rho.resize(n);
    h.u.resize(3 * n);
    if (is_thermal_v<Lattice>) h.temperature.resize(n);
    h.material.resize(n);
    for_each_part([&](const auto& exec, auto& part) {
      gather_block_fields(exec, part.block, m_g, part.x0, h);
    });
    return h;
  }

  std::vector<double> populations() override {
    std::vector<double> out(std::size_t(m_size[0]) * m_size[1] * m_size[2] * Lattice::q);
    for_each_part([&](const auto&, auto& part) {
      gather_block_populations(part.block, m_size, part.x0, out);
    });
    return out;
  }

  using Simulation::set_fields;
  void set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                  const std::vector<double>& temperature) override {
    for_each_part([&](const auto& exec, auto& part) {
      set_block_equilibrium(exec, part.block, m_g, m_size, part.x0, rho, u, temperature);
    });
  }

  std::int64_t step() const override { return m_step; }
  std::string variant() const override { return variant_name<Lattice, Scalar, Layout>(); }
  std::string execution_space() const override {
    return std::string(Accelerator::name()) + " + " + Host::name() + " (host " +
           std::to_string(m_host_columns) + " columns per side)";
  }
  int concurrency() const override { return m_acc_exec.get().concurrency() + 1; }

  int host_columns() const override { return m_host_columns; }
  int columns() const override { return m_size[0]; }
  std::int64_t column_sites() const override { return std::int64_t(m_size[1]) * m_size[2]; }
  void set_concurrent(bool concurrent) override { m_concurrent = concurrent; }
  NodeTimings timings() const override { return m_timings; }
  void reset_timings() override { m_timings = NodeTimings(); }

 private:
  // CPU-only builds run the host blocks on a helper thread (Serial) while the
  // initialising thread drives OpenMP; GPU builds launch the accelerator
  // asynchronously and run the host blocks on the initialising thread.
  static constexpr bool concurrent_helper =
      node_accelerator_on_host && !std::is_same<Accelerator, Host>::value;

  template <class Exec>
  std::optional<Part<Exec>> make_part(const Extents& global,
                                      const Kokkos::View<material_t*, Kokkos::HostSpace>& material,
                                      int x0, int width, const std::string& label) {
    std::array<int, 3> n = m_size;
    n[0] = width;
    Part<Exec> p{
        {Extents(n, Lattice::halo, Lattice::dim, Layout::vector_length), label, 2}, {}, x0};
    const Extents& e = p.block.extents();
    auto mat = Kokkos::create_mirror_view(p.block.material());
    for (int z = 0; z < e.ext(2); ++z)
      for (int y = 0; y < e.ext(1); ++y)
        for (int x = 0; x < e.ext(0); ++x)
          mat(x + e.stride(1) * y + e.stride(2) * z) =
              material(x0 + x + global.stride(1) * y + global.stride(2) * z);
    Kokkos::deep_copy(p.block.material(), mat);
    p.bulk_rows = find_bulk_rows<Lattice>(
        e, Kokkos::View<const material_t*, typename Exec::memory_space>(p.block.material()));
    return p;
  }

  // Calls f(exec, part) for each existing part, left to right.
  template <class F>
  void for_each_part(F&& f) {
    if (m_left) f(m_host_exec, *m_left);
    if (m_acc) f(m_acc_exec.get(), *m_acc);
    if (m_right) f(m_host_exec, *m_right);
  }

  // One directed halo link from `src` to `dst`'s `side` halo.
  template <class SrcExec, class DstExec>
  void link(Part<SrcExec>& src, Part<DstExec>& dst, HaloSide side) {
    using exchange_t = HaloExchange<Block<Lattice, Scalar, Layout, SrcExec>,
                                    Block<Lattice, Scalar, Layout, DstExec>>;
    exchange_t x(src.block, dst.block, side);
    // A direct copy (same memory space) runs on the destination's space, from
    // the thread that updates the destination.
    auto& links = std::is_same<DstExec, Accelerator>::value ? m_links_to_acc : m_links_to_host;
    links.push_back([this, x, &src, &dst] {
      x.apply(src.block, dst.block, exec_of<SrcExec>(), exec_of<DstExec>());
    });
  }

  template <class Exec>
  const Exec& exec_of() const {
    if constexpr (std::is_same<Exec, Accelerator>::value) {
      return m_acc_exec.get();
    } else {
      return m_host_exec;
    }
  }

  // Links between x neighbours, and across the x boundary when periodic.
  void make_links() {
    // Parts in x order as (kind, index) pairs: 0 left, 1 accelerator, 2 right.
    std::vector<int> order;
    if (m_left) order.push_back(0);
    if (m_acc) order.push_back(1);
    if (m_right) order.push_back(2);
    auto connect = [&](int a, int b) {  // a is b's left neighbour
      with_part(a, [&](auto& pa) {
        with_part(b, [&](auto& pb) {
          link(pa, pb, HaloSide::left);
          link(pb, pa, HaloSide::right);
        });
      });
    };
    for (std::size_t k = 0; k + 1 < order.size(); ++k) connect(order[k], order[k + 1]);
    if (m_periodic[0]) connect(order.back(), order.front());
  }

  template <class F>
  void with_part(int kind, F&& f) {
    if (kind == 0) f(*m_left);
    if (kind == 1) f(*m_acc);
    if (kind == 2) f(*m_right);
  }

  template <class Exec>
  void update(const Exec& exec, Part<Exec>& part) {
    const Extents& e = part.block.extents();
    // x halos come from the exchange; y and z periodic halos (over the
    // x-extended rows, so edges are right) from the block itself.
    fill_periodic_halo(exec, part.block.current(), part.block.layout(), Lattice::q, e,
                       {false, m_periodic[1], m_periodic[2]});
    m_step_kernels.apply(exec, part.block, part.bulk_rows);
  }

  void update_host(bool fill_halos) {
    Kokkos::Timer t;
    if (fill_halos)
      for (auto& l : m_links_to_host) l();
    if (m_left) update(m_host_exec, *m_left);
    if (m_right) update(m_host_exec, *m_right);
    m_host_exec.fence();
    m_last_host = t.seconds();
  }

  template <class F>
  void run_on_helper(F&& f) {
    m_helper->submit(std::forward<F>(f));
    m_helper->wait();
  }

  void step_once() {
    Kokkos::Timer step_timer;
    double exchange = 0, acc = 0;
    m_last_host = 0;
    const Accelerator& acc_exec = m_acc_exec.get();
    const bool host_work = m_left || m_right;
    if constexpr (concurrent_helper) {
      if (host_work) m_helper->submit([this] { update_host(true); });
      if (!m_concurrent && host_work) m_helper->wait();
      Kokkos::Timer t;
      for (auto& l : m_links_to_acc) l();
      if (m_acc) update(acc_exec, *m_acc);
      acc_exec.fence();
      acc = t.seconds();
      if (m_concurrent && host_work) m_helper->wait();
    } else {
      for (auto& l : m_links_to_host) l();
      for (auto& l : m_links_to_acc) l();
      exchange = step_timer.seconds();
      m_acc_exec.start_clock();
      if (m_acc) update(acc_exec, *m_acc);  // asynchronous on a GPU
      m_acc_exec.stop_clock();
      if (!m_concurrent) acc_exec.fence();
      if (host_work) update_host(false);
      acc_exec.fence();
      acc = m_acc_exec.clock_seconds();
    }
    for_each_part([](const auto&, auto& part) { part.block.swap(); });
    ++m_step;
    m_timings.steps += 1;
    m_timings.exchange += exchange;
    m_timings.accelerator += acc;
    m_timings.host += m_last_host;
    m_timings.total += step_timer.seconds();
  }

  std::array<int, 3> m_size;
  std::array<bool, 3> m_periodic;
  int m_host_columns;
  bool m_concurrent = true;
  AcceleratorInstance m_acc_exec;
  Host m_host_exec;
  std::optional<Part<Host>> m_left, m_right;
  std::optional<Part<Accelerator>> m_acc;
  std::vector<std::function<void()>> m_links_to_host, m_links_to_acc;
  std::optional<HelperThread> m_helper;
  TwoBufferStep<Lattice, Scalar, Layout> m_step_kernels;
  Scalar m_g[3] = {0, 0, 0};
  std::int64_t m_step = 0;
  double m_last_host = 0;
  NodeTimings m_timings;
};

}  // namespace kolb
