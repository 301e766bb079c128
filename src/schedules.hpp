#pragma once
// The schedules of domain/schedule.hpp, declared for each other (a
// Distributed node steps through a NodeSteps or an OverlappedNode).

#include <kolb/domain/halo_exchange.hpp>
#include <kolb/domain/schedule.hpp>

namespace kolb {

// One part on one rank: its periodic halos, its update, swap.
class OneBlock final : public Schedule {
 public:
  void advance(Node& node, std::int64_t steps) override;
  void step(Node& node) override { advance(node, 1); }
};

// Parts on both spaces; each side fills its own halos (reading the other
// side's border, which nobody writes during a step), so on CPU-only nodes
// the swap overlaps the other side's update. `remote`: the host parts
// exchange their faces across the split axis with other ranks first, while
// the accelerator updates (slabs along the split axis). `fill`: false where
// a Distributed schedule has filled every halo before.
class NodeSteps final : public Schedule {
 public:
  NodeSteps(HaloExchange* remote, bool fill) : m_remote(remote), m_fill(fill) {}
  void step(Node& node) override;

 private:
  HaloExchange* m_remote;
  bool m_fill;
};

// A GPU node: the accelerator updates the sites that do not read its halos
// across the split axis while the swap runs on its halo lane, then its
// border layers; the host parts likewise, their inner layers while the
// copies run, the layers next to the accelerator once its borders have
// arrived. In place (AA), a pull step swaps the halos so, and what it
// pushed across the faces crosses during the next (local) step, while the
// accelerator collides its inner sites.
class OverlappedNode final : public Schedule {
 public:
  explicit OverlappedNode(HaloExchange* remote) : m_remote(remote) {}
  void step(Node& node) override;
  // The pushes a last pull step left in flight.
  void settle(Node& node) override;

 private:
  struct Transfer {
    Part* to;
    Side side;  // the face of `to` the data comes through
    HaloBuffer data;
  };
  struct SwapInFlight {
    bool pushed = false;
    std::vector<Transfer> to_host;
  };
  // The swap, started: the halos (or, with `pushed`, what an AA pull pushed
  // into them) packed on both sides, and every copy and unpack into the
  // accelerator queued on its halo lane ...
  SwapInFlight start_swap(Node& node, bool pushed);
  // ... and finished: the lane waited for, the accelerator's borders
  // unpacked into the host parts. Returns the lane's seconds on the swap.
  double finish_swap(Node& node, const SwapInFlight& swap);

  HaloExchange* m_remote;
  bool m_pushes_pending = false;  // AA: a pull step's pushes not yet moved
};

// A rank's tile. A lone part: its self-periodic halos, the first tiled
// axis's exchange in flight while the sites that do not read it update
// (where launches are asynchronous), the later axes in order, then the
// border sites. A node: on slabs along the split axis the node's schedule
// with the remote faces on the host side, else every halo first, axis by
// axis, then the parts together.
class Distributed final : public Schedule {
 public:
  Distributed(const Node& node, const ScheduleChoice& choice);
  void step(Node& node) override;
  // A node's schedule settles its own state (the overlapped AA pushes).
  void settle(Node& node) override {
    if (m_inner) m_inner->settle(node);
  }

 private:
  void step_lone(Node& node);
  ScheduleChoice m_choice;
  bool m_slabs = false;
  std::unique_ptr<Schedule> m_inner;  // a node's own schedule
};

}  // namespace kolb
