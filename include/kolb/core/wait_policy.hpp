#pragma once
// How OpenMP threads wait, chosen for shared machines. A thread that reaches
// a barrier first spins before it sleeps: libgomp's default spin (300,000
// rounds) and LLVM's (200 ms) keep a core busy while the thread it waits for
// is descheduled, which slows a run many times over beside busy processes. A
// short spin keeps the quiet machine's speed and sleeps soon on a busy one.
// The runtimes read these settings when they load, before main(), so the
// program starts once more with them set.

#include <string>

namespace kolb {

// Unless the user set OMP_WAIT_POLICY, GOMP_SPINCOUNT or KMP_BLOCKTIME,
// sets a short spin (GOMP_SPINCOUNT=1000, KMP_BLOCKTIME=1) and restarts the
// program with the same arguments (Linux; call first in main). Does nothing
// when it cannot restart.
void choose_wait_policy(char** argv);

// The wait settings in effect, e.g. "GOMP_SPINCOUNT=1000 KMP_BLOCKTIME=1
// (kolb's default)" or "OMP_WAIT_POLICY=passive (set by the user)".
std::string wait_policy();

// The machine's load at a glance: the 1-minute load average against the
// CPUs this process may use (/proc/loadavg; load < 0 where unknown).
struct MachineLoad {
  double load = -1;
  int cpus = 1;
  bool busy() const { return load > cpus + 0.5; }
};
MachineLoad machine_load();

}  // namespace kolb
