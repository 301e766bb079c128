#pragma once
// InitializeEquilibrium: sets the populations of every interior fluid site to
// the equilibrium of given (rho, u). The stored state is post-collision, so
// the equilibrium velocity is u + g/2 (see Moments); solid sites get zeros.
// D2Q37: the given fields are the physical u^H, T^H; the populations are the
// 4th-order equilibrium of u^H + g dt/2 and T^H - |g dt|^2/8.

#include <kolb/kernels/collision.hpp>
#include <kolb/kernels/moments.hpp>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace>
struct InitializeEquilibrium {
  using memory_space = typename ExecSpace::memory_space;
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;

  Kokkos::View<Scalar*, memory_space> m_f;
  Kokkos::View<const material_t*, memory_space> m_material;
  Kokkos::View<const double*, memory_space> m_rho;
  Kokkos::View<const double* [3], Kokkos::LayoutRight, memory_space> m_u;
  Kokkos::View<const double*, memory_space> m_T;  // thermal lattices only
  Layout m_layout;
  InteriorIndex m_interior;
  index_t m_sy, m_sz;
  Scalar m_half_g[3];

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = x + m_sy * y + m_sz * z;
    const index_t k = m_interior(x, y, z);
    const bool fluid = m_material(s) == kFluid;
    const Scalar rho = m_rho(k);
    const Scalar ux = m_u(k, 0) + m_half_g[0], uy = m_u(k, 1) + m_half_g[1],
                 uz = m_u(k, 2) + m_half_g[2];
    if constexpr (is_thermal_v<Lattice>) {
      const Scalar T =
          Scalar(m_T(k)) - Scalar(0.5) * (m_half_g[0] * m_half_g[0] + m_half_g[1] * m_half_g[1]);
      for (int i = 0; i < Lattice::q; ++i)
        m_f(m_layout(s, i)) = fluid ? thermal::equilibrium<Scalar>(i, rho, ux, uy, T) : Scalar(0);
    } else {
      for (int i = 0; i < Lattice::q; ++i)
        m_f(m_layout(s, i)) =
            fluid ? BGK<Lattice, Scalar>::equilibrium(i, rho, ux, uy, uz) : Scalar(0);
    }
  }

  static void apply(const ExecSpace& exec, const block_type& block, const Scalar g[3],
                    const Kokkos::View<const double*, memory_space>& rho,
                    const Kokkos::View<const double* [3], Kokkos::LayoutRight, memory_space>& u,
                    const Kokkos::View<const double*, memory_space>& T = {}) {
    const Extents& e = block.extents();
    for (const auto& f : {block.current(), block.next()}) {
      InitializeEquilibrium init{f,
                                 block.material(),
                                 rho,
                                 u,
                                 T,
                                 block.layout(),
                                 InteriorIndex(e),
                                 e.stride(1),
                                 e.stride(2),
                                 {g[0] / 2, g[1] / 2, g[2] / 2}};
      for_each_site("kolb::InitializeEquilibrium", exec, interior_region(e), init);
    }
  }
};

}  // namespace kolb
