#pragma once
// Host helpers for kernels that move whole cache lines: software prefetch
// and non-temporal line stores. A non-temporal store writes a 64-byte line
// without reading it first (no write-allocate): a two-buffer update then
// moves 2 instead of 3 bytes per byte it writes. Callable from functors
// compiled for devices too, where they are a plain copy or nothing.

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__CUDA_ARCH__) && \
    !defined(__HIP_DEVICE_COMPILE__)
#define KOLB_X86_HOST 1
#include <immintrin.h>
#endif

namespace kolb::host {

constexpr int kLineBytes = 64;

/// Values of type T in a cache line.
template <class T>
constexpr int line_values = kLineBytes / int(sizeof(T));

// How many cache lines ahead of the one being read a host row asks for its
// sources: the two-buffer line path (StreamCollide::prefetch_sites) and the
// copy probes it is judged against (StreamSegments) use the same distance
// (D2Q37's kernel twice it: LineRowTuning in kernels/stream_collide.hpp;
// and the in-place rows: RowPrefetch in kernels/host_rows.hpp). Farther ahead,
// the fused D3Q19 rows ran slower.
constexpr int kPrefetchLines = 4;

KOKKOS_FORCEINLINE_FUNCTION bool line_aligned(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & (kLineBytes - 1)) == 0;
}

// Copies the 64-byte line at `src` to `dst` (both 64-byte aligned), bypassing
// the caches where the CPU can; stream_fence() orders these stores before
// anything another thread reads.
KOKKOS_FORCEINLINE_FUNCTION void stream_line(void* dst, const void* src) {
#if defined(KOLB_X86_HOST) && defined(__AVX512F__)
  _mm512_stream_si512(static_cast<__m512i*>(dst), _mm512_load_si512(src));
#elif defined(KOLB_X86_HOST) && defined(__AVX__)
  for (int k = 0; k < 2; ++k)
    _mm256_stream_si256(static_cast<__m256i*>(dst) + k,
                        _mm256_load_si256(static_cast<const __m256i*>(src) + k));
#elif defined(KOLB_X86_HOST)
  for (int k = 0; k < 4; ++k)
    _mm_stream_si128(static_cast<__m128i*>(dst) + k,
                     _mm_load_si128(static_cast<const __m128i*>(src) + k));
#else
  std::memcpy(dst, src, kLineBytes);
#endif
}

// Writes the line-sized run of T at `src` (any alignment) to `dst` (64-byte
// aligned) with lane `lane` replaced by `value`. With AVX-512 one vector
// store, so that a vector load of dst right after takes its data from the
// store (lane by lane stores stall such a load until they reach the cache).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void copy_line_with_lane(T* dst, const T* src, int lane, T value) {
#if defined(KOLB_X86_HOST) && defined(__AVX512F__)
  if constexpr (std::is_same<T, double>::value) {
    _mm512_store_pd(
        dst, _mm512_mask_mov_pd(_mm512_loadu_pd(src), __mmask8(1u << lane), _mm512_set1_pd(value)));
    return;
  } else if constexpr (std::is_same<T, float>::value) {
    _mm512_store_ps(dst, _mm512_mask_mov_ps(_mm512_loadu_ps(src), __mmask16(1u << lane),
                                            _mm512_set1_ps(value)));
    return;
  }
#endif
  for (int k = 0; k < line_values<T>; ++k) dst[k] = k == lane ? value : src[k];
}

// Asks for the line holding `p` ahead of a read (no-op in device code);
// Locality as __builtin_prefetch's (3: keep in every level, 0: non-temporal).
// Force-inlined: gcc dropped the prefetch of an inlined call in a kernel's
// unrolled population loop.
template <int Locality = 3>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_read(const void* p) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  __builtin_prefetch(p, 0, Locality);
#else
  (void)p;
#endif
}

// Asks for the line holding `p` ahead of a write (no-op in device code).
KOKKOS_FORCEINLINE_FUNCTION void prefetch_write(void* p) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  __builtin_prefetch(p, 1, 3);
#else
  (void)p;
#endif
}

// Bytes of the last-level cache of CPU 0 (sysfs; 32 MiB where unknown),
// at most `cap` (the share a kernel's streams keep of a large server L3);
// the environment variable KOLB_LLC_BYTES, e.g. 64M, overrides both:
// arrays not much larger are better written through the cache.
std::size_t last_level_cache_bytes(std::size_t cap = ~std::size_t(0));

KOKKOS_FORCEINLINE_FUNCTION void stream_fence() {
#if defined(KOLB_X86_HOST)
  _mm_sfence();
#endif
}

}  // namespace kolb::host
