#pragma once
// D2Q9: 2-D isothermal lattice, nearest and diagonal neighbours, cs^2 = 1/3.

#include <kolb/lattice/lattice_checks.hpp>

namespace kolb {

struct D2Q9 {
  static constexpr int dim = 2;
  static constexpr int q = 9;
  static constexpr int halo = 1;  // farthest reach of a velocity
  static constexpr const char* name = "D2Q9";

  // Order: rest, axis (+x, +y, -x, -y), diagonals.
  // Force-inlined like D2Q37's: out of line, gcc builds the table on the stack
  // at every call (a literal i folds it away).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int c(int i, int axis) {
    constexpr int v[q][3] = {{0, 0, 0}, {1, 0, 0},  {0, 1, 0},   {-1, 0, 0}, {0, -1, 0},
                             {1, 1, 0}, {-1, 1, 0}, {-1, -1, 0}, {1, -1, 0}};
    return v[i][axis];
  }
  KOKKOS_INLINE_FUNCTION static constexpr double w(int i) {
    return i == 0 ? 4.0 / 9.0 : (i < 5 ? 1.0 / 9.0 : 1.0 / 36.0);
  }
  KOKKOS_INLINE_FUNCTION static constexpr int opposite(int i) {
    constexpr int o[q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
    return o[i];
  }
  KOKKOS_INLINE_FUNCTION static constexpr double cs2() { return 1.0 / 3.0; }
  // Velocities are in lattice units (D2Q37 scales them, xi = unit() c).
  KOKKOS_INLINE_FUNCTION static constexpr double unit() { return 1.0; }
};

static_assert(impl::weights_sum_to_one<D2Q9>(), "D2Q9 weights");
static_assert(impl::opposites_consistent<D2Q9>(), "D2Q9 opposites");
static_assert(impl::first_moment_vanishes<D2Q9>(), "D2Q9 first moment");

}  // namespace kolb
