#pragma once
// Simulation: the type-erased face of a compiled solver variant, so that the
// driver, I/O and tests pick lattice/precision/layout at run time from a Case.

#include <kolb/block/materials.hpp>
#include <kolb/io/case.hpp>
#include <kolb/kernels/observables.hpp>

#include <memory>
#include <string>
#include <vector>

namespace kolb {

// Interior fields on the host, compact index x + nx (y + ny z).
struct HostFields {
  std::array<int, 3> n{1, 1, 1};
  std::vector<double> rho;          // 0 on solid sites
  std::vector<double> u;            // 3 values per site
  std::vector<double> temperature;  // thermal lattices (D2Q37): T^H per site; else empty
  std::vector<material_t> material;
  std::size_t index(int x, int y, int z) const {
    return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * z);
  }
};

class Simulation {
 public:
  virtual ~Simulation() = default;
  // Advances by `steps` time steps (fenced on return).
  virtual void advance(std::int64_t steps) = 0;
  virtual ObservableSums observe() = 0;
  // Benchmark hook: seconds for `steps` launches of one kernel ("fused",
  // "propagate" or "collide") over the interior, without halo exchange.
  // Leaves the state advanced; use on a simulation made for benchmarking.
  virtual double time_kernel(const std::string& kernel, int steps) = 0;
  virtual HostFields fields() = 0;
  // Interior populations (stored, post-collision), site by site in
  // x-fastest order, Q per site: the same sequence whatever the layout.
  virtual std::vector<double> populations() = 0;
  // Resets the populations to the equilibrium of the given interior fields
  // (`temperature` only for thermal lattices; empty means T0 = 1 there).
  virtual void set_fields(const std::vector<double>& rho, const std::vector<double>& u,
                          const std::vector<double>& temperature) = 0;
  void set_fields(const std::vector<double>& rho, const std::vector<double>& u) {
    set_fields(rho, u, {});
  }
  virtual std::int64_t step() const = 0;
  // "D2Q9/double/soa on OpenMP"
  virtual std::string variant() const = 0;
  virtual std::string execution_space() const = 0;
  virtual int concurrency() const = 0;
};

// Host description of the sites of a case: material ids of every storage
// site (walls in the halos of non-periodic faces, obstacles inside) and the
// wall velocities. Periodic halos are filled by the solver.
struct Geometry {
  std::vector<material_t> material;
  MaterialTable table;
};
struct Extents;
Geometry build_geometry(const Case& c, const Extents& extents);
// Initial rho, u (3 per site) and, for thermal lattices, T of the case on
// the interior sites (`temperature` is left empty for isothermal lattices).
void initial_fields(const Case& c, const HostFields& shape, std::vector<double>& rho,
                    std::vector<double>& u, std::vector<double>& temperature);

// Builds the compiled variant the case asks for; throws ConfigError naming
// execution.layout / lattice / precision if this build lacks it.
std::unique_ptr<Simulation> make_simulation(const Case& c);
// "D2Q9/double/soa", "D2Q9/double/csoa8", ... for every variant in this build.
std::vector<std::string> compiled_variants();
// Whether this build has the variant (vector_length 1 for aos/soa).
bool variant_compiled(const std::string& lattice, const std::string& precision,
                      const std::string& layout, int vector_length);

}  // namespace kolb
