#pragma once
// Moving walls: half-way bounce-back off a solid whose material has a wall
// velocity u_w (MaterialTable::moving_wall). The population bounced back into
// the fluid picks up the wall's momentum, 2 w_i rho_w (c_i . u_w) / cs^2 with
// rho_w = 1 (the reference density). Resting solids have a zero term, so
// every bounce adds its material's term and no kernel asks which kind it has.
// The kernels that bounce (kernels/pull.hpp, aa.hpp, stream_collide.hpp) and
// the wall ghosts (boundary/bounce_back.hpp) take it from WallTerms.

#include <kolb/block/materials.hpp>

#include <array>

namespace kolb {

// What population i bounced off a wall moving with u adds:
// 2 w_i ρ₀ (c_i·u) / c_s², ρ₀ = 1 (the open faces' inlets too).
template <class Lattice>
double wall_term(int i, const std::array<double, 3>& u) {
  const double cu = Lattice::c(i, 0) * u[0] + Lattice::c(i, 1) * u[1] + Lattice::c(i, 2) * u[2];
  return 2.0 * Lattice::w(i) * cu / Lattice::cs2();
}

// The wall term of each (material, population): what a population bounced
// off that material adds.
template <class Lattice, class Scalar>
struct WallTerms {
  Kokkos::Array<Scalar, kMaxMaterials * Lattice::q> value;

  WallTerms() = default;
  explicit WallTerms(const MaterialTable& table) {
    for (int m = 0; m < kMaxMaterials; ++m)
      for (int i = 0; i < Lattice::q; ++i) {
        const double t =
            m < int(table.velocity.size()) ? wall_term<Lattice>(i, table.velocity[m]) : 0.0;
        value[m * Lattice::q + i] = Scalar(t);
      }
  }
  KOKKOS_INLINE_FUNCTION Scalar operator()(material_t m, int i) const {
    return value[m * Lattice::q + i];
  }
};

}  // namespace kolb
