#pragma once
// Observables: the reduction behind ObservableSums over a block's interior.

#include <kolb/block/block.hpp>
#include <kolb/kernels/observable_sums.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class Model, class Layout, class MemorySpace>
struct Observables {
  using Scalar = typename Model::value_type;
  using value_type = ObservableSums;

  Kokkos::View<const Scalar*, MemorySpace> m_f;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  SiteIndex m_site;
  Model m_model;

  // Host launches: one row per work item, summed into a local first (the
  // per-site MDRange reduction cost ~100 ns a site on the CPU, as much as
  // several 3-D steps for the run loop's stability check).
  int m_row_lo[3] = {0, 0, 0};
  int m_row_nx = 0, m_row_ny = 1;
  void operator()(std::size_t row, value_type& sum) const {
    const int z = m_row_lo[2] + int(row / std::size_t(m_row_ny));
    const int y = m_row_lo[1] + int(row % std::size_t(m_row_ny));
    value_type local;
    for (int x = m_row_lo[0]; x < m_row_lo[0] + m_row_nx; ++x) (*this)(z, y, x, local);
    sum.add(local);
  }

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x, value_type& sum) const {
    const index_t s = m_site(x, y, z);
    if (m_material(s) != kFluid) return;
    const auto v = m_model.fields([&](int i) { return m_f(m_layout(s, i)); });
    const double u2 = double(v.u[0]) * v.u[0] + double(v.u[1]) * v.u[1] + double(v.u[2]) * v.u[2];
    const double speed = math::sqrt(u2);
    ObservableSums site;
    site.mass = v.rho;
    for (int a = 0; a < 3; ++a) site.momentum[a] = double(v.rho) * v.u[a];
    site.kinetic_energy = 0.5 * v.rho * u2;
    site.internal_energy = double(v.rho) * v.temperature;
    site.speed_sum = speed;
    site.max_speed = speed;
    site.fluid_sites = 1;
    sum.add(site);
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type(); }
  KOKKOS_INLINE_FUNCTION void join(value_type& a, const value_type& b) const { a.add(b); }
#if KOKKOS_VERSION < 30700
  // Kokkos < 3.7 only calls the volatile overload (else it silently sums).
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& a, const volatile value_type& b) const {
    const_cast<value_type&>(a).add(const_cast<const value_type&>(b));
  }
#endif
};

// The sums over region r: rows on host spaces, a 3-D range on devices.
template <class ExecSpace, class Model, class Layout>
ObservableSums observe_region(const ExecSpace& exec, const Region& r,
                              Observables<Model, Layout, typename ExecSpace::memory_space> f) {
  ObservableSums sum;
  if (r.empty()) return sum;
  if constexpr (is_host_space_v<ExecSpace>) {
    for (int a = 0; a < 3; ++a) f.m_row_lo[a] = r.lo[a];
    f.m_row_nx = r.hi[0] - r.lo[0];
    f.m_row_ny = r.hi[1] - r.lo[1];
    Kokkos::parallel_reduce("kolb::Observables", impl::row_policy(exec, r), f, sum);
  } else {
    Kokkos::parallel_reduce("kolb::Observables", region_policy(exec, r), f, sum);
  }
  return sum;
}

}  // namespace kolb
