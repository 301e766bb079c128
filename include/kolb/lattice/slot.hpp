#pragma once
// Where a block stores population i: in its own slot i, or, in place
// between the AA scheme's step pairs (opposites swapped), in slot
// opposite(i).

#include <kolb/core/macros.hpp>

namespace kolb {

template <class Lattice>
KOKKOS_FORCEINLINE_FUNCTION constexpr int stored_slot(int i, bool swapped) {
  return swapped ? Lattice::opposite(i) : i;
}

}  // namespace kolb
