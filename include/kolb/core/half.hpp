#pragma once
// IEEE binary16 ("half") conversions on raw 16-bit patterns, rounding to
// nearest even, subnormals and infinities included. The same bits on every
// device: CUDA's conversion instructions on NVIDIA GPUs, integer and float
// operations elsewhere (the C++17 host compilers have no half type gcc 12
// vectorises; these are plain selects, which it does).

#include <kolb/core/macros.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_fp16.h>
#endif

namespace kolb {

namespace impl {
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t bits_of(float f) {
  std::uint32_t u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
}
KOKKOS_FORCEINLINE_FUNCTION float float_of(std::uint32_t u) {
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace impl

// The half nearest to f (ties to even); beyond +-65504 rounds to infinity.
KOKKOS_FORCEINLINE_FUNCTION std::uint16_t half_from_float(float f) {
#if defined(__CUDA_ARCH__)
  return __half_as_ushort(__float2half_rn(f));
#else
  std::uint32_t x = impl::bits_of(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  std::uint32_t h;
  if (x >= 0x47800000u) {  // |f| >= 2^16, infinity or NaN (a quiet NaN stays a NaN)
    h = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  } else if (x < 0x38800000u) {  // |f| < 2^-14: a subnormal half or zero
    // Adding 0.5 leaves the float's ulp at 2^-24, the subnormal half's: the
    // float addition rounds to nearest even, the low mantissa bits are the half.
    h = impl::bits_of(impl::float_of(x) + 0.5f) - 0x3f000000u;
  } else {  // normal: rebias the exponent (127 -> 15), drop 13 bits, ties to even;
            // a carry out of the mantissa raises the exponent (to infinity above 65504)
    h = (x + 0xc8000fffu + ((x >> 13) & 1u)) >> 13;
  }
  return std::uint16_t(h | sign);
#endif
}

// The float value of half h (exact).
KOKKOS_FORCEINLINE_FUNCTION float float_from_half(std::uint16_t h) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(h));
#elif defined(__HIP_DEVICE_COMPILE__)  // float subnormals may be flushed there: no scaling
  std::uint32_t o = std::uint32_t(h & 0x7fffu) << 13;
  const std::uint32_t exponent = o & 0x0f800000u;
  o += 0x38000000u;               // rebias the exponent (15 -> 127)
  if (exponent == 0x0f800000u) {  // infinity or NaN
    o += 0x38000000u;
  } else if (exponent == 0) {  // zero or subnormal: 1.m * 2^-14 - 2^-14 = 0.m * 2^-14
    o = impl::bits_of(impl::float_of(o + 0x00800000u) - impl::float_of(0x38800000u));
  }
  return impl::float_of(o | (std::uint32_t(h & 0x8000u) << 16));
#else
  // The half's exponent and mantissa at the float's places read as a float
  // 2^-112 times the half's value (subnormals included); one exact product
  // rebiases it. Host code: a handful of vector instructions per lane.
  const std::uint32_t magnitude = std::uint32_t(h & 0x7fffu) << 13;
  std::uint32_t o = impl::bits_of(impl::float_of(magnitude) * 0x1p112f);
  if ((h & 0x7c00u) == 0x7c00u) o = magnitude | 0x7f800000u;  // infinity or NaN
  return impl::float_of(o | (std::uint32_t(h & 0x8000u) << 16));
#endif
}

}  // namespace kolb
