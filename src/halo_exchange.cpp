// HaloExchange (domain/halo_exchange.hpp): the faces to other ranks.

#include <kolb/comm/communicator.hpp>
#include <kolb/domain/halo_exchange.hpp>

#include <Kokkos_Core.hpp>

#include <utility>

namespace kolb {

HaloExchange::HaloExchange(std::shared_ptr<comm::CartGrid> grid, bool device_buffers)
    : m_grid(std::move(grid)), m_host_buffers(!device_buffers) {}

void HaloExchange::add(int slot, int axis, Side side, int part) {
  const auto tag = [&](Side s) { return (2 * axis + int(s)) * 64 + part; };
  m_faces.push_back(
      {slot, axis, side, m_grid->neighbour(axis, side), tag(side), tag(opposite(side)), {}});
}

void HaloExchange::start(std::vector<Slot>& slots, int axis) {
  // Receives posted first; each part's packs are fenced before its sends
  // (only the packing parts: another thread may be driving the others).
  for (int k = 0; k < int(slots.size()); ++k) {
    Part& part = *slots[k].part;
    std::vector<std::pair<const Face*, HaloBuffer>> sends;
    for (Face& f : m_faces)
      if (f.slot == k && f.axis == axis) {
        f.received = part.receive_buffer(axis, f.side, m_host_buffers);
        m_grid->receive(f.rank, f.tag, f.received.data, f.received.bytes);
        sends.emplace_back(&f, part.pack(axis, f.side, m_host_buffers));
      }
    if (sends.empty()) continue;
    part.fence();
    for (const auto& [f, buffer] : sends)
      m_grid->send(f->rank, f->send_tag, buffer.data, buffer.bytes);
  }
}

void HaloExchange::finish(std::vector<Slot>& slots, int axis) {
  m_grid->wait_all();
  for (const Face& f : m_faces)
    if (f.axis == axis) slots[f.slot].part->unpack(axis, f.side, f.received);
}

double HaloExchange::exchange(std::vector<Slot>& slots, int axis) {
  Kokkos::Timer timer;
  start(slots, axis);
  finish(slots, axis);
  return timer.seconds();
}

void HaloExchange::push_x(Part& part) {
  // Tags apart from the halo exchange's: the same faces carry both.
  constexpr int offset = 2048;
  std::vector<std::pair<const Face*, HaloBuffer>> sends;
  for (Face& f : m_faces)
    if (f.slot == 0 && f.axis == 0) {
      f.received = part.pushed_receive_buffer(f.side, m_host_buffers);
      m_grid->receive(f.rank, offset + f.tag, f.received.data, f.received.bytes);
      sends.emplace_back(&f, part.pack_pushed(f.side, m_host_buffers));
    }
  part.fence();
  for (const auto& [f, buffer] : sends)
    m_grid->send(f->rank, offset + f->send_tag, buffer.data, buffer.bytes);
  m_grid->wait_all();
  for (const Face& f : m_faces)
    if (f.slot == 0 && f.axis == 0) part.unpack_pushed(f.side, f.received);
  part.fence();
}

}  // namespace kolb
