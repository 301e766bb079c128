#pragma once
// D2Q37: the thermal, compressible lattice of Biferale, Sbragaglia,
// Scagliarini, Tripiccione et al. 37 velocities reaching 3
// sites (halo 3), exact Gaussian quadrature through degree 9 with the scaled
// velocities xi = r c, enough for a 4th-order Hermite equilibrium.
// Index order of the authors' code (reference d2q37.md §2b): c_x from +3 to
// -3, c_y ascending, so opposite(p) = 36 - p and p = 18 is the rest particle.

#include <kolb/lattice/lattice_checks.hpp>

namespace kolb {

struct D2Q37 {
  static constexpr int dim = 2;
  static constexpr int q = 37;
  static constexpr int halo = 3;
  static constexpr const char* name = "D2Q37";
  static constexpr int rest = 18;

  // r: xi = r c in the model's units (T0 = 1, dx = 1, dt = 1/r).
  KOKKOS_INLINE_FUNCTION static constexpr double unit() { return 1.19697977039307435897239; }

  KOKKOS_FORCEINLINE_FUNCTION static constexpr int c(int i, int axis) {
    constexpr int v[q][2] = {{3, -1}, {3, 0},   {3, 1},   {2, -2},  {2, -1}, {2, 0},  {2, 1},
                             {2, 2},  {1, -3},  {1, -2},  {1, -1},  {1, 0},  {1, 1},  {1, 2},
                             {1, 3},  {0, -3},  {0, -2},  {0, -1},  {0, 0},  {0, 1},  {0, 2},
                             {0, 3},  {-1, -3}, {-1, -2}, {-1, -1}, {-1, 0}, {-1, 1}, {-1, 2},
                             {-1, 3}, {-2, -2}, {-2, -1}, {-2, 0},  {-2, 1}, {-2, 2}, {-3, -1},
                             {-3, 0}, {-3, 1}};
    return axis < 2 ? v[i][axis] : 0;
  }
  // Weights by shell |c|^2 (identical in the three public listings).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr double w(int i) {
    constexpr double shell[11] = {0.23315066913235250228650,  // 0: (0,0)
                                  0.10730609154221900241246,  // 1: (1,0)
                                  0.05766785988879488203006,  // 2: (1,1)
                                  0,
                                  0.01420821615845075026469,  // 4: (2,0)
                                  0.00535304900051377523273,  // 5: (2,1)
                                  0,
                                  0,
                                  0.00101193759267357547541,   // 8: (2,2)
                                  0.00024530102775771734547,   // 9: (3,0)
                                  0.00028341425299419821740};  // 10: (3,1)
    return shell[c(i, 0) * c(i, 0) + c(i, 1) * c(i, 1)];
  }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int opposite(int i) { return q - 1 - i; }
  // Isothermal sound speed squared at T0 in lattice units: theta0 = 1 / r^2.
  KOKKOS_INLINE_FUNCTION static constexpr double cs2() { return 1.0 / (unit() * unit()); }
};

static_assert(impl::weights_sum_to_one<D2Q37>(), "D2Q37 weights");
static_assert(impl::opposites_consistent<D2Q37>(), "D2Q37 opposites");
static_assert(impl::first_moment_vanishes<D2Q37>(), "D2Q37 first moment");

}  // namespace kolb
