// Non-template pieces of the heterogeneous node: thread placement and the
// default thread count of the accelerator role.

#include <kolb/node/node_simulation.hpp>
#include <kolb/node/spaces.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace kolb {

std::vector<int> current_thread_cpus() {
  std::vector<int> cpus;
#ifdef __linux__
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &mask)) cpus.push_back(c);
#endif
  return cpus;
}

std::vector<int> openmp_threads_cpus() {
  std::vector<int> cpus = current_thread_cpus();
#ifdef _OPENMP
#pragma omp parallel
  {
    const std::vector<int> mine = current_thread_cpus();
#pragma omp critical(kolb_openmp_threads_cpus)
    for (int c : mine)
      if (std::find(cpus.begin(), cpus.end(), c) == cpus.end()) cpus.push_back(c);
  }
#endif
  return cpus;
}

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

int node_default_threads() {
  if (!node_accelerator_on_host) return 0;
  const int cores = int(std::thread::hardware_concurrency());
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace kolb
