#pragma once
// Solver: one block on one execution space running the case's time loop.
// Instantiated once per (lattice, scalar, layout) in its own translation unit
// (src/variants/), selected at run time through make_simulation().

#include <kolb/app/block_io.hpp>
#include <kolb/app/simulation.hpp>
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/collide.hpp>
#include <kolb/kernels/initialize.hpp>
#include <kolb/kernels/periodic_halo.hpp>
#include <kolb/kernels/propagate.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/kernels/two_buffer_step.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace>
class Solver final : public Simulation {
 public:
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  // The AA scheme is not compiled for D2Q37 (its wall rows need the
  // pre-streaming populations); `if constexpr (has_aa)` keeps its kernels out.
  static constexpr bool has_aa = !is_thermal_v<Lattice>;

  explicit Solver(const Case& c, ExecSpace exec = ExecSpace())
      : m_exec(exec),
        m_block(Extents(c.size, Lattice::halo, Lattice::dim, Layout::vector_length), "kolb::Block",
                c.execution.streaming == "aa" ? 1 : 2),
        m_periodic(c.periodic()),
        m_aa(c.execution.streaming == "aa") {
    if (!has_aa && m_aa)
      throw ConfigError(c.source + ": execution.streaming",
                        std::string(Lattice::name) + " runs the two_buffer scheme only");
    const Geometry geo = build_geometry(c, m_block.extents());
    auto material_host = Kokkos::create_mirror_view(m_block.material());
    for (std::size_t s = 0; s < geo.material.size(); ++s) material_host(s) = geo.material[s];
    Kokkos::deep_copy(m_block.material(), material_host);
    fill_periodic_halo(m_exec, m_block.material(), ScalarSiteLayout{}, 1, m_block.extents(),
                       m_periodic);
    m_exec.fence();
    m_bulk_rows = find_bulk_rows<Lattice>(
        m_block.extents(), Kokkos::View<const material_t*, memory_space>(m_block.material()));
    m_step_kernels = TwoBufferStep<Lattice, Scalar, Layout>(c, geo.table);
    m_step_kernels.acceleration(m_g);

    std::vector<double> rho, u, T;
    HostFields shape = empty_fields();
    initial_fields(c, shape, rho, u, T);
    set_fields(rho, u, T);
  }

  void advance(std::int64_t steps) override {
    for (std::int64_t k = 0; k < steps; ++k) {
      if (has_aa && m_aa) {
        aa_step();
      } else {
        two_buffer_step();
      }
      ++m_step;
    }
    m_exec.fence();
  }

  double time_kernel(const std::string& kernel, int steps) override {
    const Region all = interior_region(m_block.extents());
    using P = Propagate<Lattice, Scalar, Layout, ExecSpace>;
    if (kernel != "fused" && kernel != "propagate" && kernel != "collide" && kernel != "aa")
      throw std::invalid_argument("time_kernel: unknown kernel " + kernel);
    m_exec.fence();
    Kokkos::Timer timer;
    for (int k = 0; k < steps; ++k) {
      if (kernel == "fused") {
        m_step_kernels.stream_collide(m_exec, m_block, all, m_bulk_rows);
        m_block.swap();
      } else if (kernel == "aa") {  // alternating AAPull / AALocal, one buffer
        if constexpr (!has_aa)
          throw std::invalid_argument("time_kernel: no aa kernel for " + variant());
        else if (k % 2 == 0) {
          AAPull<Lattice, Scalar, Layout, ExecSpace>::apply(
              m_exec, m_block, all, m_step_kernels.wall, m_step_kernels.collision, m_bulk_rows);
        } else {
          AALocal<Lattice, Scalar, Layout, ExecSpace>::apply(m_exec, m_block, all,
                                                             m_step_kernels.collision, m_bulk_rows);
        }
      } else if (kernel == "propagate") {
        P::apply(m_exec, m_block, all, m_step_kernels.wall, m_bulk_rows);
        m_block.swap();
      } else {
        m_step_kernels.collide(m_exec, m_block, all, m_step_kernels.collision,
                               m_bulk_rows);  // in place
      }
    }
    m_exec.fence();
    return timer.seconds();
  }

  ObservableSums observe() override {
    return Observables<Lattice, Scalar, Layout, ExecSpace>::apply(m_exec, post_collision_block(),
                                                                  m_g);
  }

  HostFields fields() override {
    HostFields h = empty_fields();
    const std::size_t n = std::size_t(m_block.extents().num_interior());
    h.rho.resize(n);
    h.u.resize(3 * n);
    if (is_thermal_v<Lattice>) h.temperature.resize(n);
    h.material.resize(n);
    gather_block_fields(m_exec, post_collision_block(), m_g, 0, h);
    return h;
  }

  std::vector<double> populations() override {
    std::vector<double> out(std::size_t(m_block.extents().num_interior()) * Lattice::q);
    gather_block_populations(post_collision_block(), m_block.extents().n, 0, out);
    return out;
  }

