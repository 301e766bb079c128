#pragma once
// Portability helpers shared by all kolb headers.

#include <Kokkos_Core.hpp>

// CUDA and HIP spell their stream and event calls alike: cudaX / hipX.
#if defined(KOKKOS_ENABLE_CUDA)
#define KOLB_GPU(name) cuda##name
#elif defined(KOKKOS_ENABLE_HIP)
#define KOLB_GPU(name) hip##name
#endif

// KOLB_UNROLL: fully unroll a loop over populations (constant trip count Q),
// so that a loop over sites around it can be vectorised. The GCC pragmas
// also serve nvcc's host pass: cudafe passes them on to the host compiler
// (it warns, #1675, which the build suppresses), and without them CUDA
// builds' host parts ran unvectorised (docs/heterogeneous.md).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__clang__)
#define KOLB_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define KOLB_UNROLL _Pragma("GCC unroll 64")
#else
#define KOLB_UNROLL
#endif

// KOLB_SIMD: the iterations of the following loop over sites are independent.
// Host code only: a device pass has no such loops to vectorise (hipcc warned
// "loop not vectorized" for a functor that also runs on the GPU).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KOLB_SIMD
#elif defined(__clang__)
#define KOLB_SIMD _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && !defined(__CUDA_ARCH__)
#define KOLB_SIMD _Pragma("GCC ivdep")
#else
#define KOLB_SIMD
#endif

// KOLB_NO_VECTORIZE: a function compiled without loop vectorisation (GCC; a
// no-op elsewhere), for code that runs a handful of iterations at a time.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
#define KOLB_NO_VECTORIZE __attribute__((optimize("no-tree-loop-vectorize")))
#else
#define KOLB_NO_VECTORIZE
#endif

// KOLB_NOINLINE: one out-of-line copy shared by every caller (host code).
#if defined(__GNUC__) || defined(__clang__)
#define KOLB_NOINLINE __attribute__((noinline))
#else
#define KOLB_NOINLINE
#endif

// KOLB_EXEC_CHECK_DISABLE: before a host-device function template that calls
// a callable it is given (a dispatcher), so that nvcc does not warn (#20013,
// #20015) when host code instantiates it with a host-only lambda. Device
// code still cannot call a host function through it.
#if defined(__CUDACC__) && !defined(__clang__)
#define KOLB_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define KOLB_EXEC_CHECK_DISABLE
#endif

// KOLB_HOST_INLINE: always inlined, host code only (a kernel's host-only
// path: KOKKOS_FORCEINLINE_FUNCTION would also declare it for the device).
#if defined(__GNUC__) || defined(__clang__)
#define KOLB_HOST_INLINE inline __attribute__((always_inline))
#else
#define KOLB_HOST_INLINE inline
#endif

namespace kolb {

// Index type for sites and population offsets: lattices beyond 2^31 values
// (e.g. 512^3 D3Q19) must not overflow.
using index_t = std::int64_t;

namespace math {
// Kokkos moved its math functions from Experimental to the top level in 3.7.
#if KOKKOS_VERSION >= 30700
using Kokkos::sqrt;
#else
using Kokkos::Experimental::sqrt;
#endif

// fma(a, b, c) = a b + c rounded once. Explicit, so it survives the build's
// -ffp-contract=off (KOLB_IEEE_ORDER) and gives the same bits wherever it
// runs: every GPU, and CPUs with FMA units (__FMA__, e.g. -march=native on
// x86-64-v3 and later). In GPU builds the host side must give the GPU's bits
// (the heterogeneous node mixes them), so it rounds once even without FMA
// units (a libm call: slow; device builds compile the host side for
// KOLB_HOST_ARCH, x86-64-v3 by default, which has them). Elsewhere, in
// CPU-only builds without FMA units, the plain a b + c (every space of the
// build then rounds alike, and a libm call would be far slower).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T fma(T a, T b, T c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fma(a, b, c);
#elif defined(__FMA__) || defined(__aarch64__) || defined(KOKKOS_ENABLE_CUDA) || \
    defined(KOKKOS_ENABLE_HIP)
  if constexpr (sizeof(T) == 4)
    return __builtin_fmaf(a, b, c);
  else
    return __builtin_fma(a, b, c);
#else
  return a * b + c;
#endif
}
}  // namespace math

}  // namespace kolb
