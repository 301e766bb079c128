#pragma once
// Block: a box of the lattice plus halos, stored in one execution space's
// memory: two population buffers (pull scheme: read one, write the other)
// and the per-site material ids.

#include <kolb/block/extents.hpp>
#include <kolb/block/materials.hpp>

#include <string>

namespace kolb {

template <class Lattice, class Scalar, class Layout, class ExecSpace>
class Block {
 public:
  using lattice_type = Lattice;
  using value_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecSpace;
  using memory_space = typename ExecSpace::memory_space;
  using population_view = Kokkos::View<Scalar*, memory_space>;
  using material_view = Kokkos::View<material_t*, memory_space>;

  Block() = default;
  Block(const Extents& extents, const std::string& label)
      : m_extents(extents),
        m_layout(extents.num_sites(), Lattice::q),
        m_f{population_view(label + ".f0", m_layout.allocation_size()),
            population_view(label + ".f1", m_layout.allocation_size())},
        m_material(label + ".material", extents.num_sites()) {}

  const Extents& extents() const { return m_extents; }
  const Layout& layout() const { return m_layout; }
  // Populations of the current time level (post-collision, not yet streamed).
  const population_view& current() const { return m_f[m_cur]; }
  const population_view& next() const { return m_f[1 - m_cur]; }
  void swap() { m_cur = 1 - m_cur; }
  const material_view& material() const { return m_material; }

 private:
  Extents m_extents;
  Layout m_layout;
  population_view m_f[2];
  material_view m_material;
  int m_cur = 0;
};

}  // namespace kolb
