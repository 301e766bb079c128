// How far compute between the loads and stores of 19 in-place streams
// (the D3Q19 in-place rows' memory pattern, prefetched 8 lines ahead)
// lowers the bandwidth: C rounds of 19 independent FMAs a line of sites.
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <type_traits>

constexpr int Q = 19, L = 16;  // FP32: 16 values a 64-byte line

// Sites [i, i + L) of every stream in place: load, C rounds of FMAs, store.
template <int C>
__attribute__((always_inline)) inline void update_line(float* a, long stride, long i, float s,
                                                       float b) {
  float v[Q][L];
  for (int k = 0; k < Q; ++k)
#pragma omp simd
    for (int j = 0; j < L; ++j) v[k][j] = a[k * stride + i + j];
#pragma GCC unroll 16
  for (int c = 0; c < C; ++c)
#pragma GCC unroll 19
    for (int k = 0; k < Q; ++k)
#pragma omp simd
      for (int j = 0; j < L; ++j) v[k][j] = v[k][j] * s + b;
  for (int k = 0; k < Q; ++k)
#pragma omp simd
    for (int j = 0; j < L; ++j) a[k * stride + i + j] = v[k][j];
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? atol(argv[1]) : 162L * 162 * 162;  // sites per stream
  const int reps = 5;
  // Streams spread over a 4 KiB page's 64 line slots (as kolb's stride does).
  const long stride = ((n + 1023) / 1024) * 1024 + 3 * 16;
  float* a = static_cast<float*>(aligned_alloc(4096, sizeof(float) * stride * Q + 4096));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < stride * Q; ++i) a[i] = 1.0f;
  const float s = 1.0f, b = 0.0f;
  const int rows = argc > 2 ? atoi(argv[2]) : 0;  // kolb's rows at 160^3 (n must cover 176*162*162)
  auto run = [&](auto Cc) {
    constexpr int C = decltype(Cc)::value;
    double best = 0;
    for (int r = 0; r < reps; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      const long sweeps = rows ? 1 : std::max(1L, 200000000L / (n * Q));
#pragma omp parallel
      for (long sw = 0; sw < sweeps; ++sw) {
        const int T = omp_get_num_threads(), t = omp_get_thread_num();
        if (rows) {
          const long nrows = 160L * 160, r0 = nrows * t / T, r1 = nrows * (t + 1) / T;
          for (long row = r0; row < r1; ++row) {
            const long sx = rows == 4 ? 162 : 176, lead = rows == 4 ? 1 : 16;
            const long base = sx * (1 + row % 160) + sx * 162 * (1 + row / 160) + lead;
            for (long i = base; i + L <= base + 160; i += L) {
              long pf = i + 8 * L;
              if (rows == 2 && pf >= base + 160) {  // the next row's site, skipping the gap
                const long nb = 176L * (1 + (row + 1) % 160) + 176L * 162 * (1 + (row + 1) / 160) + 16;
                pf = nb + (pf - base - 160);
              }
              if (rows == 3 && pf >= base + 160) pf = -1;  // no prefetch past the row
              if (pf >= 0)
                for (int k = 0; k < Q; ++k) __builtin_prefetch(a + k * stride + pf, 0, 3);
              update_line<C>(a, stride, i, s, b);
            }
          }
          continue;
        }
        const long lines = n / L, lo = lines * t / T * L, hi = lines * (t + 1) / T * L;
        for (long i = lo; i < hi; i += L) {
          for (int k = 0; k < Q; ++k) __builtin_prefetch(a + k * stride + i + 8 * L, 0, 3);
          update_line<C>(a, stride, i, s, b);
        }
      }
      const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double moved = rows ? 160.0 * 160 * 160 : double(n);
      best = std::max(best, 2.0 * Q * moved * sizeof(float) * sweeps / sec * 1e-9);
    }
    // Sites a second at that rate, as kolb counts a D3Q19 FP32 update (152 B).
    printf("C=%2d  %6.1f GB/s  = %6.1f MLUPS-equivalent\n", C, best, best * 1e3 / 152);
  };
  run(std::integral_constant<int, 0>{}); run(std::integral_constant<int, 1>{});
  run(std::integral_constant<int, 2>{}); run(std::integral_constant<int, 4>{});
  run(std::integral_constant<int, 6>{}); run(std::integral_constant<int, 8>{});
  run(std::integral_constant<int, 12>{}); run(std::integral_constant<int, 16>{});
  printf("check %g\n", a[12345]);
}
