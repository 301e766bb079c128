#pragma once
// Site materials. Every site carries a one-byte material id: 0 is fluid, any
// other id is a solid that fluid neighbours bounce populations off. Each
// solid id has a wall velocity (zero for a resting wall or obstacle).

#include <kolb/core/macros.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace kolb {

using material_t = std::uint8_t;
constexpr material_t kFluid = 0;
constexpr material_t kSolid = 1;  // resting wall / obstacle
constexpr int kMaxMaterials = 8;  // fluid + resting solid + up to 6 moving walls

// Host-side list of wall velocities, indexed by material id.
struct MaterialTable {
  std::vector<std::array<double, 3>> velocity{{0, 0, 0}, {0, 0, 0}};

  // Returns the id of a wall moving with `u` (re-using an equal one).
  material_t moving_wall(const std::array<double, 3>& u);
};

}  // namespace kolb
