#pragma once
// NodeSimulation: the type-erased face of a heterogeneous node (host blocks
// of M columns at both x ends, the accelerator block in between), with the
// timing hooks the load balancer calibrates from.

#include <kolb/app/simulation.hpp>

namespace kolb {

// Accumulated wall-clock seconds of the phases of node steps.
struct NodeTimings {
  std::int64_t steps = 0;
  // Halo swap done before both updates (GPU builds). CPU-only builds fill
  // each side's halos within its own update time instead, overlapped.
  double exchange = 0;
  double accelerator = 0;  // accelerator block update, launch to completion
  double host = 0;         // host blocks update, on the host space
  double total = 0;        // whole steps
};

class NodeSimulation : public Simulation {
 public:
  // M: lattice columns of each host block (0: accelerator only).
  virtual int host_columns() const = 0;
  // Columns along x of the whole lattice (LX).
  virtual int columns() const = 0;
  // Sites per column (LY, or LY * LZ).
  virtual std::int64_t column_sites() const = 0;
  // true (default): both spaces update at the same time. false: one after
  // the other, so each side's time is measured without the other's load.
  virtual void set_concurrent(bool concurrent) = 0;
  virtual NodeTimings timings() const = 0;
  virtual void reset_timings() = 0;
};

// Builds the node for the case's variant with M = c.execution.host_columns.
// Throws ConfigError when M is impossible for the lattice.
std::unique_ptr<NodeSimulation> make_node_simulation(const Case& c);

// OpenMP threads the node gives the accelerator role by default: in a
// CPU-only build all cores but the one the Serial host thread takes, else 0
// (Kokkos' default).
int node_default_threads();

}  // namespace kolb
