#pragma once
// IsothermalModel: the model of the isothermal lattices (core/lattices.def):
// a lattice x a relaxation policy (BgkRates, TrtRates) x a forcing policy
// (GuoForcing, NoForcing), collided by IsothermalCollision; the
// interface of a model is in model.hpp. The stored state is post-collision:
// sum f c = rho u + F/2 with F = rho g, so u = sum f c / rho - g/2, the
// velocity the collision used.

#include <kolb/model/bgk.hpp>
#include <kolb/model/isothermal_collision.hpp>
#include <kolb/model/model.hpp>

namespace kolb {

// S: double, float, or fp16 (float arithmetic, 16-bit storage).
template <class Lattice, class S, template <class> class Rates = BgkRates,
          template <class> class Forcing = GuoForcing>
struct IsothermalModel
    : CollisionModel<Lattice, real_t<S>,
                     IsothermalCollision<Lattice, real_t<S>, Rates<real_t<S>>, Forcing<real_t<S>>>,
                     S> {
  using Scalar = real_t<S>;
  using CollisionModel<Lattice, Scalar,
                       IsothermalCollision<Lattice, Scalar, Rates<Scalar>, Forcing<Scalar>>,
                       S>::collision;
  // The bulk rows' twin when no body force acts (same bits, fewer
  // instructions; forcing.hpp).
  using unforced_type = IsothermalModel<Lattice, S, Rates, NoForcing>;
  static constexpr bool has_temperature = false;
  static constexpr bool in_place_streaming = true;
  static constexpr int max_wall_rows = 0;

  int wall_rows() const { return 0; }

  // Whether the body force is non-zero (otherwise unforced() collides alike).
  bool forced() const { return collision.forcing.forced(); }
  // This model with the forcing compiled out.
  unforced_type unforced() const {
    unforced_type m;
    m.collision.rates = collision.rates;
    return m;
  }

  template <class Get>
  KOKKOS_INLINE_FUNCTION SiteFields<Scalar> fields(const Get& f) const {
    SiteFields<Scalar> s;
    Scalar j[3] = {0, 0, 0};
    // Unrolled with literal velocities (the same sums as j += c_i f_i, whose
    // terms are 0 or ±f_i): a run-time loop over Lattice::c rebuilt its
    // table on the stack per site.
    static_for<Lattice::q>([&](auto k) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(k)::value;
      const Scalar fi = f(i);
      s.rho += fi;
      static_for<3>([&](auto b) KOLB_INLINE_LAMBDA {
        constexpr int a = decltype(b)::value;
        if constexpr (Lattice::c(i, a) == 1)
          j[a] += fi;
        else if constexpr (Lattice::c(i, a) == -1)
          j[a] -= fi;
        else if constexpr (Lattice::c(i, a) != 0)
          j[a] += Scalar(Lattice::c(i, a)) * fi;
      });
    });
    for (int a = 0; a < 3; ++a) s.u[a] = j[a] / s.rho - collision.forcing.shift(a);
    return s;
  }

  // Inlined so that a literal i folds the velocities (out of line, gcc
  // rebuilt the velocity table for every call).
  KOKKOS_FORCEINLINE_FUNCTION Scalar equilibrium(int i, const SiteFields<double>& s) const {
    const auto& F = collision.forcing;
    return isothermal_equilibrium<Lattice, Scalar>(i, s.rho, s.u[0] + F.shift(0),
                                                   s.u[1] + F.shift(1), s.u[2] + F.shift(2));
  }
};

}  // namespace kolb
