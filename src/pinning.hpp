#pragma once
// Thread placement of a node's helper thread (CPU-only builds).

namespace kolb {

class HelperThread;

// Binds the helper thread to the CPUs the calling thread's OpenMP pool does
// not use (or to the last CPU if it uses them all). The helper must not
// share the OpenMP threads' cores: created by the main thread it would
// inherit its binding, and a thread woken every step tends to be woken on
// its waker's CPU. Best effort: a restricted cpuset may refuse some CPUs.
void pin_away_from_openmp(HelperThread& helper);

}  // namespace kolb
