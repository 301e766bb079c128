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

// Per (material, population) correction of half-way bounce-back for a moving
// wall, 2 w_i rho_w (c_i . u_w) / cs^2 with rho_w = 1 (the reference density):
// the population entering the fluid from the wall picks up the wall's momentum.
template <class Lattice, class Scalar>
struct WallTerms {
  Kokkos::Array<Scalar, kMaxMaterials * Lattice::q> value;

  WallTerms() = default;
  explicit WallTerms(const MaterialTable& table) {
    for (int m = 0; m < kMaxMaterials; ++m)
      for (int i = 0; i < Lattice::q; ++i) {
        double t = 0.0;
        if (m < int(table.velocity.size())) {
          const auto& u = table.velocity[m];
          const double cu =
              Lattice::c(i, 0) * u[0] + Lattice::c(i, 1) * u[1] + Lattice::c(i, 2) * u[2];
          t = 2.0 * Lattice::w(i) * cu / Lattice::cs2();
        }
        value[m * Lattice::q + i] = Scalar(t);
      }
  }
  KOKKOS_INLINE_FUNCTION Scalar operator()(material_t m, int i) const {
    return value[m * Lattice::q + i];
  }
};

}  // namespace kolb
