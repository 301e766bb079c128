#pragma once
// for_each_index: f(i) for i in [0, n) on an execution space instance.
// CUDA builds launch it themselves: a plain kernel, one thread per index,
// blocks of gpu_block_size() threads, on the instance's stream, the functor
// as a kernel argument. Kokkos 3.4's own CUDA launch differs in two ways
// that cost kolb time (docs/gpu-clusters.md, "Launches"):
//  - closures over 512 bytes (the stream-collide, AA and wall-ghost
//    functors) go through constant memory, and each such launch first waits
//    for the previous one's kernel to finish: the launching thread stalls,
//    so a node's host blocks start only once the GPU is idle again;
//  - blocks of up to 1024 threads, the most that fit an SM.
// Other backends, and functors too large for an argument, use Kokkos.

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kolb {

// Threads per block of kolb's own CUDA launches: the environment's
// KOLB_GPU_BLOCK (a multiple of 32 up to 1024; 0: Kokkos' launch), else 256.
inline int gpu_block_size() {
  static const int size = [] {
    const char* s = std::getenv("KOLB_GPU_BLOCK");
    if (s == nullptr || *s == '\0') return 256;
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end != '\0' || v < 0 || v > 1024 || v % 32 != 0)
      throw std::invalid_argument(
          std::string("KOLB_GPU_BLOCK=") + s +
          ": expected a multiple of 32 up to 1024, or 0 for Kokkos' launch");
    return int(v);
  }();
  return size;
}

#if defined(KOKKOS_ENABLE_CUDA)
namespace impl {
template <class F>
__global__ void for_each_index_kernel(const F f, int n) {
  const int i = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (i < n) f(i);
}
}  // namespace impl
#endif

// f(i) for i in [0, n), in no particular order, asynchronously on exec.
// Index: the index type of the Kokkos launch (int or index_t).
template <class Index, class ExecSpace, class F>
void for_each_index(const char* label, const ExecSpace& exec, Index n, const F& f) {
  if (n <= 0) return;
#if defined(KOKKOS_ENABLE_CUDA)
  // 4 KB: CUDA 11's limit on kernel arguments.
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value && sizeof(F) <= 4000) {
    const int block = gpu_block_size();
    if (block > 0 && n <= Index(INT_MAX)) {
      const int items = int(n);
      impl::for_each_index_kernel<<<(items + block - 1) / block, block, 0, exec.cuda_stream()>>>(
          f, items);
      const cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess)
        throw std::runtime_error(std::string(label) + ": launch failed: " + cudaGetErrorString(e));
      return;
    }
  }
#endif
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>>(exec, 0, n),
                       f);
}

}  // namespace kolb
