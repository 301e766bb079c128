#pragma once
// PeakFlops: the FP64 arithmetic peak of an execution space, measured the
// way the hardware reaches it: independent fused multiply-add chains per
// work item, no memory traffic, 2 flops per FMA. Filling two FMA pipes of
// latency 4 takes 8 vector chains: 32 doubles with AVX2, 64 with AVX-512;
// more spills registers on some ISAs, so 32, 64 and 128 chains are tried and
// the best kept. "% of peak" of compute-bound kernels (D2Q37's collision) is
// taken against this. On x86 hosts the chains are written with the widest
// FMA intrinsics the target has: clang's loop vectoriser keeps to 256-bit
// vectors on AVX-512 targets (its default vector width preference), which
// measured half of an H200 node's Xeon peak (docs/performance.md, "On the
// GPU machine's Xeon").

#include <kolb/kernels/policy.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    (defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__)))
#include <immintrin.h>
#define KOLB_PEAK_X86_VECTORS
#endif

namespace kolb {

template <class ExecSpace, int Chains = 64>
struct PeakFlops {
  static constexpr int chains = Chains;
  static constexpr int rounds = 131072 / Chains;
  Kokkos::View<double*, typename ExecSpace::memory_space> m_out;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const {
#if defined(KOLB_PEAK_X86_VECTORS)
    m_out(i) = x86_chains(i);
#else
    double a[chains];
    for (int k = 0; k < chains; ++k) a[k] = 1.0 + 1e-9 * double(k + i);
    const double b = 0.999999999, c = 1e-9;
    for (int r = 0; r < rounds; ++r) {
      KOLB_SIMD
      for (int k = 0; k < chains; ++k) a[k] = ::fma(a[k], b, c);
    }
    double s = 0;
    for (int k = 0; k < chains; ++k) s += a[k];
    m_out(i) = s;  // keeps the chains alive
#endif
  }

#if defined(KOLB_PEAK_X86_VECTORS)
  // The same chains as explicit vector FMAs of the target's widest width.
  static double x86_chains(index_t i) {
#if defined(__AVX512F__)
    using V = __m512d;
    constexpr int width = 8;
    const auto fmadd = [](V x, V y, V z) { return _mm512_fmadd_pd(x, y, z); };
    const auto splat = [](double x) { return _mm512_set1_pd(x); };
#else
    using V = __m256d;
    constexpr int width = 4;
    const auto fmadd = [](V x, V y, V z) { return _mm256_fmadd_pd(x, y, z); };
    const auto splat = [](double x) { return _mm256_set1_pd(x); };
#endif
    constexpr int vectors = chains / width;
    V a[vectors];
    for (int k = 0; k < vectors; ++k) a[k] = splat(1.0 + 1e-9 * double(k + i));
    const V b = splat(0.999999999), c = splat(1e-9);
    for (int r = 0; r < rounds; ++r)
      for (int k = 0; k < vectors; ++k) a[k] = fmadd(a[k], b, c);
    double lanes[width], s = 0;
    for (int k = 0; k < vectors; ++k) {
      std::memcpy(lanes, &a[k], sizeof lanes);
      for (double x : lanes) s += x;
    }
    return s;
  }
#endif

  // Best GFLOP/s over 32, 64 and 128 chains, `repeats` runs of `items` work items each.
  static double measure(const ExecSpace& exec, index_t items, int repeats) {
    return std::max({PeakFlops<ExecSpace, 32>::measure_chains(exec, items, repeats),
                     PeakFlops<ExecSpace, 64>::measure_chains(exec, items, repeats),
                     PeakFlops<ExecSpace, 128>::measure_chains(exec, items, repeats)});
  }

  static double measure_chains(const ExecSpace& exec, index_t items, int repeats) {
    Kokkos::View<double*, typename ExecSpace::memory_space> out("kolb::peak", items);
    const double best = best_time("kolb::PeakFlops", exec, items, PeakFlops{out}, repeats);
    return 2.0 * chains * rounds * double(items) / best * 1e-9;
  }
};

}  // namespace kolb
