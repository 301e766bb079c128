// Q-stream copy variants on this machine: plain vs NT stores, aligned vs shifted reads.
#include <initializer_list>
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <omp.h>
using clk = std::chrono::steady_clock;
static double* alloc(size_t n) {
  void* p = aligned_alloc(2 << 20, ((n * 8 + (2 << 20) - 1) / (2 << 20)) * (2 << 20));
  madvise(p, n * 8, MADV_HUGEPAGE);
  memset(p, 0, n * 8);
  return (double*)p;
}
template <int Q, bool NT, int Pf>
double run(double* a, double* b, long n, long stride, long shift, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = clk::now();
#pragma omp parallel for schedule(static)
    for (long i = 64; i < n - 64; i += 8) {
      if (Pf)
        for (int k = 0; k < Q; ++k) _mm_prefetch((const char*)(a + k * stride + i + 256 - (k % 3 - 1) * shift), (Pf==1? _MM_HINT_T0 : Pf==2 ? _MM_HINT_NTA : _MM_HINT_T2));
      for (int k = 0; k < Q; ++k) {
        const double* s = a + k * stride + i - (k % 3 - 1) * shift;
        __m512d v = _mm512_loadu_pd(s);
        if (NT) _mm512_stream_pd(b + k * stride + i, v); else _mm512_store_pd(b + k * stride + i, v);
      }
    }
    if (NT) _mm_sfence();
    double t = std::chrono::duration<double>(clk::now() - t0).count();
    if (t < best) best = t;
  }
  return 2.0 * 8 * Q * (n - 128) / best / 1e9;
}
int main(int argc, char** argv) {
  const long n = 4 << 20;  // per stream
  const long stride = n + 8 * 64 / 8 * 7;  // spread
  double* a = alloc(19 * stride + 1024);
  double* b = alloc(19 * stride + 1024);
  for (long shift : {1L, 2048L}) {
    printf("shift %ld: 9 streams NT %.1f t0 %.1f nta %.1f t2 %.1f | 19 streams NT %.1f t0 %.1f nta %.1f t2 %.1f\n", shift,
           run<9, true, 0>(a, b, n, stride, shift, 5), run<9, true, 1>(a, b, n, stride, shift, 5),
           run<9, true, 2>(a, b, n, stride, shift, 5), run<9, true, 3>(a, b, n, stride, shift, 5),
           run<19, true, 0>(a, b, n, stride, shift, 5), run<19, true, 1>(a, b, n, stride, shift, 5),
           run<19, true, 2>(a, b, n, stride, shift, 5), run<19, true, 3>(a, b, n, stride, shift, 5));
  }
}
