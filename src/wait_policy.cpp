// choose_wait_policy, wait_policy, machine_load (core/wait_policy.hpp).

#include <kolb/core/wait_policy.hpp>

#include <cstdlib>
#include <fstream>
#include <thread>

#ifdef __linux__
#include <sched.h>
#include <unistd.h>
#endif

namespace kolb {

namespace {
constexpr const char* kSettings[] = {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME"};
constexpr const char* kChosen = "KOLB_WAIT_POLICY_CHOSEN";  // set by choose_wait_policy
}  // namespace

void choose_wait_policy(char** argv) {
  for (const char* name : kSettings)
    if (std::getenv(name)) return;
#ifdef __linux__
  setenv("GOMP_SPINCOUNT", "1000", 1);
  setenv("KMP_BLOCKTIME", "1", 1);
  setenv(kChosen, "1", 1);
  execv("/proc/self/exe", argv);
  // Not restarted (no /proc): the runtime keeps its own spin.
  for (const char* name : {"GOMP_SPINCOUNT", "KMP_BLOCKTIME", kChosen}) unsetenv(name);
#else
  (void)argv;
#endif
}

std::string wait_policy() {
  std::string s;
  for (const char* name : kSettings)
    if (const char* v = std::getenv(name)) s += std::string(s.empty() ? "" : " ") + name + "=" + v;
  if (s.empty()) return "the OpenMP runtime's default";
  return s + (std::getenv(kChosen) ? " (kolb's default)" : " (set by the user)");
}

MachineLoad machine_load() {
  MachineLoad m;
#ifdef __linux__
  cpu_set_t mask;
  CPU_ZERO(&mask);
  m.cpus = sched_getaffinity(0, sizeof(mask), &mask) == 0
               ? CPU_COUNT(&mask)
               : int(std::thread::hardware_concurrency());
#else
  m.cpus = int(std::thread::hardware_concurrency());
#endif
  if (m.cpus < 1) m.cpus = 1;
  std::ifstream in("/proc/loadavg");
  if (!(in >> m.load)) m.load = -1;
  return m;
}

}  // namespace kolb
