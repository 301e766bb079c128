#pragma once
// What every model gives the kernels (IsothermalModel and ThermalModel are
// the two; kernels never ask which lattice they run):
//  - operator()(f): the collision of one site's populations, in registers;
//  - collide(get, put): the same, reading population i through get(i) and
//    writing it through put(i, value) (the bulk kernels' form);
//  - fields(f): the physical fields (SiteFields) of a site's stored populations;
//  - equilibrium(i, fields): population i of the stored state with those fields;
//  - wall_rows(): rows next to the y walls that the model's own wall
//    condition completes (max_wall_rows = 0: bounce-back only; else also
//    wall_model(), the rows' collision; boundary/thermal_walls.hpp);
//  - has_temperature, in_place_streaming: what the model outputs and runs.

#include <kolb/block/storage.hpp>
#include <kolb/core/macros.hpp>

#include <type_traits>

namespace kolb {

template <class T>
struct SiteFields {
  T rho = 0;
  T u[3] = {0, 0, 0};
  T temperature = 0;  // models with a temperature (D2Q37: T^H); 0 otherwise
};

// Whether a collision has streamed(get, put): it uses each population as it
// is read and writes each result as it is made (all reads come first).
template <class C, class = void>
struct streams_populations : std::false_type {};
template <class C>
struct streams_populations<C, std::enable_if_t<C::streams>> : std::true_type {};

// The part every model shares: its lattice, arithmetic type, collision, and
// the variant's scalar S (block/storage.hpp: how populations are stored).
template <class Lattice, class Scalar, class Collision, class S = Scalar>
struct CollisionModel {
  using lattice_type = Lattice;
  using value_type = Scalar;
  using scalar_type = S;

  Collision collision;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Lattice::q]) const { collision(f); }

  // One site's collision from get(i) to put(i, value); the same bits as
  // operator(). A streaming collision keeps only its sums live; the others
  // gather all Q inputs first. Host passes give it host lambdas.
  KOLB_EXEC_CHECK_DISABLE
  template <class Get, class Put>
  KOKKOS_FORCEINLINE_FUNCTION void collide(const Get& get, const Put& put) const {
    if constexpr (streams_populations<Collision>::value) {
      collision.streamed(get, put);
    } else {
      Scalar f[Lattice::q];
      KOLB_UNROLL
      for (int i = 0; i < Lattice::q; ++i) f[i] = get(i);
      collision(f);
      KOLB_UNROLL
      for (int i = 0; i < Lattice::q; ++i) put(i, f[i]);
    }
  }
};

}  // namespace kolb
