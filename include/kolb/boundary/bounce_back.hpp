#pragma once
// Half-way bounce-back off solid sites (walls, obstacles; boundary/
// moving_wall.hpp adds a moving wall's term). A fluid site whose upstream
// neighbour along c_i is solid takes, instead of the pulled value, its own
// opposite population plus the wall term (Storage::bounce). The general
// path of the pull kernels (kernels/pull.hpp, aa.hpp) does so site by site;
// this file applies the condition on a list of boundary links instead, so
// that the lean bulk rows (no material loads) cover the sites next to the
// lattice's walls too:
//  - before a step, the solid halo sites of the wall faces (the wall ghosts)
//    are given, in every slot a fluid site pulls from them, the value that
//    site's bounce-back would take; with AA, what the bulk pushed into them
//    goes back, bounced, after the pull step;
//  - the lean pull then gives the general pull's bits at those sites, so the
//    rows of a walled box are bulk from end to end (a general site at each
//    end of a row touched ~60 cold cache lines in a second pass; a ghost
//    link touches two).
// Where the fused rows go by aligned lines, the x walls are bounced in the
// rows' end lines instead (StreamCollide::m_end_walls): no x face is filled.
// Host parts only; device parts bounce in the general pass.

#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/core/allocate.hpp>
#include <kolb/lattice/slot.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>
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

// A run of ghost entries: entry k moves between slots `ghost + k * stride`
// and `site + k * stride`, all with the wall term `term` = material * Q + i.
// One population's entries run along a row on the y and z faces (stride 1
// in SoA) and down a column on the x faces, so a pass streams through the
// rows instead of reading a 24-byte index triple per moved value.
struct GhostRun {
  index_t ghost, site, stride;
  int count, term;
};

// A host part's wall ghosts as runs of entries: those a pass fills before
// each step, and (two-buffer) those of the x faces whose rows' end lines
// take them as lanes instead (StreamCollide::m_end_walls), kept for a pull
// that does not (BlockPart's bench of Propagate).
struct WallGhostPlan {
  Kokkos::View<GhostRun*, Kokkos::HostSpace> runs, lane_runs;
};

namespace impl {
// Entries as runs: ordered by term, then ghost slot; consecutive ones one
// common stride apart on both sides join a run.
struct GhostEntry {
  int term;
  index_t ghost, site;
};
inline Kokkos::View<GhostRun*, Kokkos::HostSpace> ghost_runs(std::vector<GhostEntry> entries) {
  std::sort(entries.begin(), entries.end(), [](const GhostEntry& a, const GhostEntry& b) {
    return a.term != b.term ? a.term < b.term : a.ghost < b.ghost;
  });
  std::vector<GhostRun> runs;
  for (const GhostEntry& n : entries) {
    if (!runs.empty()) {  // the next entry of the last run: one stride further on both sides
      GhostRun& r = runs.back();
      const index_t last = index_t(r.count - 1) * r.stride;
      const index_t step = n.ghost - (r.ghost + last);
      if (r.term == n.term && step == n.site - (r.site + last) &&
          (r.count == 1 || step == r.stride)) {
        r.stride = step;
        ++r.count;
        continue;
      }
    }
    runs.push_back({n.ghost, n.site, 1, 1, n.term});
  }
  return host_view_of(runs, "kolb::wall_ghost_runs");
}
}  // namespace impl

// The ghost entries of a host part, computed once. Two-buffer: slot i of a
// ghosted site g takes slot opposite(i) of the site x = g + c_i, bounced
// (only for x in bulk runs: general sites bounce by themselves); `swapped`
// (AA): slot opposite(i) of g takes x's slot i, and after the pull step x's
// slot i takes back what x pushed into slot opposite(i) of g, bounced
// (WallGhosts with Return). x_lanes[side] (two-buffer): the entries of the
// low (0) or high (1) x face, whose rows' end lines take them as lanes, go
// to lane_runs.
template <class Lattice, class Layout>
WallGhostPlan wall_ghosts(const Kokkos::View<const material_t*, Kokkos::HostSpace>& material,
                          const Extents& e, const Layout& layout,
                          const Kokkos::View<const bool*, Kokkos::HostSpace>& ghosted,
                          const BulkRows& bulk, bool swapped,
                          std::array<bool, 2> x_lanes = {false, false}) {
  if (swapped && (x_lanes[0] || x_lanes[1]))
    throw std::invalid_argument("wall_ghosts: AA rows take no wall lanes");
  const SiteIndex site = e.site_index();
  std::vector<impl::GhostEntry> entries, lanes;
  for (int z = 0; z < e.ext(2); ++z)
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x) {
        const index_t g = site(x, y, z);
        if (ghosted.size() == 0 || !ghosted(g)) continue;
        const int x_side = x < e.halo[0] ? 0 : (x >= e.halo[0] + e.n[0] ? 1 : -1);
        for (int i = 0; i < Lattice::q; ++i) {
          const int q[3] = {x + Lattice::c(i, 0), y + Lattice::c(i, 1), z + Lattice::c(i, 2)};
          bool interior = true;
          for (int a = 0; a < 3; ++a)
            interior = interior && q[a] >= e.halo[a] && q[a] < e.halo[a] + e.n[a];
          if (!interior || q[0] < bulk(q[1], q[2], 0) || q[0] >= bulk(q[1], q[2], 1)) continue;
          const index_t s = site(q[0], q[1], q[2]);
          (x_side >= 0 && x_lanes[x_side] ? lanes : entries)
              .push_back({int(material(g)) * Lattice::q + i,
                          layout(g, stored_slot<Lattice>(i, swapped)),
                          layout(s, stored_slot<Lattice>(Lattice::opposite(i), swapped))});
        }
      }
  return {impl::ghost_runs(std::move(entries)), impl::ghost_runs(std::move(lanes))};
}

// Applies the runs of wall_ghosts to the buffer the next pull reads:
// f[ghost] = bounce(f[site]). Return (AA, after the pull step):
// f[site] = bounce(f[ghost]). Sources and targets are disjoint. One work
// item per run (host parts only).
template <class Lattice, class S, class MemorySpace, bool Return = false>
struct WallGhosts {
  static constexpr int Q = Lattice::q;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Kokkos::View<const GhostRun*, MemorySpace> m_runs;
  WallTerms<Lattice, real_t<S>> m_wall;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const GhostRun r = m_runs(j);
    const index_t to = Return ? r.site : r.ghost, from = Return ? r.ghost : r.site;
    const real_t<S> wall = m_wall.value[r.term];
    const int i = r.term % Q;
    stored_t<S>* const f = m_f.data();
    KOLB_SIMD
    for (int k = 0; k < r.count; ++k)
      f[to + k * r.stride] = Storage<S>::template bounce<Lattice>(f[from + k * r.stride], wall, i);
  }
};

}  // namespace kolb
