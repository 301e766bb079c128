#pragma once
// Observables: global sums over fluid sites (mass, momentum, kinetic energy,
// mean and max speed), reduced in double whatever the storage precision.

#include <kolb/kernels/moments.hpp>

namespace kolb {

struct ObservableSums {
  double mass = 0;
  double momentum[3] = {0, 0, 0};
  double kinetic_energy = 0;
  double internal_energy = 0;  // sum rho T^H (thermal lattices; 0 otherwise)
  double speed_sum = 0;
  double max_speed = 0;
  double fluid_sites = 0;

  KOKKOS_INLINE_FUNCTION void add(const ObservableSums& o) {
    mass += o.mass;
    for (int a = 0; a < 3; ++a) momentum[a] += o.momentum[a];
    kinetic_energy += o.kinetic_energy;
    internal_energy += o.internal_energy;
    speed_sum += o.speed_sum;
    max_speed = max_speed > o.max_speed ? max_speed : o.max_speed;
    fluid_sites += o.fluid_sites;
  }
  double mean_speed() const { return fluid_sites > 0 ? speed_sum / fluid_sites : 0.0; }
};

template <class Lattice, class Scalar, class Layout, class ExecSpace>
struct Observables {
  using memory_space = typename ExecSpace::memory_space;
  using block_type = Block<Lattice, Scalar, Layout, ExecSpace>;
  using value_type = ObservableSums;

  SiteMoments<Lattice, Scalar, Layout, memory_space> m_site;
  Kokkos::View<const material_t*, memory_space> m_material;
  index_t m_sy, m_sz;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x, value_type& sum) const {
    const index_t s = x + m_sy * y + m_sz * z;
    if (m_material(s) != kFluid) return;
    Scalar rho, u[3], T;
    m_site(s, rho, u, T);
    const double u2 = double(u[0]) * u[0] + double(u[1]) * u[1] + double(u[2]) * u[2];
    const double speed = math::sqrt(u2);
    sum.mass += rho;
    for (int a = 0; a < 3; ++a) sum.momentum[a] += double(rho) * u[a];
    sum.kinetic_energy += 0.5 * rho * u2;
    sum.internal_energy += double(rho) * T;
    sum.speed_sum += speed;
    // NaN must not be hidden by max(): propagate it through the speed.
    if (!(speed <= sum.max_speed)) sum.max_speed = speed;
    sum.fluid_sites += 1;
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type(); }
  KOKKOS_INLINE_FUNCTION void join(value_type& a, const value_type& b) const { a.add(b); }
#if KOKKOS_VERSION < 30700
  // Kokkos < 3.7 only calls the volatile overload (else it silently sums).
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& a, const volatile value_type& b) const {
    // Plain assignments: compound assignment to volatile is deprecated in C++20.
    a.mass = a.mass + b.mass;
    for (int k = 0; k < 3; ++k) a.momentum[k] = a.momentum[k] + b.momentum[k];
    a.kinetic_energy = a.kinetic_energy + b.kinetic_energy;
    a.internal_energy = a.internal_energy + b.internal_energy;
    a.speed_sum = a.speed_sum + b.speed_sum;
    if (!(b.max_speed <= a.max_speed)) a.max_speed = b.max_speed;
    a.fluid_sites = a.fluid_sites + b.fluid_sites;
  }
#endif

  static ObservableSums apply(const ExecSpace& exec, const block_type& block, const Scalar g[3]) {
    const Extents& e = block.extents();
    Observables o{{block.current(), block.layout(), {g[0] / 2, g[1] / 2, g[2] / 2}},
                  block.material(),
                  e.stride(1),
                  e.stride(2)};
    ObservableSums result;
    Kokkos::parallel_reduce("kolb::Observables", region_policy(exec, interior_region(e)), o,
                            result);
    return result;
  }
};

}  // namespace kolb
