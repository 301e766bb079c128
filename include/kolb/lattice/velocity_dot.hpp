#pragma once
// c_I . v for a moving population I of a lattice, with its literal velocity
// components: zeros cost nothing, +-1 is an add or a subtraction. The
// collisions and the forcing policies build their sums with it.

#include <kolb/core/macros.hpp>

namespace kolb {

namespace impl {
// s += c d for a velocity component c in {-1, 0, 1}.
template <int C, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void accumulate(Scalar& s, Scalar d) {
  if constexpr (C == 1) {
    s += d;
  } else if constexpr (C == -1) {
    s -= d;
  } else {
    static_assert(C == 0, "velocity components beyond +-1");
  }
}
}  // namespace impl

template <class Lattice, int I, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar velocity_dot(const Scalar (&v)[3]) {
  constexpr int c0 = Lattice::c(I, 0), c1 = Lattice::c(I, 1), c2 = Lattice::c(I, 2);
  if constexpr (c0 != 0) {
    Scalar s = c0 > 0 ? v[0] : -v[0];
    impl::accumulate<c1>(s, v[1]);
    impl::accumulate<c2>(s, v[2]);
    return s;
  } else if constexpr (c1 != 0) {
    Scalar s = c1 > 0 ? v[1] : -v[1];
    impl::accumulate<c2>(s, v[2]);
    return s;
  } else {
    static_assert(c2 != 0, "velocity_dot of the rest population");
    return c2 > 0 ? v[2] : -v[2];
  }
}

}  // namespace kolb
