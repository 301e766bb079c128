#pragma once
// D3Q19: 3-D isothermal lattice, 6 axis and 12 face-diagonal neighbours, cs^2 = 1/3.

#include <kolb/lattice/lattice_checks.hpp>

namespace kolb {

struct D3Q19 {
  static constexpr int dim = 3;
  static constexpr int q = 19;
  static constexpr int halo = 1;
  static constexpr const char* name = "D3Q19";

  // Order: rest, 6 axis directions, 12 face diagonals; opposite pairs adjacent.
  // Force-inlined like D2Q37's: out of line, gcc builds the table on the stack
  // at every call (a literal i folds it away).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int c(int i, int axis) {
    constexpr int v[q][3] = {{0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0},
                             {0, 0, 1},  {0, 0, -1},  {1, 1, 0},   {-1, -1, 0}, {1, -1, 0},
                             {-1, 1, 0}, {1, 0, 1},   {-1, 0, -1}, {1, 0, -1},  {-1, 0, 1},
                             {0, 1, 1},  {0, -1, -1}, {0, 1, -1},  {0, -1, 1}};
    return v[i][axis];
  }
  KOKKOS_INLINE_FUNCTION static constexpr double w(int i) {
    return i == 0 ? 1.0 / 3.0 : (i < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
  }
  KOKKOS_INLINE_FUNCTION static constexpr int opposite(int i) {
    return i == 0 ? 0 : (i % 2 == 1 ? i + 1 : i - 1);
  }
  KOKKOS_INLINE_FUNCTION static constexpr double cs2() { return 1.0 / 3.0; }
  // Velocities are in lattice units (D2Q37 scales them, xi = unit() c).
  KOKKOS_INLINE_FUNCTION static constexpr double unit() { return 1.0; }
};

static_assert(impl::weights_sum_to_one<D3Q19>(), "D3Q19 weights");
static_assert(impl::opposites_consistent<D3Q19>(), "D3Q19 opposites");
static_assert(impl::first_moment_vanishes<D3Q19>(), "D3Q19 first moment");

}  // namespace kolb
