#pragma once
// PeakFlops: the FP64 arithmetic peak of an execution space, measured the
// way the hardware reaches it: independent fused multiply-add chains per
// work item, no memory traffic, 2 flops per FMA. Filling two FMA pipes of
// latency 4 takes 8 vector chains: 32 doubles with AVX2, 64 with AVX-512;
// more spills registers on some ISAs, so 32, 64 and 128 chains are tried and
// the best kept. "% of peak" of compute-bound kernels (D2Q37's collision) is
// taken against this. On x86 hosts the chains are written with the widest
// FMA intrinsics the target has: clang's loop vectoriser keeps to 256-bit
// vectors on AVX-512 targets (its default vector width preference): half
// the peak.

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

namespace impl {
// What one peak chain is kept in: the widest FMA register on x86 hosts, a
// double elsewhere (devices; other hosts vectorise the chains' loop).
#if defined(KOLB_PEAK_X86_VECTORS)
struct PeakLane {
#if defined(__AVX512F__)
  using type = __m512d;
  static type splat(double x) { return _mm512_set1_pd(x); }
  static type fma(type a, type b, type c) { return _mm512_fmadd_pd(a, b, c); }
#else
  using type = __m256d;
  static type splat(double x) { return _mm256_set1_pd(x); }
  static type fma(type a, type b, type c) { return _mm256_fmadd_pd(a, b, c); }
#endif
  static constexpr int width = int(sizeof(type) / sizeof(double));
  static double sum(type a) {
    double lanes[width], s = 0;
    std::memcpy(lanes, &a, sizeof lanes);
    for (double x : lanes) s += x;
    return s;
  }
};
#else
struct PeakLane {
  using type = double;
  static constexpr int width = 1;
  KOKKOS_INLINE_FUNCTION static double splat(double x) { return x; }
  KOKKOS_INLINE_FUNCTION static double fma(double a, double b, double c) { return ::fma(a, b, c); }
  KOKKOS_INLINE_FUNCTION static double sum(double a) { return a; }
};
#endif
}  // namespace impl

template <class ExecSpace, int Chains = 64>
struct PeakFlops {
  static constexpr int chains = Chains;
  static constexpr int rounds = 131072 / Chains;
  Kokkos::View<double*, typename ExecSpace::memory_space> m_out;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const {
    using Lane = impl::PeakLane;
    constexpr int lanes = chains / Lane::width;
    typename Lane::type a[lanes];
    for (int k = 0; k < lanes; ++k) a[k] = Lane::splat(1.0 + 1e-9 * double(k + i));
    const auto b = Lane::splat(0.999999999), c = Lane::splat(1e-9);
    for (int r = 0; r < rounds; ++r) {
      KOLB_SIMD
      for (int k = 0; k < lanes; ++k) a[k] = Lane::fma(a[k], b, c);
    }
    double s = 0;
    for (int k = 0; k < lanes; ++k) s += Lane::sum(a[k]);
    m_out(i) = s;  // keeps the chains alive
  }

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
