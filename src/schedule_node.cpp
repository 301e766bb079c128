// OneBlock and NodeSteps (src/schedules.hpp), and make_schedule.

#include <kolb/block/extents.hpp>
#include <kolb/domain/helper_thread.hpp>
#include <kolb/domain/spaces.hpp>

#include "schedules.hpp"

namespace kolb {

void OneBlock::advance(Node& node, std::int64_t steps) {
  // No faces: launches queue back to back.
  Kokkos::Timer timer;
  Part& part = *node.slots[0].part;
  for (std::int64_t k = 0; k < steps; ++k) {
    for (int a = 0; a < 3; ++a) part.fill_periodic(a);
    part.update(node.step + k);
    part.swap();
  }
  part.fence();
  const double seconds = timer.seconds();
  node.step += steps;
  node.timings.steps += steps;
  node.timings.total += seconds;
  node.count_lone(seconds);
}

void NodeSteps::step(Node& node) {
  Kokkos::Timer step_timer;
  double exchange = 0, accelerator = 0, host = 0, mpi = 0;
  bool fill = m_fill;
  const bool host_work = node.has(PartRole::host);
  // In place (AA), a pull step can write a slot its neighbour's halo copies
  // (a border site bouncing off a solid site across the face), so here every
  // halo is filled before any part updates, and what each part pushed into
  // its halos across the split axis goes to its neighbours after all have
  // updated (OverlappedNode moves only slots no concurrent pull touches).
  // Local steps read no halos.
  const bool pull = node.slots.front().part->reads_halos();
  if (node.in_place) {
    if (fill && pull)
      node.for_each_side([&](PartRole role) {
        node.each(role, [&](Slot& s) {
          node.fill_halos(s);
          s.part->fence();
        });
      });
    fill = false;
    exchange += step_timer.seconds();
  }
  const auto remote_split = [&] { return m_remote->exchange(node.slots, node.split); };
  if (node.helper) {
    // Each side fills its own halos: the halo swap overlaps the other update.
    if (host_work)
      node.helper->submit([&] {
        if (m_remote) mpi = remote_split();
        host = mpi + node.update_role(PartRole::host, fill);
      });
    if (!node.concurrent && host_work) node.helper->wait();
    accelerator = node.update_role(PartRole::accelerator, fill);
    if (node.concurrent && host_work) node.helper->wait();
  } else {
    // Where the swap does not overlap (Serial-only builds, or GPU nodes with
    // set_swap_overlap(false)) it comes first, in order: the model's T_swap.
    if (fill)
      for (Slot& s : node.slots) node.fill_halos(s);
    exchange = step_timer.seconds();
    node.accelerator->start_clock();
    node.each(PartRole::accelerator,
              [&](Slot& s) { s.part->update(node.step); });  // asynchronous on a GPU
    node.accelerator->stop_clock();
    if (!node.concurrent) node.accelerator->get().fence();
    if (m_remote) {
      // Host-side MPI while the GPU runs; then the host parts' periodic
      // corners again, over the halos just received.
      mpi = remote_split();
      node.each(PartRole::host, [&](Slot& s) {
        for (const int a : fill_order(node.split))
          if (a != node.split) s.part->fill_periodic(a);
      });
    }
    if (host_work) host = mpi + node.update_role(PartRole::host, false);
    node.accelerator->get().fence();
    accelerator = node.accelerator->clock_seconds();
  }
  if (node.in_place && pull) {
    Kokkos::Timer timer;
    node.push_across();
    exchange += timer.seconds();
  }
  node.end_step();
  node.timings.exchange += exchange;
  node.timings.accelerator += accelerator;
  node.timings.host += host;
  node.timings.mpi += mpi;
  node.timings.total += step_timer.seconds();
}

std::unique_ptr<Schedule> make_schedule(const Node& node, const ScheduleChoice& choice) {
  if (choice.remote) return std::make_unique<Distributed>(node, choice);
  if (node.slots.size() == 1) return std::make_unique<OneBlock>();
  if (choice.swap_overlap) return std::make_unique<OverlappedNode>(nullptr);
  return std::make_unique<NodeSteps>(nullptr, true);
}

}  // namespace kolb
