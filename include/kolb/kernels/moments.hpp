#pragma once
// Moments: the physical fields (rho, u and, for models with a temperature,
// T) of every interior site, from the stored populations through the
// model's fields(), into compact arrays indexed x + nx (y + ny z); solid
// sites get zeros.

#include <kolb/block/block.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/model/model.hpp>

namespace kolb {

template <class Model, class Layout, class MemorySpace>
struct Moments {
  using Scalar = typename Model::value_type;
  using P = Storage<typename Model::scalar_type>;
  using density_view = Kokkos::View<double*, MemorySpace>;
  using velocity_view = Kokkos::View<double* [3], Kokkos::LayoutRight, MemorySpace>;

  Kokkos::View<const typename P::stored_type*, MemorySpace> m_f;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  SiteIndex m_site;
  InteriorIndex m_interior;
  Model m_model;
  density_view m_rho;
  velocity_view m_u;
  density_view m_T;        // models with a temperature only
  bool m_swapped = false;  // population i in slot opposite(i) (AA between step pairs)

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    using Lattice = typename Model::lattice_type;
    const index_t s = m_site(x, y, z);
    const index_t k = m_interior(x, y, z);
    SiteFields<Scalar> v;
    if (m_material(s) == kFluid)
      v = m_model.fields([&](int i) {
        const int slot = m_swapped ? Lattice::opposite(i) : i;
        return P::template load<Lattice>(m_f(m_layout(s, slot)), slot);
      });
    m_rho(k) = v.rho;
    for (int a = 0; a < 3; ++a) m_u(k, a) = v.u[a];
    if (Model::has_temperature) m_T(k) = v.temperature;
  }
};

}  // namespace kolb
