#pragma once
// HaloExchange: the faces of a process's parts to other ranks and their
// messages, built once (the plan is data, as in Cabana's Halo): start(axis)
// posts the receives of the faces normal to `axis`, packs and sends;
// finish(axis) waits and unpacks into the halos.

#include <kolb/domain/node.hpp>

#include <memory>
#include <vector>

namespace kolb {

namespace comm {
class CartGrid;
}

class HaloExchange {
 public:
  // Through host memory unless `device_buffers` (GPU-aware MPI).
  HaloExchange(std::shared_ptr<comm::CartGrid> grid, bool device_buffers);

  // The face of slot `slot` normal to `axis` on `side`, to the rank across
  // it. Tags name the receiving face: its axis, side and, across the other
  // axes, its part `part` (tiles of one range along the split axis hold the
  // same parts; across it each side has one face).
  void add(int slot, int axis, Side side, int part);

  void start(std::vector<Slot>& slots, int axis);
  void finish(std::vector<Slot>& slots, int axis);
  // Both, timed (seconds).
  double exchange(std::vector<Slot>& slots, int axis);
  // In place (AA), after a pull step of a lone part (slabs along x): what
  // it pushed into its x halos, to the ranks across and back into their
  // borders.
  void push_x(Part& part);

 private:
  struct Face {
    int slot, axis;
    Side side;
    int rank;
    int tag, send_tag;
    HaloBuffer received;
  };
  std::shared_ptr<comm::CartGrid> m_grid;
  bool m_host_buffers;
  std::vector<Face> m_faces;
};

}  // namespace kolb
