#pragma once
// Plain CUDA/HIP grid-stride copy, in-place update and triad (no Kokkos),
// timed next to the Kokkos probes of kernels/stream_probes.hpp on GPU
// builds: the reference those probes must reach, so that a row's bound is
// not set by a launch shape Kokkos chose. Without a GPU backend this header
// declares nothing.

#include <kolb/core/macros.hpp>

#if defined(KOLB_GPU)

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace kolb {

namespace impl {

// Kind 0: b = a (copy), 1: a = s a (update), 2: a = b + s c (triad).
template <int Kind>
static __global__ void grid_stride_stream(double* a, double* b, const double* c, double s,
                                          std::size_t n) {
  const std::size_t stride = std::size_t(blockDim.x) * gridDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if constexpr (Kind == 0)
      b[i] = a[i];
    else if constexpr (Kind == 1)
      a[i] = s * a[i];
    else
      a[i] = b[i] + s * c[i];
  }
}

inline void gpu_check(KOLB_GPU(Error_t) e, const char* what) {
  if (e != KOLB_GPU(Success))
    throw std::runtime_error(std::string("grid-stride probe: ") + what + ": " +
                             KOLB_GPU(GetErrorString)(e));
}

}  // namespace impl

// Best GB/s of the three plain kernels over arrays of n doubles (STREAM's
// byte counts: 16, 16 and 24 B per element), on the current device, with
// 256-thread blocks and 8 blocks per multiprocessor.
struct GridStrideRates {
  double copy = 0, update = 0, triad = 0;
};

inline GridStrideRates grid_stride_rates(std::size_t n, int repeats) {
  using impl::gpu_check;
  int device = 0, sms = 0;
  gpu_check(KOLB_GPU(GetDevice)(&device), "GetDevice");
#if defined(KOKKOS_ENABLE_CUDA)
  gpu_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
#else
  gpu_check(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device),
            "attribute");
#endif
  double *a = nullptr, *b = nullptr, *c = nullptr;
  gpu_check(KOLB_GPU(Malloc)(reinterpret_cast<void**>(&a), n * sizeof(double)), "Malloc");
  gpu_check(KOLB_GPU(Malloc)(reinterpret_cast<void**>(&b), n * sizeof(double)), "Malloc");
  gpu_check(KOLB_GPU(Malloc)(reinterpret_cast<void**>(&c), n * sizeof(double)), "Malloc");
  KOLB_GPU(Event_t) start, stop;
  gpu_check(KOLB_GPU(EventCreate)(&start), "EventCreate");
  gpu_check(KOLB_GPU(EventCreate)(&stop), "EventCreate");
  const unsigned threads = 256, blocks = unsigned(std::max(1, 8 * sms));
  auto best = [&](auto kernel, double bytes_per_element) {
    float fastest = 1e30f;
    for (int r = 0; r < repeats + 1; ++r) {  // the first launch warms up
      gpu_check(KOLB_GPU(EventRecord)(start, 0), "EventRecord");
      kernel<<<blocks, threads>>>(a, b, c, 1.0, n);
      gpu_check(KOLB_GPU(EventRecord)(stop, 0), "EventRecord");
      gpu_check(KOLB_GPU(EventSynchronize)(stop), "kernel");
      float ms = 0;
      gpu_check(KOLB_GPU(EventElapsedTime)(&ms, start, stop), "EventElapsedTime");
      if (r > 0) fastest = std::min(fastest, ms);
    }
    return bytes_per_element * double(n) / (double(fastest) * 1e-3) * 1e-9;
  };
  gpu_check(KOLB_GPU(Memset)(a, 0, n * sizeof(double)), "Memset");
  gpu_check(KOLB_GPU(Memset)(b, 0, n * sizeof(double)), "Memset");
  gpu_check(KOLB_GPU(Memset)(c, 0, n * sizeof(double)), "Memset");
  GridStrideRates r;
  r.copy = best(impl::grid_stride_stream<0>, 16);
  r.update = best(impl::grid_stride_stream<1>, 16);
  r.triad = best(impl::grid_stride_stream<2>, 24);
  (void)KOLB_GPU(EventDestroy)(start);
  (void)KOLB_GPU(EventDestroy)(stop);
  (void)KOLB_GPU(Free)(a);
  (void)KOLB_GPU(Free)(b);
  (void)KOLB_GPU(Free)(c);
  return r;
}

}  // namespace kolb

#endif
