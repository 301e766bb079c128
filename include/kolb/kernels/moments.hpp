#pragma once
// Macroscopic fields from the stored (post-collision) populations f*.
// Collision conserves mass, and sum f* c = rho u + F/2 with F = rho g, so
// u = sum f* c / rho - g/2: the same velocity the collision used.
// D2Q37 (thermal): g is g dt, and the physical fields are the half-step ones,
// u^H = sum f* xi / rho - g dt / 2 and T^H = T + |g dt|^2 / 8 (d2q37.md §3);
// the collision leaves rho T unchanged, so T of f* is the pre-collision T.

#include <kolb/block/block.hpp>
#include <kolb/kernels/collision.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class MemorySpace>
struct SiteMoments {
  Kokkos::View<const Scalar*, MemorySpace> m_f;
  Layout m_layout;
  Scalar m_half_g[3];

  // rho, u and T (thermal lattices; 0 otherwise) at storage site s.
  KOKKOS_INLINE_FUNCTION void operator()(index_t s, Scalar& rho, Scalar u[3], Scalar& T) const {
    if constexpr (is_thermal_v<Lattice>) {
      const auto st = thermal::site_state<Scalar>([&](int i) { return m_f(m_layout(s, i)); });
      rho = st.rho;
      u[0] = st.jx / st.rho - m_half_g[0];
      u[1] = st.jy / st.rho - m_half_g[1];
      u[2] = 0;
      T = st.T + Scalar(0.5) * (m_half_g[0] * m_half_g[0] + m_half_g[1] * m_half_g[1]);
      return;
    }
    T = 0;
    Scalar r = 0, j[3] = {0, 0, 0};
    for (int i = 0; i < Lattice::q; ++i) {
      const Scalar fi = m_f(m_layout(s, i));
      r += fi;
      for (int a = 0; a < 3; ++a) j[a] += Lattice::c(i, a) * fi;
    }
    rho = r;
    for (int a = 0; a < 3; ++a) u[a] = j[a] / r - m_half_g[a];
  }
};

// Writes rho and u of the interior into compact arrays indexed
// x + nx (y + ny z); solid sites get rho = 0, u = 0.
template <class Lattice, class Scalar, class Layout, class ExecSpace>
struct Moments {
  using memory_space = typename ExecSpace::memory_space;
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using density_view = Kokkos::View<double*, memory_space>;
  using velocity_view = Kokkos::View<double* [3], Kokkos::LayoutRight, memory_space>;
  using temperature_view = Kokkos::View<double*, memory_space>;  // thermal lattices only

  SiteMoments<Lattice, Scalar, Layout, memory_space> m_site;
  Kokkos::View<const material_t*, memory_space> m_material;
  density_view m_rho;
  velocity_view m_u;
  temperature_view m_T;
  InteriorIndex m_interior;
  index_t m_sy, m_sz;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    const index_t k = m_interior(x, y, z);
    if (m_material(s) != kFluid) {
      m_rho(k) = 0;
      for (int a = 0; a < 3; ++a) m_u(k, a) = 0;
      if (is_thermal_v<Lattice>) m_T(k) = 0;
      return;
    }
    Scalar rho, u[3], T;
    m_site(s, rho, u, T);
    m_rho(k) = rho;
    for (int a = 0; a < 3; ++a) m_u(k, a) = u[a];
    if (is_thermal_v<Lattice>) m_T(k) = T;
  }

  static void apply(const ExecSpace& exec, const block_type& block, const Scalar g[3],
                    const density_view& rho, const velocity_view& u,
                    const temperature_view& T = {}) {
    const Extents& e = block.extents();
    Moments m{{block.current(), block.layout(), {g[0] / 2, g[1] / 2, g[2] / 2}},
              block.material(),
              rho,
              u,
              T,
              InteriorIndex(e),
              e.stride(1),
              e.stride(2)};
    for_each_site("kolb::Moments", exec, interior_region(e), m);
  }
};

}  // namespace kolb
