#pragma once
// The ranks of a run: MPI_COMM_WORLD when kolb is built with MPI and started
// under mpiexec, else one rank. CartGrid arranges the ranks in the Cartesian
// grid of a tiling (MPI_Cart_create) and carries the halo messages between
// neighbours. Only src/comm.cpp sees mpi.h.

#include <kolb/block/extents.hpp>

#include <array>
#include <cstddef>
#include <memory>

namespace kolb::comm {

// MPI for the lifetime of the program (MPI_Init_thread with
// MPI_THREAD_SERIALIZED: the node's helper thread may make the calls).
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

int rank();  // 0 without MPI
int size();  // 1 without MPI
inline bool root() { return rank() == 0; }

// In-place reductions over all ranks (no-ops on one rank).
void sum(double* values, int count);
void max(double* values, int count);
bool all(bool value);  // true when every rank passes true
void barrier();
// Ends every rank of the job with `code` (after the caller has flushed what
// it wrote); returns normally only without MPI.
void abort(int code);

// The ranks as a dims[0] x dims[1] x dims[2] grid, x fastest.
class CartGrid {
 public:
  CartGrid(std::array<int, 3> dims, std::array<bool, 3> periodic);
  ~CartGrid();
  CartGrid(const CartGrid&) = delete;
  CartGrid& operator=(const CartGrid&) = delete;

  const std::array<int, 3>& dims() const { return m_dims; }
  const std::array<int, 3>& coords() const { return m_coords; }
  // The rank across a face of this rank's tile; -1 where there is none
  // (a non-periodic boundary of the lattice).
  int neighbour(int axis, Side side) const { return m_neighbour[axis][int(side)]; }

  // Non-blocking halo messages, completed by wait_all().
  void receive(int from, int tag, void* data, std::size_t bytes);
  void send(int to, int tag, const void* data, std::size_t bytes);
  void wait_all();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  std::array<int, 3> m_dims{1, 1, 1}, m_coords{0, 0, 0};
  std::array<std::array<int, 2>, 3> m_neighbour{{{-1, -1}, {-1, -1}, {-1, -1}}};
};

// Seconds of one round trip of `bytes` between ranks 0 and 1 (others wait),
// the fastest of `repeats`; 0 on one rank.
double ping_pong(std::size_t bytes, int repeats);

}  // namespace kolb::comm
