// The page-slot experiment behind layout/population_stride.hpp: Q in-place
// streams (f_i[x] *= s, one vectorised loop over x, as a SoA collide), their
// arrays n + pad elements apart, i.e. s = pad / (elements per line) lines
// apart within a 4 KiB page; one thread. Built and run as
//   g++ -O3 -march=native -DSCALAR=float -DQQ=19 slots_micro.cpp -o m
//   ./m N REPS PAD     (slots_micro.log: N = 16384 and 4194304, s = 0..8)
#include <chrono>
#include <cstdio>
#include <vector>
#include <cstdlib>
using S = SCALAR;
constexpr int Q = QQ;
__attribute__((noinline)) void row(S om, S* __restrict f, long n, long stride) {
#pragma GCC ivdep
  for (long x = 0; x < n; ++x) {
#pragma GCC unroll 64
    for (int i = 0; i < Q; ++i) f[i * stride + x] *= om;
  }
}
int main(int argc, char** argv) {
  long n = atol(argv[1]); int reps = atoi(argv[2]); long pad = atol(argv[3]);
  long stride = n + pad;
  std::vector<S> f(Q * stride, S(1));
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) row(S(r & 1 ? 1.0001 : 0.9999), f.data(), n, stride);
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("scaleQ n=%ld pad=%ld: %.1f Msites/s\n", n, pad, double(n) * reps / t / 1e6);
}
