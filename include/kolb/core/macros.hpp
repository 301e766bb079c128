#pragma once
// Portability helpers shared by all kolb headers.

#include <Kokkos_Core.hpp>

namespace kolb {

// Index type for sites and population offsets: lattices beyond 2^31 values
// (e.g. 512^3 D3Q19) must not overflow.
using index_t = std::int64_t;

namespace math {
// Kokkos moved its math functions from Experimental to the top level in 3.7.
#if KOKKOS_VERSION >= 30700
using Kokkos::fabs;
using Kokkos::exp;
using Kokkos::sqrt;
#else
using Kokkos::Experimental::fabs;
using Kokkos::Experimental::exp;
using Kokkos::Experimental::sqrt;
#endif
}  // namespace math

}  // namespace kolb
