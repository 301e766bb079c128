#pragma once
// D3Q27: 3-D isothermal lattice, 6 axis, 12 face-diagonal and 8 corner
// neighbours, cs^2 = 1/3: the tensor product of three D1Q3. Its moments
// through fourth order are isotropic like D3Q19's, and every mixed moment
// factorises (x^2 y^2 z^2 = cs^6, sixth order), which D3Q19's lack: the
// lattice of cumulant collisions and of flows at higher Reynolds numbers.

#include <kolb/lattice/lattice_checks.hpp>

namespace kolb {

struct D3Q27 {
  static constexpr int dim = 3;
  static constexpr int q = 27;
  static constexpr int halo = 1;
  static constexpr const char* name = "D3Q27";

  // Order: rest, 6 axis directions, 12 face diagonals, 8 corners; opposite
  // pairs adjacent. Force-inlined: a literal i folds the table away.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int c(int i, int axis) {
    constexpr int v[q][3] = {
        {0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0}, {0, 0, 1},   {0, 0, -1},
        {1, 1, 0},  {-1, -1, 0}, {1, -1, 0},  {-1, 1, 0},  {1, 0, 1},  {-1, 0, -1}, {1, 0, -1},
        {-1, 0, 1}, {0, 1, 1},   {0, -1, -1}, {0, 1, -1},  {0, -1, 1}, {1, 1, 1},   {-1, -1, -1},
        {1, 1, -1}, {-1, -1, 1}, {1, -1, 1},  {-1, 1, -1}, {-1, 1, 1}, {1, -1, -1}};
    return v[i][axis];
  }
  KOKKOS_INLINE_FUNCTION static constexpr double w(int i) {
    return i == 0 ? 8.0 / 27.0 : i < 7 ? 2.0 / 27.0 : i < 19 ? 1.0 / 54.0 : 1.0 / 216.0;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int opposite(int i) {
    return i == 0 ? 0 : (i % 2 == 1 ? i + 1 : i - 1);
  }
  KOKKOS_INLINE_FUNCTION static constexpr double cs2() { return 1.0 / 3.0; }
  KOKKOS_INLINE_FUNCTION static constexpr double unit() { return 1.0; }
};

static_assert(impl::weights_sum_to_one<D3Q27>(), "D3Q27 weights");
static_assert(impl::opposites_consistent<D3Q27>(), "D3Q27 opposites");
static_assert(impl::first_moment_vanishes<D3Q27>(), "D3Q27 first moment");

}  // namespace kolb
