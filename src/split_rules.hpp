#pragma once
// The rule a node's split shares between split_problem (config.cpp) and the
// balancer's geometry (tune.cpp); internal to src/.

#include <kolb/io/case.hpp>
#include <kolb/model/lattice_info.hpp>

namespace kolb {

// The fewest layers a host part split along `axis` needs for the model's
// wall rows: D2Q37 between y walls, split along y, holds its 3 wall rows and
// the 3 they read (as a tile along y does, tiling_problem); 0 otherwise.
inline int wall_layers_needed(const Case& c, int axis) {
  const LatticeInfo& info = lattice_info(c.lattice);
  const bool walls = info.wall_rows > 0 && c.faces[2].kind != FaceKind::periodic;
  return axis == 1 && walls ? 2 * info.wall_rows : 0;
}

}  // namespace kolb
