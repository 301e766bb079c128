#pragma once
// Compile-time sanity checks every lattice descriptor must pass.
// (Isotropy through 4th order is checked numerically in tests/lattice.)

#include <kolb/core/macros.hpp>

namespace kolb::impl {

template <class Lattice>
constexpr bool weights_sum_to_one() {
  double s = 0.0;
  for (int i = 0; i < Lattice::q; ++i) s += Lattice::w(i);
  return s > 1.0 - 1e-14 && s < 1.0 + 1e-14;
}

template <class Lattice>
constexpr bool opposites_consistent() {
  for (int i = 0; i < Lattice::q; ++i) {
    const int o = Lattice::opposite(i);
    if (Lattice::opposite(o) != i) return false;
    for (int a = 0; a < 3; ++a)
      if (Lattice::c(o, a) != -Lattice::c(i, a)) return false;
    if (Lattice::w(o) != Lattice::w(i)) return false;
  }
  return true;
}

template <class Lattice>
constexpr bool first_moment_vanishes() {
  for (int a = 0; a < 3; ++a) {
    double s = 0.0;
    for (int i = 0; i < Lattice::q; ++i) s += Lattice::w(i) * Lattice::c(i, a);
    if (s > 1e-15 || s < -1e-15) return false;
  }
  return true;
}

}  // namespace kolb::impl
