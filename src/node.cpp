// Node (domain/node.hpp): what the schedules share.

#include <kolb/domain/helper_thread.hpp>
#include <kolb/domain/node.hpp>
#include <kolb/domain/spaces.hpp>

#include <algorithm>

namespace kolb {

Node::Node() = default;
Node::~Node() = default;

bool Node::has(PartRole role) const {
  return std::any_of(slots.begin(), slots.end(), [&](const Slot& s) { return s.role == role; });
}

void Node::fill_halos(Slot& slot, bool own_role_only) {
  for (const LocalFace& f : slot.faces) {
    const Slot& from = slots[f.neighbour];
    if (!own_role_only || from.role == slot.role) slot.part->fill_halo(f.side, *from.part);
  }
  for (int a = 0; a < 3; ++a) slot.part->fill_periodic(a);
}

double Node::update_role(PartRole role, bool fill) {
  Kokkos::Timer timer;
  each(role, [&](Slot& s) {
    if (fill) fill_halos(s);
    s.part->update(step);
  });
  each(role, [](Slot& s) { s.part->fence(); });
  return timer.seconds();
}

void Node::for_each_side(const std::function<void(PartRole)>& f) {
  if (helper && has(PartRole::host)) {
    helper->submit([&] { f(PartRole::host); });
    f(PartRole::accelerator);
    helper->wait();
  } else {
    f(PartRole::accelerator);
    f(PartRole::host);
  }
}

void Node::push_across() {
  // Every part packs what it pushed into its halos across the split axis,
  // then every part takes from each neighbour what that one pushed towards it.
  for_each_side([&](PartRole role) {
    each(role, [](Slot& s) {
      for (LocalFace& f : s.faces) f.pushed = s.part->pack_pushed(f.side, false);
      s.part->fence();
    });
  });
  for_each_side([&](PartRole role) {
    each(role, [&](Slot& s) {
      for (const LocalFace& f : s.faces)
        for (const LocalFace& g : slots[f.neighbour].faces)
          if (g.side == opposite(f.side)) s.part->unpack_pushed(f.side, g.pushed);
      s.part->fence();
    });
  });
}

void Node::count_lone(double seconds) {
  (slots[0].role == PartRole::accelerator ? timings.accelerator : timings.host) += seconds;
}

void Node::end_step() {
  for (Slot& s : slots) s.part->swap();
  ++step;
  ++timings.steps;
}

}  // namespace kolb
