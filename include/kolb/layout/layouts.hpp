#pragma once
// The population layouts and the names the build instantiates them under
// (CMake's KOLB_LAYOUTS list names these aliases).

#include <kolb/layout/aos.hpp>
#include <kolb/layout/soa.hpp>

namespace kolb {

using CSoA8 = CSoA<8>;
using CSoA16 = CSoA<16>;
using CAoSoA8 = CAoSoA<8>;
using CAoSoA16 = CAoSoA<16>;

}  // namespace kolb
