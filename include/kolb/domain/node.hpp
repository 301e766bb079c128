#pragma once
// Node: the parts one process updates, left to right across the split axis
// (one part, or [host | accelerator | host]), the faces between them, the
// execution-space instances and helper thread they run on, and the
// timings. The schedules (schedule.hpp) order a step over it; the faces to
// other ranks are a HaloExchange's (halo_exchange.hpp).

#include <kolb/domain/part.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kolb {

class HelperThread;
class AcceleratorInstance;

// Accumulated wall-clock seconds of the phases of steps.
struct DomainTimings {
  std::int64_t steps = 0;
  // Halo swap: done before both updates (MPI: packing, sending, waiting and
  // unpacking), or the host side's share of it where it overlaps the
  // accelerator's update (GPU nodes: queueing, waiting for the copies,
  // unpacking; in place also the pushes across the faces). CPU-only nodes
  // fill each side's halos within their own update time instead.
  double exchange = 0;
  double accelerator = 0;  // accelerator part update, launch to completion
  double host = 0;         // host parts update, on the host space (with `mpi`)
  double mpi = 0;          // exchange with other ranks (slab-tiled node: on the host side)
  double total = 0;        // whole steps
  // Where the swap overlaps (OverlappedNode): the accelerator's halo lane
  // from its first to its last piece of the swap (packs, copies both ways,
  // unpacks, and the gaps while the host packs), timed with events on it;
  // 0 elsewhere. Against `exchange` it says how much of the swap the host's
  // inner layers hid.
  double transfer = 0;
};

// A face between two parts of the process (across the split axis, or the
// periodic wrap of a node on one rank).
struct LocalFace {
  Side side;
  int neighbour;      // index of the part across it
  HaloBuffer pushed;  // in place: what the part pushed into this face's halo
};

struct Slot {
  std::unique_ptr<Part> part;
  PartRole role;
  std::vector<LocalFace> faces;
  std::string label;
};

struct Node {
  Node();
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // The instances are declared before the parts, so that the parts (whose
  // views live on their streams) are destroyed first; helper, declared
  // after the slots, is destroyed (joined) before the parts it runs.
  std::unique_ptr<AcceleratorInstance> accelerator;
  std::unique_ptr<AcceleratorInstance> halo_lane;  // the accelerator part's halo lane
  std::vector<Slot> slots;                         // left to right
  std::unique_ptr<HelperThread> helper;            // CPU-only builds: the host parts' thread
  int split = 0;                                   // the axis the parts are layers across
  bool in_place = false;                           // AA streaming
  bool concurrent = true;                          // false: the host parts after the accelerator's
  std::int64_t step = 0;
  DomainTimings timings;

  bool has(PartRole role) const;
  // f(slot) for every slot of `role`.
  template <class F>
  void each(PartRole role, F&& f) {
    for (Slot& s : slots)
      if (s.role == role) f(s);
  }
  // Fills the slot's halos from its neighbours in the process (only those
  // of its own role if asked: the overlapped swap moves the others) and its
  // periodic wraps.
  void fill_halos(Slot& slot, bool own_role_only = false);
  // Fills the halos (if asked), updates and fences the parts of `role`;
  // returns the seconds taken.
  double update_role(PartRole role, bool fill_halos);
  // f(host) on the helper thread while f(accelerator) runs here (CPU-only
  // builds), else one after the other.
  void for_each_side(const std::function<void(PartRole)>& f);
  // In place (AA), after a pull step: the populations each part pushed into
  // its halos across the split axis go to the neighbours across them.
  void push_across();
  // Every part's swap, and the step counted.
  void end_step();
  // `seconds` of a lone part's update, on its side's clock.
  void count_lone(double seconds);
};

}  // namespace kolb
