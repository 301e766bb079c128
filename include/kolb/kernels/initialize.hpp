#pragma once
// InitializeEquilibrium: sets the populations of every interior fluid site
// to the model's equilibrium of the given physical fields (compact arrays
// indexed x + nx (y + ny z)); solid sites get zeros. ZeroSites: zeros at
// every population of a site (the first touch of a population array, in
// the thread layout of the kernels that will update it).

#include <kolb/block/block.hpp>
#include <kolb/core/static_for.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/model/model.hpp>

namespace kolb {

template <class Stored, class Layout, int Q, class MemorySpace>
struct ZeroSites {
  Kokkos::View<Stored*, MemorySpace> m_f;
  Layout m_layout;
  SiteIndex m_site;
  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    for (int i = 0; i < Q; ++i) m_f(m_layout(s, i)) = Stored(0);
  }
};

template <class Model, class Layout, class MemorySpace>
struct InitializeEquilibrium {
  using Scalar = typename Model::value_type;
  using P = Storage<typename Model::scalar_type>;

  Kokkos::View<typename P::stored_type*, MemorySpace> m_f;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Kokkos::View<const double*, MemorySpace> m_rho;
  Kokkos::View<const double* [3], Kokkos::LayoutRight, MemorySpace> m_u;
  Kokkos::View<const double*, MemorySpace> m_T;
  Layout m_layout;
  SiteIndex m_site;
  InteriorIndex m_interior;
  Model m_model;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    const index_t k = m_interior(x, y, z);
    const bool fluid = m_material(s) == kFluid;
    SiteFields<double> v;
    v.rho = m_rho(k);
    for (int a = 0; a < 3; ++a) v.u[a] = m_u(k, a);
    v.temperature = m_T(k);
    using Lattice = typename Model::lattice_type;
    constexpr int Q = Lattice::q;
    if constexpr (Q <= 19) {
      // Unrolled, so each population's velocity is a literal (the same
      // arithmetic; a run-time loop rebuilt the velocity table per site).
      static_for<Q>([&](auto k) KOLB_INLINE_LAMBDA {
        constexpr int i = decltype(k)::value;
        m_f(m_layout(s, i)) =
            P::template store<Lattice>(fluid ? m_model.equilibrium(i, v) : Scalar(0), i);
      });
    } else {
      for (int i = 0; i < Q; ++i)
        m_f(m_layout(s, i)) =
            P::template store<Lattice>(fluid ? m_model.equilibrium(i, v) : Scalar(0), i);
    }
  }
};

}  // namespace kolb
