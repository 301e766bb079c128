#pragma once
// The execution spaces a domain's parts run on, per build:
//  - CUDA / HIP build: accelerator = the GPU (launched asynchronously on its
//    own non-blocking stream), host = OpenMP on the initialising thread;
//  - CPU-only build with OpenMP: accelerator = OpenMP (initialising thread,
//    cores - 1 threads), host = Serial on one helper std::thread;
//  - Serial-only build: both roles are Serial and run one after the other.

#include <kolb/core/macros.hpp>

#include <Kokkos_Core.hpp>

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

// The instances a domain's parts launch on.
// Host memory for halos staged between an accelerator and MPI: pinned
// where the accelerator has it, so copies run at full speed.
#if defined(KOKKOS_ENABLE_CUDA)
using NodeStagingSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP)
using NodeStagingSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#else
using NodeStagingSpace = Kokkos::HostSpace;
#endif

struct NodeSpaces {
  NodeAccelerator accelerator;
  NodeHost host;
  // The accelerator part's halo lane: packs, copies and unpacks across the
  // split axis, queued while its update runs (a second stream on GPUs).
  NodeAccelerator accelerator_halos;
};

// How a GPU schedules an instance's kernels against other streams' pending
// blocks: `urgent` streams (the halo lane) get each SM slot that frees up
// before `normal` ones. Without it a halo pack queued behind the
// accelerator's inner update, which fills the GPU, starts only when that
// update's last blocks are dispatched, so the swap waits out the update.
enum class StreamPriority { normal, urgent };

// An instance of the accelerator space that launches asynchronously with
// respect to the host (a non-blocking stream on GPUs; the default instance
// elsewhere). The stream lives as long as this holder.
class AcceleratorInstance {
 public:
  explicit AcceleratorInstance(StreamPriority priority = StreamPriority::normal)
      : m_exec(make(priority)) {}
  ~AcceleratorInstance() {
#ifdef KOLB_GPU
    m_exec.fence();
    m_exec = NodeAccelerator();  // drop the instance before its stream
    (void)KOLB_GPU(EventDestroy)(m_start);
    (void)KOLB_GPU(EventDestroy)(m_stop);
    (void)KOLB_GPU(EventDestroy)(m_mark);
    (void)KOLB_GPU(StreamDestroy)(m_stream);
#endif
  }
  AcceleratorInstance(const AcceleratorInstance&) = delete;
  AcceleratorInstance& operator=(const AcceleratorInstance&) = delete;
  const NodeAccelerator& get() const { return m_exec; }

  // Times the work queued on the instance between start_clock() and
  // stop_clock(); read clock_seconds() after fencing it. GPU launches return
  // at once, so a host clock read at the fence would also count the host
  // work done meanwhile: events on the stream time the GPU alone. Elsewhere
  // the launches block and the host clock is exact.
#ifdef KOLB_GPU
  // Work queued on this instance from now on starts after the work queued
  // on `other` until now (an event between the streams; the host does not
  // wait). Elsewhere launches block, so the order is already kept.
  void wait_for(const AcceleratorInstance& other) {
    (void)KOLB_GPU(EventRecord)(other.m_mark, other.m_stream);
    (void)KOLB_GPU(StreamWaitEvent)(m_stream, other.m_mark, 0);
  }
  void start_clock() { (void)KOLB_GPU(EventRecord)(m_start, m_stream); }
  void stop_clock() { (void)KOLB_GPU(EventRecord)(m_stop, m_stream); }
  double clock_seconds() const {
    float ms = 0;
    (void)KOLB_GPU(EventElapsedTime)(&ms, m_start, m_stop);
    return 1e-3 * ms;
  }

 private:
  KOLB_GPU(Stream_t) m_stream = nullptr;
  KOLB_GPU(Event_t) m_start = nullptr, m_stop = nullptr;
  KOLB_GPU(Event_t) m_mark = nullptr;  // wait_for's: only ordering, no timing
  NodeAccelerator make(StreamPriority priority) {
    // Lower numbers are more urgent; 0, the least urgent, is the default.
    int least = 0, value = 0;
    if (priority == StreamPriority::urgent)
      (void)KOLB_GPU(DeviceGetStreamPriorityRange)(&least, &value);
    (void)KOLB_GPU(StreamCreateWithPriority)(&m_stream, KOLB_GPU(StreamNonBlocking), value);
    (void)KOLB_GPU(EventCreate)(&m_start);
    (void)KOLB_GPU(EventCreate)(&m_stop);
    (void)KOLB_GPU(EventCreateWithFlags)(&m_mark, KOLB_GPU(EventDisableTiming));
    return NodeAccelerator(m_stream);
  }
#else
  void wait_for(const AcceleratorInstance&) {}
  void start_clock() { m_timer.reset(); }
  void stop_clock() { m_seconds = m_timer.seconds(); }
  double clock_seconds() const { return m_seconds; }

 private:
  static NodeAccelerator make(StreamPriority) { return NodeAccelerator(); }
  Kokkos::Timer m_timer;
  double m_seconds = 0;
#endif
  NodeAccelerator m_exec;
};

}  // namespace kolb
