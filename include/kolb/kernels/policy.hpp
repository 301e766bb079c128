#pragma once
// Iteration policies over a Region, shared by the kernels.

#include <kolb/block/extents.hpp>

namespace kolb {

// 3-D range over a region, x fastest. Tiles span whole x rows on CPUs (unit
// stride innermost, long vectorisable loops); GPUs keep Kokkos' default tiles.
template <class ExecSpace>
Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                      Kokkos::IndexType<int>>
region_policy(const ExecSpace& exec, const Region& r) {
  using policy = Kokkos::MDRangePolicy<
      ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
      Kokkos::IndexType<int>>;
  using array = typename policy::point_type;
  const array lo{r.lo[2], r.lo[1], r.lo[0]};
  const array hi{r.hi[2], r.hi[1], r.hi[0]};
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                 typename ExecSpace::memory_space>::accessible) {
    const array tile{1, 1, r.hi[0] - r.lo[0]};
    return policy(exec, lo, hi, tile);
  }
  return policy(exec, lo, hi);
}

}  // namespace kolb
