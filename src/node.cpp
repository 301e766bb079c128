// Non-template pieces of the heterogeneous node: thread placement and the
// default thread count of the accelerator role.

#include <kolb/node/node_simulation.hpp>
#include <kolb/node/spaces.hpp>

#include <thread>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace kolb {

void unbind_current_thread() {
#ifdef __linux__
  cpu_set_t all;
  CPU_ZERO(&all);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c) CPU_SET(c, &all);
  // Best effort: a restricted cpuset (containers, batch systems) may refuse
  // some CPUs; the thread then keeps the binding it inherited.
  (void)pthread_setaffinity_np(pthread_self(), sizeof(all), &all);
#endif
}

int node_default_threads() {
  if (!node_accelerator_on_host) return 0;
  const int cores = int(std::thread::hardware_concurrency());
  return cores > 1 ? cores - 1 : 1;
}

}  // namespace kolb
