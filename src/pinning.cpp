// Thread placement (pinning.hpp).

#include <kolb/domain/helper_thread.hpp>

#include "pinning.hpp"

#include <algorithm>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace kolb {

namespace {

// CPUs of the calling thread and of every thread of its OpenMP pool.
std::vector<int> openmp_threads_cpus() {
  std::vector<int> cpus;
#pragma omp parallel
  {
#ifdef __linux__
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask) == 0)
#pragma omp critical(kolb_openmp_threads_cpus)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &mask) && std::find(cpus.begin(), cpus.end(), c) == cpus.end())
          cpus.push_back(c);
#endif
  }
  return cpus;
}

// Binds the calling thread to the CPUs not in `busy` (or to the last CPU if
// `busy` holds them all).
void bind_current_thread_away_from(const std::vector<int>& busy) {
#ifdef __linux__
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mask;
  CPU_ZERO(&mask);
  int free_cpus = 0;
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c)
    if (std::find(busy.begin(), busy.end(), int(c)) == busy.end()) CPU_SET(c, &mask), ++free_cpus;
  if (free_cpus == 0) {
    // The caller runs anywhere (no binding): take the last CPU, which
    // OpenMP's spread placement fills last.
    CPU_ZERO(&mask);
    CPU_SET(online - 1, &mask);
  }
  // Best effort: a restricted cpuset (containers, batch systems) may refuse
  // some CPUs; the thread then keeps the binding it inherited.
  (void)pthread_setaffinity_np(pthread_self(), sizeof(mask), &mask);
#else
  (void)busy;
#endif
}

}  // namespace

void pin_away_from_openmp(HelperThread& helper) {
  const std::vector<int> busy = openmp_threads_cpus();
  helper.submit([busy] { bind_current_thread_away_from(busy); });
  helper.wait();
}

}  // namespace kolb
