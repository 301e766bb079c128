// OverlappedNode (src/schedules.hpp): the step of a GPU node.

#include <kolb/domain/spaces.hpp>

#include "node_trace.hpp"
#include "schedules.hpp"

namespace kolb {

OverlappedNode::SwapInFlight OverlappedNode::start_swap(Node& node, bool pushed) {
  const int s = node.split;
  // The accelerator's packs first, so that its copies start while the host
  // packs: every transfer from or to it is queued on its halo lane, through
  // pinned host memory. Halos between host parts (across a periodic wrap)
  // are filled directly by fill_halos; pushes between them go here too.
  SwapInFlight swap{pushed, {}};
  std::vector<Transfer> to_accelerator, between_hosts;
  node.halo_lane->start_clock();
  for (const PartRole from : {PartRole::accelerator, PartRole::host}) {
    node.each(from, [&](Slot& slot) {
      for (const LocalFace& f : slot.faces) {
        Slot& to = node.slots[f.neighbour];
        if (to.role == from && !pushed) continue;
        const HaloBuffer data =
            pushed ? slot.part->pack_pushed(f.side, true) : slot.part->pack(s, f.side, true);
        (to.role == PartRole::accelerator ? to_accelerator
         : from == PartRole::host         ? between_hosts
                                          : swap.to_host)
            .push_back({to.part.get(), opposite(f.side), data});
      }
    });
    NodeTrace::get().mark(from == PartRole::accelerator ? NodeTrace::pack_acc
                                                        : NodeTrace::pack_host);
  }
  for (const Transfer& t : to_accelerator)
    pushed ? t.to->unpack_pushed(t.side, t.data) : t.to->unpack(s, t.side, t.data);
  // Pushes between host parts land now: the host's inner sites, which run
  // before finish_swap, include those next to a host-host face.
  for (const Transfer& t : between_hosts) t.to->unpack_pushed(t.side, t.data);
  node.halo_lane->stop_clock();
  NodeTrace::get().mark(NodeTrace::to_acc);
  return swap;
}

double OverlappedNode::finish_swap(Node& node, const SwapInFlight& swap) {
  node.each(PartRole::accelerator, [](Slot& a) { a.part->fence_halos(); });
  for (const Transfer& t : swap.to_host)
    swap.pushed ? t.to->unpack_pushed(t.side, t.data) : t.to->unpack(node.split, t.side, t.data);
  return node.halo_lane->clock_seconds();  // the lane is fenced
}

void OverlappedNode::step(Node& node) {
  Kokkos::Timer step_timer;
  const bool pull = node.slots.front().part->reads_halos();  // two buffers: every step
  double swap = 0, mpi = 0, lane = 0;
  SwapInFlight in_flight;
  NodeTrace& trace = NodeTrace::get();
  trace.begin(pull);
  node.accelerator->start_clock();
  if (pull) {
    // 1. The accelerator's periodic halos and its inner sites, which read
    //    none across s (asynchronous on a GPU). The halo lane starts after
    //    the fills: their corners read the halos it writes.
    node.each(PartRole::accelerator, [](Slot& a) {
      for (int axis = 0; axis < 3; ++axis) a.part->fill_periodic(axis);
    });
    node.halo_lane->wait_for(*node.accelerator);
    node.each(PartRole::accelerator,
              [&](Slot& a) { a.part->update(node.step, UpdateZone::inner); });
    trace.mark(NodeTrace::acc_launch);
    // 2. The swap starts on the halo lane. In place, the inner pulls (of
    //    both sides) leave alone the slots it moves: the border slots the
    //    neighbours pull from, and the halos (an AA site touches only the
    //    slots it pulls from, kernels/aa.hpp).
    Kokkos::Timer timer;
    in_flight = start_swap(node, false);
    swap = timer.seconds();
    // 3. The accelerator's border layers, queued behind the lane (an event
    //    between the streams: the host goes on), its periodic edges filled
    //    again over the halos received.
    node.accelerator->wait_for(*node.halo_lane);
    node.each(PartRole::accelerator, [&](Slot& a) {
      a.part->halos_ordered();
      a.part->fill_periodic_edges();
      a.part->update(node.step, UpdateZone::border);
    });
    trace.mark(NodeTrace::acc_launch);
  } else {
    // An AA local step: what the last pull step pushed across the faces
    // crosses while both sides collide their inner sites (the lane waits
    // for that pull step only); the border sites, which receive those
    // populations, collide after them: the accelerator's queued behind
    // the lane, the host's after finish_swap (step 4).
    node.halo_lane->wait_for(*node.accelerator);
    node.each(PartRole::accelerator,
              [&](Slot& a) { a.part->update(node.step, UpdateZone::inner); });
    trace.mark(NodeTrace::acc_launch);
    if (m_pushes_pending) {
      Kokkos::Timer timer;
      in_flight = start_swap(node, true);
      swap = timer.seconds();
      node.accelerator->wait_for(*node.halo_lane);
      node.each(PartRole::accelerator, [](Slot& a) { a.part->halos_ordered(); });
    }
    node.each(PartRole::accelerator,
              [&](Slot& a) { a.part->update(node.step, UpdateZone::border); });
    trace.mark(NodeTrace::acc_launch);
  }
  const bool pushes = m_pushes_pending;
  // After a pull step the pushes wait for the next step (or settle()).
  m_pushes_pending = node.in_place && pull;
  node.accelerator->stop_clock();
  if (!node.concurrent) node.accelerator->get().fence();
  // 4. The host parts. After a pull: their own halos (between host parts,
  //    periodic wraps) and inner layers while the copies (and the MPI faces
  //    of slabs along s) are in flight, then the accelerator's borders
  //    into their halos, the periodic edges over them, and the layers next
  //    to the accelerator. After an AA pull, the local step's inner
  //    sites, the pushes received, then the border sites. The wait for
  //    the copies counts as swap time.
  Kokkos::Timer host_timer;
  double waited = 0;
  if (pull || pushes) {
    const bool remote = pull && m_remote;
    if (remote) {
      Kokkos::Timer timer;
      m_remote->start(node.slots, node.split);
      mpi += timer.seconds();
    }
    node.each(PartRole::host, [&](Slot& h) {
      if (pull) node.fill_halos(h, true);
      h.part->update(node.step, UpdateZone::inner);
    });
    trace.mark(NodeTrace::host_inner);
    Kokkos::Timer timer;
    if (remote) {
      m_remote->finish(node.slots, node.split);
      mpi += timer.seconds();
      timer.reset();
    }
    lane = finish_swap(node, in_flight);
    waited = timer.seconds();
    trace.mark(NodeTrace::wait_swap);
    node.each(PartRole::host, [&](Slot& h) {
      if (pull) h.part->fill_periodic_edges();
      h.part->update(node.step, UpdateZone::border);
    });
  } else {
    node.each(PartRole::host, [&](Slot& h) { h.part->update(node.step); });
  }
  node.each(PartRole::host, [](Slot& h) { h.part->fence(); });
  trace.mark(NodeTrace::host_border);
  const double host = host_timer.seconds() - waited;
  swap += waited;
  node.each(PartRole::accelerator, [](Slot& a) { a.part->fence(); });
  trace.mark(NodeTrace::wait_acc);
  trace.step_done();
  node.end_step();
  node.timings.exchange += swap;
  node.timings.transfer += lane;
  node.timings.accelerator += node.accelerator->clock_seconds();
  node.timings.host += host;
  node.timings.mpi += mpi;
  node.timings.total += step_timer.seconds();
}

void OverlappedNode::settle(Node& node) {
  if (!m_pushes_pending) return;
  Kokkos::Timer timer;
  node.push_across();
  m_pushes_pending = false;
  const double seconds = timer.seconds();
  node.timings.exchange += seconds;
  node.timings.total += seconds;
}

}  // namespace kolb
