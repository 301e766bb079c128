#pragma once
// IsothermalModel: the model of the isothermal lattices (D2Q9, D3Q19, and
// any new one): BGK with Guo forcing (bgk.hpp); the interface of a model is
// in model.hpp. The stored state is post-collision: sum f c = rho u + F/2 with F = rho g,
// so u = sum f c / rho - g/2, the velocity the collision used.

#include <kolb/model/bgk.hpp>
#include <kolb/model/model.hpp>

namespace kolb {

// S: double, float, or fp16 (float arithmetic, 16-bit storage). Forced =
// false: BGK without the Guo terms, the bulk rows' twin of a model whose
// body force is zero (same bits, fewer instructions; bgk.hpp).
template <class Lattice, class S, bool Forced = true>
struct IsothermalModel : CollisionModel<Lattice, real_t<S>, BGK<Lattice, real_t<S>, Forced>, S> {
  using Scalar = real_t<S>;
  using CollisionModel<Lattice, Scalar, BGK<Lattice, Scalar, Forced>, S>::collision;
  using unforced_type = IsothermalModel<Lattice, S, false>;
  static constexpr bool has_temperature = false;
  static constexpr bool in_place_streaming = true;
  static constexpr int max_wall_rows = 0;

  int wall_rows() const { return 0; }

  // Whether the body force is non-zero (otherwise unforced() collides alike).
  bool forced() const { return collision.g[0] != 0 || collision.g[1] != 0 || collision.g[2] != 0; }
  // This model with the Guo terms compiled out (its g is zero).
  unforced_type unforced() const {
    unforced_type m;
    m.collision.omega = collision.omega;
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
    for (int a = 0; a < 3; ++a) s.u[a] = j[a] / s.rho - collision.g[a] / 2;
    return s;
  }

  // Inlined so that a literal i folds the velocities (out of line, gcc
  // rebuilt the velocity table for every call).
  KOKKOS_FORCEINLINE_FUNCTION Scalar equilibrium(int i, const SiteFields<double>& s) const {
    const Scalar ux = s.u[0] + collision.g[0] / 2, uy = s.u[1] + collision.g[1] / 2,
                 uz = s.u[2] + collision.g[2] / 2;
    return BGK<Lattice, Scalar>::equilibrium(i, s.rho, ux, uy, uz);
  }
};

}  // namespace kolb
