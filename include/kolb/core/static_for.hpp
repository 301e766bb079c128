#pragma once
// static_for<N>(f): calls f(std::integral_constant<int, i>{}) for i = 0..N-1,
// so that per-population coefficients can be `constexpr` locals. Long
// unrolled loops (D2Q37: 37 populations x 15 Hermite terms) are beyond what
// compilers constant-fold through #pragma unroll; this way every lattice
// constant is a literal and exact zeros are skipped with `if constexpr`.

#include <kolb/core/macros.hpp>

#include <type_traits>
#include <utility>

// Lambdas passed to static_for in hot kernels carry KOLB_INLINE_LAMBDA:
// without it gcc stops inlining them once the kernel body is large, and the
// loop over sites around them no longer vectorises.
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KOLB_INLINE_LAMBDA __attribute__((always_inline))
#else
#define KOLB_INLINE_LAMBDA
#endif

namespace kolb {

namespace impl {
template <class F, int... I>
KOKKOS_FORCEINLINE_FUNCTION void static_for(F& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
}  // namespace impl

template <int N, class F>
KOKKOS_FORCEINLINE_FUNCTION void static_for(F&& f) {
  impl::static_for(f, std::make_integer_sequence<int, N>{});
}

}  // namespace kolb
