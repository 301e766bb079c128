#pragma once
// Observables: the reduction behind ObservableSums over a block's interior.

#include <kolb/block/block.hpp>
#include <kolb/kernels/observable_sums.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/lattice/slot.hpp>

namespace kolb {

template <class Model, class Layout, class MemorySpace>
struct Observables {
  using Scalar = typename Model::value_type;
  using P = Storage<typename Model::scalar_type>;
  using value_type = ObservableSums;

  Kokkos::View<const typename P::stored_type*, MemorySpace> m_f;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  SiteIndex m_site;
  Model m_model;
  // Population i in slot opposite(i) (the AA state between step pairs): read
  // in place instead of from an unswapped copy.
  bool m_swapped = false;
  // The rows read (reduce_sites skips the others).
  RowSample m_rows;

  KOKKOS_INLINE_FUNCTION bool takes_row(int z, int y) const { return m_rows.takes(y, z); }

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x, value_type& sum) const {
    using Lattice = typename Model::lattice_type;
    const index_t s = m_site(x, y, z);
    if (m_material(s) != kFluid) return;
    const auto v = m_model.fields([&](int i) {
      const int slot = stored_slot<Lattice>(i, m_swapped);
      return P::template load<Lattice>(m_f(m_layout(s, slot)), slot);
    });
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

}  // namespace kolb
