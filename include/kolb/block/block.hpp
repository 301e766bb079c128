#pragma once
// Block: a box of the lattice plus halos in one memory space: two population
// buffers (pull scheme: read one, write the other; one for in-place AA
// streaming) and the per-site material ids. Templated on where the data
// lives only; kernels take the execution space when they are launched.
// S is the variant's scalar (storage.hpp): double, float, or fp16.

#include <kolb/block/extents.hpp>
#include <kolb/block/materials.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/core/allocate.hpp>
#include <kolb/core/cache_lines.hpp>

#include <string>

namespace kolb {

/// The lead (Block's constructor) that starts each row's first interior
/// site, `halo` sites into its row, on a cache line of T values, when rows
/// are whole lines long (Extents' row_align = host::line_values<T>).
template <class T>
constexpr int aligned_row_lead(int halo) {
  constexpr int line = host::line_values<T>;
  return (line - halo % line) % line;
}

template <class Lattice, class S, class Layout, class MemorySpace>
class Block {
 public:
  using lattice_type = Lattice;
  using scalar_type = S;
  using value_type = real_t<S>;     // arithmetic on loaded populations
  using stored_type = stored_t<S>;  // elements of the population arrays
  using layout_type = Layout;
  using memory_space = MemorySpace;
  using population_view = Kokkos::View<stored_type*, memory_space>;
  using material_view = Kokkos::View<material_t*, memory_space>;

  Block() = default;
  // `buffers`: 2 for the pull scheme, 1 for in-place streaming (AA pattern;
  // current() and next() are then the same array). `zeroed` = false leaves
  // the populations untouched, for an owner that first-touches them with
  // its kernels' thread layout (make_part_block). `lead` > 0 starts the
  // population arrays `lead` elements into their allocations (a part's
  // aligned rows: each row's first interior site then starts a cache line).
  Block(const Extents& extents, const std::string& label, int buffers = 2, bool zeroed = true,
        int lead = 0)
      : m_extents(extents),
        m_layout(extents.num_sites(), Lattice::q, int(sizeof(stored_type))),
        m_material(label + ".material", extents.num_sites()) {
    auto make = [&](const char* name) {
      const std::size_t n = m_layout.allocation_size();
      population_view v = zeroed ? allocate_zeroed<population_view>(label + name, n + lead)
                                 : allocate_untouched<population_view>(label + name, n + lead);
      return population_view(Kokkos::subview(v, Kokkos::make_pair(std::size_t(lead), n + lead)));
    };
    m_f[0] = make(".f0");
    m_f[1] = buffers == 2 ? make(".f1") : m_f[0];
  }
  // The same block viewing `f` as its current populations (for diagnostics
  // on a reconstructed state).
  Block with_current(const population_view& f) const {
    Block b = *this;
    b.m_f[b.m_cur] = f;
    return b;
  }

  const Extents& extents() const { return m_extents; }
  SiteIndex site_index() const { return m_extents.site_index(); }
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
