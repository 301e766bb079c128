#pragma once
// TwoBufferStep: one pull step of a block's interior, current -> next, with
// its halos already filled. Isothermal lattices: StreamCollide (or Propagate
// + Collide). D2Q37 between walls (d2q37.md §8): the rows 3 or more away
// from each wall are updated the same way; the 3 rows next to each wall are
// propagated, completed by ThermalWalls and collided with tau = 1.
// Shared by the single-block Solver and every block of a NodeSolver.

#include <kolb/io/case.hpp>
#include <kolb/kernels/collide.hpp>
#include <kolb/kernels/propagate.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/thermal/thermal_walls.hpp>

#include <cmath>

namespace kolb {

template <class Lattice, class Scalar, class Layout>
struct TwoBufferStep {
  WallTerms<Lattice, Scalar> wall;
  collision_t<Lattice, Scalar> collision;
  collision_t<Lattice, Scalar> wall_collision;  // D2Q37 wall rows
  ThermalWallSettings thermal_walls;            // D2Q37 only
  bool fused = true;

  TwoBufferStep() = default;
  // The collision, the acceleration per step and the walls a case asks for.
  TwoBufferStep(const Case& c, const MaterialTable& table)
      : wall(table), fused(c.execution.kernel == "fused") {
    if constexpr (is_thermal_v<Lattice>) {
      const ThermalSettings& t = c.thermal;
      collision.regularized = t.collision == "regularized";
      for (int n = 0; n < 3; ++n) {
        collision.tau_const[n] = Scalar(t.tau_const[n]);
        collision.tau_per_pressure[n] = Scalar(t.tau_per_pressure[n]);
      }
      // gravity g in the model's units; dt = 1/r
      for (int a = 0; a < 3; ++a) collision.gdt[a] = Scalar(c.body_force[a] / D2Q37::unit());
      wall_collision = collision;
      for (int n = 0; n < 3; ++n)
        wall_collision.tau_const[n] = 1, wall_collision.tau_per_pressure[n] = 0;
      thermal_walls.active = c.faces[2].kind != FaceKind::periodic;
      for (int side = 0; side < 2; ++side) {
        const double T = c.faces[2 + side].temperature;
        thermal_walls.adiabatic[side] = std::isnan(T);
        thermal_walls.temperature[side] = std::isnan(T) ? 1.0 : T;
      }
    } else {
      collision.omega = Scalar(1.0 / c.tau);
      for (int a = 0; a < 3; ++a) collision.g[a] = Scalar(c.body_force[a]);
    }
  }

  // Velocity gained per step by the force (what Moments subtracts half of).
  void acceleration(Scalar (&g)[3]) const {
    for (int a = 0; a < 3; ++a) {
      if constexpr (is_thermal_v<Lattice>) {
        g[a] = collision.gdt[a];
      } else {
        g[a] = collision.g[a];
      }
    }
  }

  template <class Exec>
  void apply(const Exec& exec, const Block<Lattice, Scalar, Layout, Exec>& block,
             const bulk_rows_view& bulk_rows) const {
    const Region all = interior_region(block.extents());
    if constexpr (is_thermal_v<Lattice>) {
      if (thermal_walls.active) {
        Region inner = all;
        inner.lo[1] += 3;
        inner.hi[1] -= 3;
        update(exec, block, inner, bulk_rows);
        Region rows[2] = {all, all};
        rows[0].hi[1] = all.lo[1] + 3;
        rows[1].lo[1] = all.hi[1] - 3;
        using memory_space = typename Exec::memory_space;
        for (const Region& r : rows)
          Propagate<Lattice, Scalar, Layout, Exec>::apply(exec, block, r, wall, bulk_rows);
        for (const Region& r : rows)
          for_each_site(
              "kolb::ThermalWalls", exec, r,
              ThermalWalls<Scalar, Layout, memory_space>(block, thermal_walls, collision.gdt));
        for (const Region& r : rows)
          Collide<Lattice, Scalar, Layout, Exec>::apply(exec, block, r, wall_collision, bulk_rows);
        return;
      }
    }
    update(exec, block, all, bulk_rows);
  }

 private:
  template <class Exec>
  void update(const Exec& exec, const Block<Lattice, Scalar, Layout, Exec>& block,
              const Region& region, const bulk_rows_view& bulk_rows) const {
    if (fused) {
      stream_collide(exec, block, region, bulk_rows);
    } else {
      Propagate<Lattice, Scalar, Layout, Exec>::apply(exec, block, region, wall, bulk_rows);
      collide(exec, block, region, collision, bulk_rows);
    }
  }

 public:
  // The fused and collide-only kernels with the collision fixed at compile
  // time (D2Q37: bgk or regularized), as the step and the benchmarks run them.
  template <class Exec>
  void stream_collide(const Exec& exec, const Block<Lattice, Scalar, Layout, Exec>& block,
                      const Region& region, const bulk_rows_view& bulk_rows) const {
    with_fixed(collision, [&](const auto& c) {
      using C = std::decay_t<decltype(c)>;
      StreamCollide<Lattice, Scalar, Layout, Exec, C>::apply(exec, block, region, wall, c,
                                                             bulk_rows);
    });
  }
  template <class Exec>
  void collide(const Exec& exec, const Block<Lattice, Scalar, Layout, Exec>& block,
               const Region& region, const collision_t<Lattice, Scalar>& which,
               const bulk_rows_view& bulk_rows) const {
    with_fixed(which, [&](const auto& c) {
      using C = std::decay_t<decltype(c)>;
      Collide<Lattice, Scalar, Layout, Exec, false, C>::apply(exec, block, region, c, bulk_rows);
    });
  }

 private:
  template <class F>
  static void with_fixed(const collision_t<Lattice, Scalar>& c, F&& f) {
    if constexpr (is_thermal_v<Lattice>) {
      if (c.regularized)
        f(c.template with_mode<1>());
      else
        f(c.template with_mode<0>());
    } else {
      f(c);
    }
  }
};

}  // namespace kolb
