#pragma once
// KOLB_NODE_TRACE=N: every N overlapped steps, the host thread's time in each
// phase of them (stderr, ms per step; one tally per process, over every
// node it steps). A diagnostic for GPU nodes, whose lent machines have no
// profiler: it tells the host's own work from its waits on the
// accelerator's lanes.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace kolb {

struct NodeTrace {
  enum Phase {
    acc_launch,
    pack_acc,
    pack_host,
    to_acc,
    host_inner,
    wait_swap,
    host_border,
    wait_acc,
    count
  };
  static constexpr const char* names[count] = {"acc-launch",  "pack-acc",   "pack-host",
                                               "to-acc",      "host-inner", "wait-swap",
                                               "host-border", "wait-acc"};
  int every = 0, steps = 0, kind = 0, n[2] = {};
  double sum[2][count] = {};
  Kokkos::Timer clock;

  NodeTrace() {
    if (const char* e = std::getenv("KOLB_NODE_TRACE")) every = std::max(0, std::atoi(e));
  }
  static NodeTrace& get() {
    static NodeTrace trace;
    return trace;
  }
  void begin(bool pull) {
    if (!every) return;
    kind = pull ? 0 : 1;
    clock.reset();
  }
  void mark(Phase p) {
    if (!every) return;
    sum[kind][p] += clock.seconds();
    clock.reset();
  }
  void step_done() {
    if (!every) return;
    ++n[kind];
    if (++steps % every) return;
    for (int k = 0; k < 2; ++k) {
      if (!n[k]) continue;
      std::fprintf(stderr, "node trace, %s steps (%d):", k ? "local" : "pull", n[k]);
      for (int q = 0; q < count; ++q)
        std::fprintf(stderr, " %s %.3f", names[q], 1e3 * sum[k][q] / n[k]);
      std::fprintf(stderr, " ms/step\n");
      std::fill(sum[k], sum[k] + count, 0.0);
      n[k] = 0;
    }
  }
};

}  // namespace kolb
