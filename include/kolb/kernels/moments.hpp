#pragma once
// Moments: the physical fields (rho, u and, for models with a temperature,
// T) and the material of every interior site, from the stored populations
// through the model's fields(), into arrays indexed x + nx (y + ny z) by an
// InteriorIndex (the part's interior, or shifted: its place in a tile's
// arrays); solid sites get zeros.

#include <kolb/block/block.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/lattice/slot.hpp>
#include <kolb/model/model.hpp>

#include <type_traits>

namespace kolb {

/// Where Moments writes: rho, u (3 per site), T (models with a temperature;
/// else empty) and the material of each site.
template <class MemorySpace>
struct MomentArrays {
  Kokkos::View<double*, MemorySpace> rho;
  Kokkos::View<double* [3], Kokkos::LayoutRight, MemorySpace> u;
  Kokkos::View<double*, MemorySpace> T;
  Kokkos::View<material_t*, MemorySpace> material;
};

// Moments of every interior site, fluid or not, written unconditionally:
// with a branch on the material anywhere in the row the compiler left the
// rows scalar.
// SolidSites then writes the material and zeroes the solid sites' fields.
// Swapped: population i in slot opposite(i) (AA between step pairs), a
// template parameter for the same reason.
template <class Model, class Layout, class MemorySpace, bool Swapped>
struct Moments {
  using Scalar = typename Model::value_type;
  using P = Storage<typename Model::scalar_type>;

  Kokkos::View<const typename P::stored_type*, MemorySpace> m_f;
  Layout m_layout;
  SiteIndex m_site;
  InteriorIndex m_at;  // where site (x, y, z) goes in m_out
  Model m_model;
  MomentArrays<MemorySpace> m_out;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    using Lattice = typename Model::lattice_type;
    const index_t s = m_site(x, y, z);
    const index_t k = m_at(x, y, z);
    const SiteFields<Scalar> v = m_model.fields([&](int i) {
      const int slot = stored_slot<Lattice>(i, Swapped);
      return P::template load<Lattice>(m_f(m_layout(s, slot)), slot);
    });
    m_out.rho(k) = v.rho;
    for (int a = 0; a < 3; ++a) m_out.u(k, a) = v.u[a];
    if (Model::has_temperature) m_out.T(k) = v.temperature;
  }
};

// After Moments: the material of every interior site, and zeros in the
// fields of the solid ones (whatever their populations hold).
template <class MemorySpace>
struct SolidSites {
  Kokkos::View<const material_t*, MemorySpace> m_material;
  SiteIndex m_site;
  InteriorIndex m_at;
  MomentArrays<MemorySpace> m_out;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const material_t m = m_material(m_site(x, y, z));
    const index_t k = m_at(x, y, z);
    m_out.material(k) = m;
    if (m == kFluid) return;
    m_out.rho(k) = 0;
    for (int a = 0; a < 3; ++a) m_out.u(k, a) = 0;
    if (m_out.T.extent(0) > 0) m_out.T(k) = 0;
  }
};

/// Launches Moments over the interior of `block` (its current populations,
/// read swapped or not) on `exec`, into `out` at the places `at` gives.
template <class Model, class Block, class ExecSpace>
void compute_moments(const ExecSpace& exec, const Block& block, const Model& model,
                     const InteriorIndex& at, bool swapped,
                     const MomentArrays<typename Block::memory_space>& out) {
  using Layout = typename Block::layout_type;
  using Space = typename Block::memory_space;
  const Region r = interior_region(block.extents());
  const auto launch = [&](auto read_swapped) {
    using Functor = Moments<Model, Layout, Space, decltype(read_swapped)::value>;
    for_each_site("kolb::Moments", exec, r,
                  Functor{block.current(), block.layout(), block.site_index(), at, model, out});
  };
  if (swapped)
    launch(std::true_type());
  else
    launch(std::false_type());
  for_each_site("kolb::SolidSites", exec, r,
                SolidSites<Space>{block.material(), block.site_index(), at, out});
}

}  // namespace kolb
