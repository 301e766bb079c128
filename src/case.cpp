// The Case's own rules (io/case.hpp): its viscosity, the axis a node is
// split along and what is wrong with a split.

#include <kolb/io/case.hpp>
#include <kolb/model/lattice_info.hpp>

#include "split_rules.hpp"

namespace kolb {

double Case::viscosity() const { return lattice_info(lattice).cs2 * (tau - 0.5); }

int node_split_axis(const Case& c, const std::array<int, 3>& ranks) {
  if (c.execution.split_axis >= 0) return c.execution.split_axis;
  int tiled = -1, count = 0;
  for (int a = 0; a < 3; ++a)
    if (ranks[a] > 1) tiled = a, ++count;
  return count == 1 ? tiled : c.dim - 1;
}

const char* axis_name(int axis) {
  static const char* const names[3] = {"x", "y", "z"};
  return names[axis];
}

std::string split_problem(const Case& c, std::int64_t m, int axis) {
  const std::int64_t lx = c.size[axis], h = lattice_info(c.lattice).halo;
  const std::string along = std::string(" along ") + axis_name(axis);
  const std::string unit = axis == 0 ? " columns" : " layers";
  if (m < 0 || 2 * m > lx)
    return std::to_string(m) + " host" + unit + " per side do not fit in the " +
           std::to_string(lx) + " lattice" + unit + along + " (0 to " + std::to_string(lx / 2) +
           ", or auto)";
  if ((m > 0 && m < h) || (lx - 2 * m > 0 && lx - 2 * m < h))
    return "every part needs at least " + std::to_string(h) + unit + along +
           " (the halo width of " + to_string(c.lattice) + "); " + std::to_string(m) + " host" +
           unit + " per side leave " + std::to_string(lx - 2 * m) + " to the accelerator";
  if (const int least = wall_layers_needed(c, axis); m > 0 && m < least)
    return std::to_string(m) + " host rows per side along y: " + to_string(c.lattice) +
           "'s wall rows need at least " + std::to_string(least) +
           " (or split along x: execution.split_axis: x)";
  return "";
}

}  // namespace kolb
