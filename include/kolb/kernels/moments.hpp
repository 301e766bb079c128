#pragma once
// Macroscopic fields from the stored (post-collision) populations f*.
// Collision conserves mass, and sum f* c = rho u + F/2 with F = rho g, so
// u = sum f* c / rho - g/2: the same velocity the collision used.

#include <kolb/block/block.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class MemorySpace>
struct SiteMoments {
  Kokkos::View<const Scalar*, MemorySpace> m_f;
  Layout m_layout;
  Scalar m_half_g[3];

  // rho and u at storage site s.
  KOKKOS_INLINE_FUNCTION void operator()(index_t s, Scalar& rho, Scalar u[3]) const {
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

  SiteMoments<Lattice, Scalar, Layout, memory_space> m_site;
  Kokkos::View<const material_t*, memory_space> m_material;
  density_view m_rho;
  velocity_view m_u;
  InteriorIndex m_interior;
  index_t m_sy, m_sz;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    const index_t k = m_interior(x, y, z);
    if (m_material(s) != kFluid) {
      m_rho(k) = 0;
      for (int a = 0; a < 3; ++a) m_u(k, a) = 0;
      return;
    }
    Scalar rho, u[3];
    m_site(s, rho, u);
    m_rho(k) = rho;
    for (int a = 0; a < 3; ++a) m_u(k, a) = u[a];
  }

  static void apply(const ExecSpace& exec, const block_type& block, const Scalar g[3],
                    const density_view& rho, const velocity_view& u) {
    const Extents& e = block.extents();
    Moments m{{block.current(), block.layout(), {g[0] / 2, g[1] / 2, g[2] / 2}},
              block.material(),
              rho,
              u,
              InteriorIndex(e),
              e.stride(1),
              e.stride(2)};
    for_each_site("kolb::Moments", exec, interior_region(e), m);
  }
};

}  // namespace kolb
