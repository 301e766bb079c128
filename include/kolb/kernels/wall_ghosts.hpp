#pragma once
// Wall ghosts (host parts, two-buffer and AA): before a step, the solid halo
// sites of the lattice's wall faces are given, in every slot a fluid site
// pulls from them, the value that site's bounce-back would take (its own
// opposite population plus the moving-wall term, Storage::bounce); with AA,
// what the bulk pushed into them goes back, bounced, after the pull step.
// The lean bulk pull then gives the general pull's bits at sites next to
// those walls, so the rows of a walled box are bulk from end to end.
// Without it every row between x walls starts and ends with a general site,
// each touching ~60 cold cache lines in a second pass; a ghost entry touches
// two (docs/performance.md, "Whole runs against the bench").

#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/kernels/aa.hpp>

#include <array>
#include <vector>

namespace kolb {

// Which halo faces of a block hold the lattice's walls that nothing else
// fills (not periodic, not a neighbouring part or rank): [axis][side].
using WallFaces = std::array<std::array<bool, 2>, 3>;

// Marks the halo sites of a block that are ghosted: solid and outside the
// block only across wall faces (an edge shared with a periodic or neighbour
// face is filled by others, and keeps the general pull at the sites next to
// it). `ghosted` is sized like the materials (find_bulk_rows reads it).
inline void mark_wall_ghosts(const Kokkos::View<const material_t*, Kokkos::HostSpace>& material,
                             const Extents& e, const WallFaces& walls,
                             const Kokkos::View<bool*, Kokkos::HostSpace>& ghosted) {
  const SiteIndex site = e.site_index();
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
        ghosted(g) = walled && material(g) != kFluid;
      }
}

// The ghost entries, computed once: triples (ghost slot, slot of the
// pulling site, material * Q + i) for every ghosted site g and population i
// whose site x = g + c_i is in a bulk run (general sites bounce by
// themselves). Two-buffer: slot i of g takes x's slot opposite(i) bounced;
// `swapped` (AA): slot opposite(i) of g takes x's slot i, and after the pull
// step x's slot i takes back what x pushed into slot opposite(i) of g,
// bounced (WallGhosts with Return).
template <class Lattice, class Layout>
Kokkos::View<index_t*, Kokkos::HostSpace> wall_ghost_map(
    const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
    const Layout& layout, const Kokkos::View<const bool*, Kokkos::HostSpace>& ghosted,
    const BulkRows& bulk, bool swapped) {
  const SiteIndex site = e.site_index();
  std::vector<index_t> map;
  for (int z = 0; z < e.ext(2); ++z)
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x) {
        const index_t g = site(x, y, z);
        if (ghosted.size() == 0 || !ghosted(g)) continue;
        for (int i = 0; i < Lattice::q; ++i) {
          const int q[3] = {x + Lattice::c(i, 0), y + Lattice::c(i, 1), z + Lattice::c(i, 2)};
          bool interior = true;
          for (int a = 0; a < 3; ++a)
            interior = interior && q[a] >= e.halo[a] && q[a] < e.halo[a] + e.n[a];
          if (!interior || q[0] < bulk(q[1], q[2], 0) || q[0] >= bulk(q[1], q[2], 1)) continue;
          const index_t s = site(q[0], q[1], q[2]);
          const int o = Lattice::opposite(i);
          map.push_back(layout(g, swapped ? o : i));
          map.push_back(layout(s, swapped ? i : o));
          map.push_back(index_t(material(g)) * Lattice::q + i);
        }
      }
  return impl::index_view(map, "kolb::wall_ghost_map");
}

// Applies the ghost entries of wall_ghost_map to the buffer the next pull
// reads: f[ghost] = bounce(f[site]). Return (AA, after the pull step):
// f[site] = bounce(f[ghost]). Sources and targets are disjoint.
template <class Lattice, class S, class MemorySpace, bool Return = false>
struct WallGhosts {
  static constexpr int Q = Lattice::q;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Kokkos::View<const index_t*, MemorySpace> m_map;
  WallTerms<Lattice, real_t<S>> m_wall;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const index_t term = m_map(3 * j + 2);
    const index_t to = m_map(3 * j + (Return ? 1 : 0)), from = m_map(3 * j + (Return ? 0 : 1));
    m_f(to) = Storage<S>::template bounce<Lattice>(m_f(from), m_wall.value[term], int(term % Q));
  }
};

}  // namespace kolb
