#pragma once
// for_each_index: f(i) for i in [0, n) on an execution space instance,
// through Kokkos' RangePolicy launch or, in CUDA builds with KOLB_GPU_BLOCK
// set, through kolb's own: a plain kernel, one thread per index, blocks of
// KOLB_GPU_BLOCK threads, on the instance's stream, the functor as a kernel
// argument. Kokkos 3.4's CUDA launch sizes blocks for the most resident
// threads (the smallest block on ties). By default it would also send
// closures over 512 bytes (stream-collide, AA, wall ghosts) through its one
// constant-memory buffer, each such launch blocking the host until the
// previous one's kernel has finished; kolb asks for kernel arguments
// instead (HintLightWeight), so that launches queue without waiting.
// Kokkos' launch stays the default for kernels, as kolb's ran most LBM rows
// slower; kolb's serves the probes, which it speeds up, and measures launch
// shapes (docs/gpu-clusters.md, "Launch shape").

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kolb {

// Threads per block of kolb's own CUDA launches: the environment's
// KOLB_GPU_BLOCK (a multiple of 32 up to 1024); 0 (the default): Kokkos'.
inline int gpu_block_size() {
  static const int size = [] {
    const char* s = std::getenv("KOLB_GPU_BLOCK");
    if (s == nullptr || *s == '\0') return 0;
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

// The stream probes' block size: KOLB_GPU_BLOCK's, else 256, with which the
// probes reach the plain grid-stride kernels (Kokkos' launch falls short).
inline int probe_block_size() { return gpu_block_size() > 0 ? gpu_block_size() : 256; }

// f(i) for i in [0, n), in no particular order, asynchronously on exec;
// in CUDA builds `block` > 0 threads per block by kolb's own launch.
// Index: the index type of the Kokkos launch (int or index_t).
template <class Index, class ExecSpace, class F>
void for_each_index(const char* label, const ExecSpace& exec, Index n, const F& f,
                    int block = gpu_block_size()) {
  if (n <= 0) return;
#if defined(KOKKOS_ENABLE_CUDA)
  // 4 KB: CUDA 11's limit on kernel arguments.
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value && sizeof(F) <= 4000) {
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
#else
  (void)block;
#endif
  // Light-weight: the functor as a kernel argument (see the top of this file).
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>,
                                     Kokkos::Experimental::WorkItemProperty::HintLightWeight_t>;
  Kokkos::parallel_for(label, Policy(exec, 0, n), f);
}

}  // namespace kolb
