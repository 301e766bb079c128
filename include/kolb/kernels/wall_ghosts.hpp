#pragma once
// Wall ghosts (two-buffer streaming on host spaces): before a step, the
// solid halo sites of the lattice's wall faces are given, in every slot a
// fluid site pulls from them, the value that site's bounce-back would take
// (its own opposite population plus the moving-wall term, Storage::bounce).
// The lean bulk pull then gives the general pull's bits at sites next to
// those walls, so the rows of a walled box are bulk from end to end.
// Without it every row between x walls starts and ends with a general site,
// each touching ~60 cold cache lines in a second pass; a ghost entry touches
// two (docs/performance.md, "Whole runs against the bench").

#include <kolb/block/block.hpp>
#include <kolb/kernels/aa.hpp>

#include <array>
#include <vector>

namespace kolb {

// Which halo faces of a block hold the lattice's walls that nothing else
// fills (not periodic, not a neighbouring part or rank): [axis][side].
using WallFaces = std::array<std::array<bool, 2>, 3>;

// The ghost entries of a block, computed once from the materials: triples
// (halo slot, the pulling site's own slot, material * Q + i). A halo site is
// ghosted when it is solid and lies outside the block only across wall
// faces (an edge shared with a periodic or neighbour face is filled by
// others, and keeps the general pull at the sites next to it). `ghosted`
// (sized like the materials) marks those sites for find_bulk_rows.
template <class Lattice, class Layout>
Kokkos::View<index_t*, Kokkos::HostSpace> wall_ghost_map(
    const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
    const Layout& layout, const WallFaces& walls,
    const Kokkos::View<bool*, Kokkos::HostSpace>& ghosted) {
  const SiteIndex site = e.site_index();
  std::vector<index_t> map;
  for (int z = 0; z < e.ext(2); ++z)
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x) {
        const int p[3] = {x, y, z};
        bool halo = false, walled = true;
        for (int a = 0; a < e.dim; ++a) {
          const int side = p[a] < e.halo[a] ? 0 : (p[a] >= e.halo[a] + e.n[a] ? 1 : -1);
          if (side < 0) continue;
          halo = true;
          walled = walled && walls[a][side];
        }
        if (!halo) {  // an interior row: on to its high-x halo
          if (x >= e.halo[0] && x < e.halo[0] + e.n[0] - 1) x = e.halo[0] + e.n[0] - 1;
          continue;
        }
        const index_t g = site(x, y, z);
        if (!walled || material(g) == kFluid) continue;
        for (int i = 0; i < Lattice::q; ++i) {
          int q[3];
          bool interior = true;
          for (int a = 0; a < 3; ++a) {
            q[a] = p[a] + Lattice::c(i, a);
            interior = interior && q[a] >= e.halo[a] && q[a] < e.halo[a] + e.n[a];
          }
          if (!interior) continue;
          const index_t s = site(q[0], q[1], q[2]);
          if (material(s) != kFluid) continue;
          map.push_back(layout(g, i));
          map.push_back(layout(s, Lattice::opposite(i)));
          map.push_back(index_t(material(g)) * Lattice::q + i);
        }
        ghosted(g) = true;
      }
  return impl::index_view(map, "kolb::wall_ghost_map");
}

// Writes the ghost entries of wall_ghost_map into the buffer the next pull
// reads (the sources are interior slots, the targets halo slots).
template <class Lattice, class S, class MemorySpace>
struct WallGhosts {
  static constexpr int Q = Lattice::q;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Kokkos::View<const index_t*, MemorySpace> m_map;
  WallTerms<Lattice, real_t<S>> m_wall;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const index_t term = m_map(3 * j + 2);
    m_f(m_map(3 * j)) = Storage<S>::template bounce<Lattice>(m_f(m_map(3 * j + 1)),
                                                             m_wall.value[term], int(term % Q));
  }
};

}  // namespace kolb
