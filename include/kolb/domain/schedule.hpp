#pragma once
// The step schedules of a Node: in which order, within a step, its parts
// update, their halos across the split axis are filled and the faces to
// other ranks are exchanged. One class per schedule (src/schedule_*.cpp):
//  - OneBlock: one part on one rank; launches queue back to back;
//  - NodeSteps: parts on both spaces, each side filling its own halos, the
//    sides concurrent (CPU-only builds: the host parts on the helper
//    thread) or one after the other;
//  - OverlappedNode: GPU nodes: the swap across the split axis runs on the
//    accelerator's halo lane while both sides update their inner sites;
//  - Distributed: a rank's tile: a lone part overlapping the first tiled
//    axis's exchange with its inner sites, or a node around one of the two
//    above.
// The choice (make_schedule) is the Domain's; the invariance tests run
// every schedule against the reference.

#include <kolb/domain/node.hpp>

#include <array>
#include <cstdint>
#include <memory>

namespace kolb {

class HaloExchange;

class Schedule {
 public:
  virtual ~Schedule() = default;
  // `steps` steps, fenced on return.
  virtual void advance(Node& node, std::int64_t steps) {
    for (std::int64_t k = 0; k < steps; ++k) step(node);
    settle(node);
  }
  virtual void step(Node& node) = 0;
  // What a last step left in flight, completed (advance returns a whole
  // state).
  virtual void settle(Node&) {}
};

struct ScheduleChoice {
  bool swap_overlap = false;          // GPU nodes (node_swap_overlapped) or forced (tests)
  int lone_overlap = -1;              // a lone part under MPI: 1, 0, or -1 (by its space)
  std::array<int, 3> ranks{1, 1, 1};  // of the tiling
  int dim = 2;
  HaloExchange* remote = nullptr;  // the faces to other ranks; null: one rank
};

std::unique_ptr<Schedule> make_schedule(const Node& node, const ScheduleChoice& choice);

}  // namespace kolb
