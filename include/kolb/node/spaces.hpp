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

 private:
#if defined(KOKKOS_ENABLE_CUDA)
  cudaStream_t m_stream = nullptr;
  NodeAccelerator make() {
    cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking);
    return NodeAccelerator(m_stream);
  }
  void release() {
    m_exec.fence();
    m_exec = NodeAccelerator();  // drop the instance before its stream
    cudaStreamDestroy(m_stream);
  }
#elif defined(KOKKOS_ENABLE_HIP)
  hipStream_t m_stream = nullptr;
  NodeAccelerator make() {
    (void)hipStreamCreateWithFlags(&m_stream, hipStreamNonBlocking);
    return NodeAccelerator(m_stream);
  }
  void release() {
    m_exec.fence();
    m_exec = NodeAccelerator();
    (void)hipStreamDestroy(m_stream);
  }
#else
  static NodeAccelerator make() { return NodeAccelerator(); }
  void release() {}
#endif
  NodeAccelerator m_exec;
};

}  // namespace kolb
