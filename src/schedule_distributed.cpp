// Distributed (src/schedules.hpp): the step of a rank's tile.

#include <kolb/block/extents.hpp>
#include <kolb/domain/spaces.hpp>

#include "schedules.hpp"

namespace kolb {

Distributed::Distributed(const Node& node, const ScheduleChoice& choice) : m_choice(choice) {
  if (node.slots.size() == 1) return;
  // Tiled along the split axis only: the host parts hold the remote faces
  // and exchange them as part of the host side's work, while the
  // accelerator updates.
  m_slabs = true;
  for (int a = 0; a < 3; ++a) m_slabs = m_slabs && (a == node.split || choice.ranks[a] == 1);
  if (!m_slabs)
    m_inner = std::make_unique<NodeSteps>(nullptr, false);
  else if (choice.swap_overlap)
    m_inner = std::make_unique<OverlappedNode>(choice.remote);
  else
    m_inner = std::make_unique<NodeSteps>(choice.remote, true);
}

void Distributed::step(Node& node) {
  if (node.slots.size() == 1) return step_lone(node);
  if (m_slabs) return m_inner->step(node);
  // Every halo first, axis by axis (the split axis between the parts and to
  // the neighbouring ranks, then the others in order), then the parts
  // update together.
  Kokkos::Timer timer;
  for (const int a : fill_order(node.split)) {  // the parts' order (Extents::first_axis)
    if (a >= m_choice.dim) continue;
    m_choice.remote->start(node.slots, a);
    m_choice.remote->finish(node.slots, a);
    for (Slot& s : node.slots) {
      if (a == node.split)
        for (const LocalFace& f : s.faces) s.part->fill_halo(f.side, *node.slots[f.neighbour].part);
      s.part->fill_periodic(a);
    }
    for (Slot& s : node.slots) s.part->fence();
  }
  const double exchange = timer.seconds();
  m_inner->step(node);
  node.timings.exchange += exchange;
  node.timings.mpi += exchange;
  node.timings.total += exchange;
}

void Distributed::step_lone(Node& node) {
  Kokkos::Timer step_timer;
  double exchange = 0;
  auto exchanged = [&](auto&& phase) {
    Kokkos::Timer t;
    phase();
    exchange += t.seconds();
  };
  // Self-periodic halos first; then the first axis with remote faces is in
  // flight while the sites that do not read them update (overlap); later
  // axes carry the halos of the earlier ones (edges, corners), so they
  // follow in order; then the sites next to remote faces.
  // In place (AA; slabs along x, tiling_problem), only pull steps read
  // the halos, and what they push into the x halos goes back afterwards.
  Part& part = *node.slots[0].part;
  HaloExchange& remote = *m_choice.remote;
  const int dim = m_choice.dim;
  const bool halos = part.reads_halos();
  int first = 0;
  while (first < dim && m_choice.ranks[first] == 1) ++first;
  for (int a = 0; a < 3; ++a) part.fill_periodic(a);
  if (halos && first < dim) exchanged([&] { remote.start(node.slots, first); });
  // Overlap pays where launches are asynchronous (a GPU): host kernels
  // block, MPI progresses only inside its calls meanwhile, and x borders
  // are one-site-long rows.
  const bool overlap =
      !node.in_place && (m_choice.lone_overlap >= 0 ? m_choice.lone_overlap == 1
                                                    : node.slots[0].role == PartRole::accelerator &&
                                                          !node_accelerator_on_host);
  if (overlap) part.update(node.step, UpdateZone::inner);
  if (halos)
    exchanged([&] {
      for (int a = first; a < dim; ++a) {
        if (a > first) remote.start(node.slots, a);
        remote.finish(node.slots, a);
        part.fill_periodic(a);  // again: its corners over the halos just received
      }
    });
  part.update(node.step, overlap ? UpdateZone::border : UpdateZone::all);
  part.fence();
  if (node.in_place && halos) exchanged([&] { remote.push_x(part); });
  node.end_step();
  const double total = step_timer.seconds();
  node.timings.exchange += exchange;
  node.count_lone(total - exchange);
  node.timings.total += total;
}

}  // namespace kolb