  using Simulation::set_fields;
  void set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                  const std::vector<double>& temperature) override {
    set_block_equilibrium(m_exec, m_block, m_g, m_block.extents().n, 0, rho, u, temperature);
    if constexpr (has_aa) {
      if (m_aa) aa_swap_current();
    }
    m_exec.fence();
  }

  std::int64_t step() const override { return m_step; }
  std::string variant() const override { return variant_name<Lattice, Scalar, Layout>(); }
  std::string execution_space() const override { return ExecSpace::name(); }
  int concurrency() const override { return m_exec.concurrency(); }

  const block_type& block() const { return m_block; }

 private:
  // AA state between steps: post-collision, swapped.
  void aa_swap_current() {
    if constexpr (has_aa) {
      const Extents& e = m_block.extents();
      for_each_site("kolb::SwapOpposites", m_exec, interior_region(e),
                    SwapOpposites<Lattice, Scalar, Layout, memory_space>{
                        m_block.current(), m_block.layout(), e.stride(1), e.stride(2)});
      m_aa_streamed = false;
    }
  }

  void two_buffer_step() {
    fill_periodic_halo(m_exec, m_block.current(), m_block.layout(), Lattice::q, m_block.extents(),
                       m_periodic);
    m_step_kernels.apply(m_exec, m_block, m_bulk_rows);
    m_block.swap();
  }

  void aa_step() {
    if constexpr (has_aa) {
      const Extents& e = m_block.extents();
      const Region all = interior_region(e);
      if (!m_aa_streamed) {
        fill_periodic_halo(m_exec, m_block.current(), m_block.layout(), Lattice::q, e, m_periodic);
        AAPull<Lattice, Scalar, Layout, ExecSpace>::apply(m_exec, m_block, all, m_step_kernels.wall,
                                                          m_step_kernels.collision, m_bulk_rows);
        push_back_periodic();
      } else {
        AALocal<Lattice, Scalar, Layout, ExecSpace>::apply(m_exec, m_block, all,
                                                           m_step_kernels.collision, m_bulk_rows);
      }
      m_aa_streamed = !m_aa_streamed;
    }
  }

  // Values AAPull pushed into periodic halos go to the sites they belong to.
  void push_back_periodic() {
    if constexpr (has_aa) {
      const Extents& e = m_block.extents();
      PeriodicPushBack<Lattice, Scalar, Layout, memory_space> push{
          m_block.current(), m_block.layout(), e.stride(1), e.stride(2), {}, {}, {}};
      for (int a = 0; a < 3; ++a) {
        push.m_lo[a] = e.halo[a];
        push.m_hi[a] = e.halo[a] + e.n[a];
        push.m_period[a] = a < e.dim && m_periodic[a] ? e.n[a] : 0;
      }
      for (int a = 0; a < e.dim; ++a) {
        if (!m_periodic[a]) continue;
        for (int side = 0; side < 2; ++side) {
          Region r;
          for (int b = 0; b < 3; ++b) r.lo[b] = 0, r.hi[b] = e.ext(b);
          r.lo[a] = side == 0 ? 0 : e.halo[a] + e.n[a];
          r.hi[a] = side == 0 ? e.halo[a] : e.ext(a);
          for_each_site("kolb::PeriodicPushBack", m_exec, r, push);
        }
      }
    }
  }

  // The block as the two-buffer scheme would hold it between steps
  // (post-collision populations in their own slots); a copy for AA states.
  block_type post_collision_block() {
    if constexpr (!has_aa) {
      return m_block;
    } else {
      if (!m_aa) return m_block;
      const Extents& e = m_block.extents();
      // Scratch kept between calls: the run loop observes every fraction of a second.
      if (m_scratch.extent(0) != m_block.current().extent(0))
        m_scratch = typename block_type::population_view("kolb::post_collision",
                                                         m_block.current().extent(0));
      const auto& f = m_scratch;
      if (m_aa_streamed) {
        for_each_site("kolb::AAUnstream", m_exec, interior_region(e),
                      AAUnstream<Lattice, Scalar, Layout, memory_space>{
                          m_block.current(), f, m_block.material(), m_block.layout(),
                          m_step_kernels.wall, e.stride(1), e.stride(2)});
      } else {
        Kokkos::deep_copy(m_exec, f, m_block.current());
        for_each_site("kolb::SwapOpposites", m_exec, interior_region(e),
                      SwapOpposites<Lattice, Scalar, Layout, memory_space>{
                          f, m_block.layout(), e.stride(1), e.stride(2)});
      }
      return m_block.with_current(f);
    }
  }

  HostFields empty_fields() const {
    HostFields h;
    h.n = m_block.extents().n;
    return h;
  }

  ExecSpace m_exec;
  block_type m_block;
  std::array<bool, 3> m_periodic;
  bool m_aa;  // in-place AA streaming (one buffer)
  TwoBufferStep<Lattice, Scalar, Layout> m_step_kernels;
  bool m_aa_streamed = false;  // AA buffer holds streamed (not swapped) populations
  typename block_type::population_view m_scratch;  // AA: reconstructed post-collision state
  bulk_rows_view m_bulk_rows;
  Scalar m_g[3] = {0, 0, 0};
  std::int64_t m_step = 0;
};

}  // namespace kolb
