#pragma once
// Part: one block of a Domain on one execution space: the one part of a
// single-space run, or a host or accelerator part of a node. The Domain
// sees only this interface; BlockPart implements it for each compiled
// variant. Its x faces are filled from a neighbouring part in the process
// (fill_halo) or through a buffer (pack / unpack: any transport, e.g. a
// remote rank).

#include <kolb/core/variant.hpp>
#include <kolb/io/fields.hpp>
#include <kolb/kernels/observable_sums.hpp>

#include <string>

namespace kolb {

enum class PartRole { accelerator, host };

// What a part is made from: the case, the whole lattice's materials, the
// columns [x0, x0 + width) it holds, and where it runs.
struct PartSetup {
  const Case& c;
  const Geometry& geometry;  // over Extents(c.size, halo, dim): no row padding
  int x0 = 0, width = 0;
  PartRole role = PartRole::accelerator;
  bool periodic_x = false;  // the part is its own x neighbour (one part, periodic x)
  std::string label;
};

// Packed halo populations in a part's memory.
struct HaloBuffer {
  const void* data = nullptr;
  std::size_t count = 0;  // values
  bool on_host = true;
};

class Part {
 public:
  virtual ~Part() = default;
  // One step of the interior, current -> next, after the x halos are
  // filled; fills the periodic halos the part owns first. Queued on the
  // part's space (GPU launches return at once); swap() after all parts.
  virtual void update() = 0;
  virtual void swap() = 0;
  virtual void fence() = 0;
  // Fills the `side` halo from `neighbour` (its opposite border), directly
  // when both live in one memory space, else through pack and unpack.
  virtual void fill_halo(Side side, Part& neighbour) = 0;
  // The populations leaving through `border`, packed (queued: fence first).
  virtual HaloBuffer pack(Side border) = 0;
  // Writes packed populations from a neighbour into the `side` halo.
  virtual void unpack(Side side, const HaloBuffer& buffer) = 0;

  virtual ObservableSums observe() = 0;
  // This part's columns of the global fields / populations (x-fastest, Q
  // per site, the same whatever the layout), already sized.
  virtual void gather_fields(HostFields& out) = 0;
  virtual void gather_populations(std::vector<double>& out) = 0;
  // Resets the populations to the equilibrium of the global fields `in`.
  virtual void set_fields(const HostFields& in) = 0;
  // Benchmarks: seconds for `steps` launches of one kernel over the
  // interior without halo exchange (leaves the state advanced).
  virtual double time_kernel(BenchKernel kernel, int steps) = 0;
  virtual std::string space() const = 0;
  virtual int concurrency() const = 0;
};

}  // namespace kolb
