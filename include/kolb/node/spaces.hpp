#pragma once
// The two execution spaces of a heterogeneous node, per build:
//  - CUDA / HIP build: accelerator = the GPU (launched asynchronously on its
//    own non-blocking stream), host = OpenMP on the initialising thread;
//  - CPU-only build with OpenMP: accelerator = OpenMP (initialising thread,
//    cores - 1 threads), host = Serial on one helper std::thread;
//  - Serial-only build: both roles are Serial and run one after the other.

#include <Kokkos_Core.hpp>

#include <memory>
#include <type_traits>

namespace kolb {

using NodeAccelerator = Kokkos::DefaultExecutionSpace;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
using NodeHost = Kokkos::DefaultHostExecutionSpace;
#elif defined(KOKKOS_ENABLE_SERIAL)
using NodeHost = Kokkos::Serial;
#else
using NodeHost = Kokkos::DefaultHostExecutionSpace;
#endif

// Whether the accelerator role is played by a CPU space (CPU-only build).
constexpr bool node_accelerator_on_host =
    std::is_same<NodeAccelerator::memory_space, Kokkos::HostSpace>::value;

// An instance of the accelerator space that launches asynchronously with
// respect to the host (a non-blocking stream on GPUs; the default instance
// elsewhere). The stream lives as long as the returned holder.
class AcceleratorInstance {
 public:
  AcceleratorInstance() : m_exec(make()) {}
  ~AcceleratorInstance() { release(); }
  AcceleratorInstance(const AcceleratorInstance&) = delete;
  AcceleratorInstance& operator=(const AcceleratorInstance&) = delete;
  const NodeAccelerator& get() const { return m_exec; }

  // Times the work queued on the instance between start_clock() and
  // stop_clock(); read clock_seconds() after fencing it. GPU launches return
  // at once, so a host clock read at the fence would also count the host
  // work done meanwhile: events on the stream time the GPU alone. Elsewhere
  // the launches block and the host clock is exact.
#if defined(KOKKOS_ENABLE_CUDA)
  void start_clock() { cudaEventRecord(m_start, m_stream); }
  void stop_clock() { cudaEventRecord(m_stop, m_stream); }
  double clock_seconds() const {
    float ms = 0;
    cudaEventElapsedTime(&ms, m_start, m_stop);
    return 1e-3 * ms;
  }
#elif defined(KOKKOS_ENABLE_HIP)
  void start_clock() { (void)hipEventRecord(m_start, m_stream); }
  void stop_clock() { (void)hipEventRecord(m_stop, m_stream); }
  double clock_seconds() const {
    float ms = 0;
    (void)hipEventElapsedTime(&ms, m_start, m_stop);
    return 1e-3 * ms;
  }
#else
  void start_clock() { m_timer.reset(); }
  void stop_clock() { m_seconds = m_timer.seconds(); }
  double clock_seconds() const { return m_seconds; }
#endif

 private:
#if defined(KOKKOS_ENABLE_CUDA)
  cudaStream_t m_stream = nullptr;
  cudaEvent_t m_start = nullptr, m_stop = nullptr;
  NodeAccelerator make() {
    cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking);
    cudaEventCreate(&m_start);
    cudaEventCreate(&m_stop);
    return NodeAccelerator(m_stream);
  }
  void release() {
    m_exec.fence();
    m_exec = NodeAccelerator();  // drop the instance before its stream
    cudaEventDestroy(m_start);
    cudaEventDestroy(m_stop);
    cudaStreamDestroy(m_stream);
  }
#elif defined(KOKKOS_ENABLE_HIP)
  hipStream_t m_stream = nullptr;
  hipEvent_t m_start = nullptr, m_stop = nullptr;
  NodeAccelerator make() {
    (void)hipStreamCreateWithFlags(&m_stream, hipStreamNonBlocking);
    (void)hipEventCreate(&m_start);
    (void)hipEventCreate(&m_stop);
    return NodeAccelerator(m_stream);
  }
  void release() {
    m_exec.fence();
    m_exec = NodeAccelerator();
    (void)hipEventDestroy(m_start);
    (void)hipEventDestroy(m_stop);
    (void)hipStreamDestroy(m_stream);
  }
#else
  static NodeAccelerator make() { return NodeAccelerator(); }
  void release() {}
  Kokkos::Timer m_timer;
  double m_seconds = 0;
#endif
  NodeAccelerator m_exec;
};

}  // namespace kolb
