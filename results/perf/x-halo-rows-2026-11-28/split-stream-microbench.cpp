// in-place update of 19 streams, each at offset o_j (D3Q19 c_j with row R, plane P)
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <omp.h>
static const int C[19][3] = {{0,0,0},{1,0,0},{-1,0,0},{0,1,0},{0,-1,0},{0,0,1},{0,0,-1},{1,1,0},{-1,-1,0},{1,-1,0},{-1,1,0},{1,0,1},{-1,0,-1},{1,0,-1},{-1,0,1},{0,1,1},{0,-1,-1},{0,1,-1},{0,-1,1}};
template <int MODE, int PF = 0>
__attribute__((noinline)) void sweep(double* base, long stride, const long* off, long n, double s) {
  // MODE 0: unaligned loads/stores at i+off_j ; MODE 1: all aligned (off=0)
  double* p[19];
  for (int j = 0; j < 19; ++j) p[j] = base + j * stride + (MODE == 1 ? 0 : off[j]);
  __m512d vs = _mm512_set1_pd(s);
  for (long i = 0; i < n; i += 8) {
    __m512d v[19];
    if (PF) {
#pragma GCC unroll 19
      for (int j = 0; j < 19; ++j) __builtin_prefetch(p[j] + i + PF * 8, 1, 3);
    }
#pragma GCC unroll 19
    for (int j = 0; j < 19; ++j) v[j] = _mm512_loadu_pd(p[j] + i);
#pragma GCC unroll 19
    for (int j = 0; j < 19; ++j) _mm512_storeu_pd(p[j] + i, _mm512_mul_pd(vs, v[j]));
  }
}
// MODE 2: x-shifted via valign with carried registers, y/z shifts must keep alignment
__attribute__((noinline)) void sweep_align(double* base, long stride, const long* off, long n, double s) {
  double* p[19]; int cx[19];
  for (int j = 0; j < 19; ++j) { cx[j] = C[j][0]; p[j] = base + j * stride + off[j] - cx[j]; } // aligned part
  __m512d vs = _mm512_set1_pd(s);
  __m512d nextL[19], prevW[19];
  for (int j = 0; j < 19; ++j) { nextL[j] = _mm512_load_pd(p[j]); prevW[j] = _mm512_setzero_pd(); }
  for (long i = 0; i < n; i += 8) {
    __m512d v[19];
#pragma GCC unroll 19
    for (int j = 0; j < 19; ++j) {
      if (C[j][0] == 0) v[j] = _mm512_load_pd(p[j] + i);
      else {
        __m512d L = nextL[j];
        __m512d N = _mm512_load_pd(p[j] + i + 8);
        if (C[j][0] == 1) { v[j] = (__m512d)_mm512_alignr_epi64((__m512i)N, (__m512i)L, 1); nextL[j] = N; }
        else { // cx=-1: want [i-1 .. i+6] = {prevline[7], L[0..6]}
          v[j] = (__m512d)_mm512_alignr_epi64((__m512i)N, (__m512i)L, 7); nextL[j] = N; }
      }
    }
#pragma GCC unroll 19
    for (int j = 0; j < 19; ++j) {
      __m512d w = _mm512_mul_pd(vs, v[j]);
      if (C[j][0] == 0) _mm512_store_pd(p[j] + i, w);
      else if (C[j][0] == 1) { _mm512_store_pd(p[j] + i, (__m512d)_mm512_alignr_epi64((__m512i)w, (__m512i)prevW[j], 7)); prevW[j] = w; }
      else { _mm512_store_pd(p[j] + i, (__m512d)_mm512_alignr_epi64((__m512i)w, (__m512i)prevW[j], 1)); prevW[j] = w; }
    }
  }
}
int main(int argc, char** argv) {
  long n = atol(argv[1]); long R = atol(argv[2]); int mode = atoi(argv[3]); int reps = atoi(argv[4]);
  long P = R * 162, stride = ((n + 2 * P + 64) / 512 + 1) * 512 + 8 * 7;  // spread
  double* a = (double*)aligned_alloc(64, sizeof(double) * (19 * stride + 64));
  for (long k = 0; k < 19 * stride + 64; ++k) a[k] = 1.0;
  long off[19];
  for (int j = 0; j < 19; ++j) off[j] = P + C[j][0] + C[j][1] * R + C[j][2] * P + 8;
  double* base = a;
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
#pragma omp parallel
  {
    int nt = omp_get_num_threads(), t = omp_get_thread_num();
    long n0 = n / nt / 8 * 8; long n = n0; double* base = a + t * n0;
    if (mode == 0) sweep<0>(base, stride, off, n, 1.0);
    else if (mode == 1) sweep<1>(base, stride, off, n, 1.0);
    else if (mode == 3) sweep<0, 4>(base, stride, off, n, 1.0);
    else if (mode == 4) sweep<0, 8>(base, stride, off, n, 1.0);
    else if (mode == 5) sweep<0, 16>(base, stride, off, n, 1.0);
    else if (mode == 6) sweep<1, 4>(base, stride, off, n, 1.0);
    else sweep_align(base, stride, off, n, 1.0);
  }
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double bytes = 2.0 * 19 * 8 * n * reps;
  printf("n %ld R %ld mode %d: %.1f Msites/s  %.1f GB/s  %.2f ns/8sites\n", n, R, mode, n * reps / t / 1e6, bytes / t / 1e9, t / (n * reps / 8.0) * 1e9);
}
