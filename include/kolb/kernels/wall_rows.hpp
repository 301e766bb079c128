#pragma once
// The launch of a model's wall rows (D2Q37's walls, boundary/
// thermal_walls.hpp): the rows next to the y walls streamed and completed by
// the wall kernel, then collided with the model's wall collision.

#include <kolb/kernels/policy.hpp>

#include <algorithm>
#include <type_traits>

namespace kolb {

// The wall rows of both sides in one device launch, each site streamed and
// completed by the wall kernel and then collided in place by the thread
// that completed it. A GPU otherwise ran four small launches a step (each
// side's rows, then each side's collision) behind the bulk kernel, each
// paying a launch's latency (docs/heterogeneous.md).
// Launched over rows k = 0 .. n0 + n1 - 1 of a region: row k is storage
// row y0 + k for k < n0, else y1 + k - n0. The same bits as the separate
// launches: a wall site reads only the pre-streaming buffer, and its
// collision takes the lean path (`bulk`) exactly where the split launch
// over the fluid runs did.
template <class Walls, class Collision, class BulkCollision, class MemorySpace>
struct WallRowsCollided {
  Walls m_walls;
  Collision m_collide;   // the general path (sites outside their row's run)
  BulkCollision m_bulk;  // the split launch's bulk functor
  BulkRunsOn<MemorySpace> m_fluid;
  int m_n0, m_y0, m_y1;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int k, int x) const {
    const int y = k < m_n0 ? m_y0 + k : m_y1 + (k - m_n0);
    m_walls(z, y, x);
    if (m_fluid.contains(x, y, z))
      m_bulk.bulk(z, y, x);
    else
      m_collide(z, y, x);
  }
};

// The wall rows of a region (edge[side], empty where it has none of that
// side's), `rows` a side: streamed and completed by `walls`, then collided
// by `wall_collide` (split over the fluid runs `fluid`, as the part's local
// kernels). A host launches a side's rows together when it has all of them
// (Walls::sides), each row kind in a vectorised loop otherwise, then the
// collisions; a device runs both sides' rows and their collisions in one
// launch (WallRowsCollided).
template <class Exec, class Walls, class WallCollide, class FluidRuns>
void update_wall_rows(const Exec& exec, const Walls& walls, const WallCollide& wall_collide,
                      const Region (&edge)[2], int rows, const FluidRuns& fluid) {
  if constexpr (is_host_space_v<Exec>) {
    for (const Region& e : edge) {
      if (e.hi[1] - e.lo[1] == rows) {  // all of a side's rows: one launch over one row
        Region one = e;
        one.hi[1] = one.lo[1] + 1;
        for_each_site("kolb::WallRows", exec, one, walls.sides());
      } else {
        for_each_site("kolb::WallRows", exec, e, walls);
      }
    }
    for (const Region& e : edge) for_each_site_split("kolb::Collide", exec, e, wall_collide, fluid);
  } else {
    const int n0 = std::max(0, edge[0].hi[1] - edge[0].lo[1]);
    const int n1 = std::max(0, edge[1].hi[1] - edge[1].lo[1]);
    Region both = edge[0];  // x and z as the region's; rows k = 0 .. n0 + n1 - 1
    both.lo[1] = 0;
    both.hi[1] = n0 + n1;
    impl::with_bulk_functor(wall_collide, [&](const auto& lean) {
      using Lean = std::decay_t<decltype(lean)>;
      for_each_site("kolb::WallRows", exec, both,
                    WallRowsCollided<Walls, WallCollide, Lean, typename Exec::memory_space>{
                        walls, wall_collide, lean, fluid, n0, edge[0].lo[1], edge[1].lo[1]});
    });
  }
}

}  // namespace kolb
