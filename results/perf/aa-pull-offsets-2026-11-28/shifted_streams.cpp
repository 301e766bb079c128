// 19 in-place update streams over SoA arrays (D3Q19 at 160^3 with halos, FP64 or FP32):
// every array at site s (the probe, AA local) or array j at s + off_j (the AA pull's
// shifted rows and planes, x +-1 off the line). Prints GB/s of the interior's bytes.
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
static const int C[19][3]={{0,0,0},{1,0,0},{-1,0,0},{0,1,0},{0,-1,0},{0,0,1},{0,0,-1},{1,1,0},{-1,-1,0},{1,-1,0},{-1,1,0},{1,0,1},{-1,0,-1},{1,0,-1},{-1,0,1},{0,1,1},{0,-1,-1},{0,1,-1},{0,-1,1}};
template <class T> double run(int n, int mode, int reps) {
  const long ex = n + 2, row = ex, plane = ex * ex, sites = ex * ex * ex;
  const long g = 64 / sizeof(T), gr = (sites + g - 1) / g, slots = 4096 / 64, step = slots / 19;
  const long pad = ((step - gr) % slots + slots) % slots, stride = (gr + pad) * g;
  T* a = (T*)aligned_alloc(4096, ((19 * stride * sizeof(T)) + 4095) / 4096 * 4096);
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < 19 * stride; ++i) a[i] = T(1);
  long off[19];
  for (int j = 0; j < 19; ++j) off[j] = mode ? C[j][0] + C[j][1] * row + C[j][2] * plane : 0;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    #pragma omp parallel for schedule(static)
    for (long zy = 0; zy < long(n) * n; ++zy) {
      const long z = 1 + zy / n, y = 1 + zy % n, base = z * plane + y * row + 1;
      T* p[19];
      for (int j = 0; j < 19; ++j) p[j] = a + j * stride + base + off[j];
      #pragma omp simd
      for (long x = 0; x < n; ++x) {
        T v[19];
        _Pragma("GCC unroll 19") for (int j = 0; j < 19; ++j) v[j] = p[j][x];
        _Pragma("GCC unroll 19") for (int j = 0; j < 19; ++j) p[j][x] = T(0.999) * v[j] + T(0.001) * v[18 - j];
      }
    }
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  free(a);
  return 2.0 * 19 * sizeof(T) * double(n) * n * n / best / 1e9;
}
int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 160;
  for (int round = 0; round < 3; ++round) {
    printf("n=%d FP64 same %.1f shifted %.1f | FP32 same %.1f shifted %.1f GB/s\n", n, run<double>(n, 0, 5),
           run<double>(n, 1, 5), run<float>(n, 0, 5), run<float>(n, 1, 5));
    fflush(stdout);
  }
}
