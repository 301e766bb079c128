#pragma once
// Forcing policies of the isothermal collisions: how a body acceleration g
// (force F = rho g) enters a site's collision (isothermal_collision.hpp).
//  - NoForcing: none. The bulk rows of cases without a body force run it:
//    each Guo term at g = 0 is an exact zero added to a non-zero term, so it
//    gives GuoForcing's bits there with fewer instructions.
//  - GuoForcing (Guo, Zheng, Shi, Phys. Rev. E 65, 046308, 2002): the
//    velocity u = (sum f c + F/2) / rho, and the source
//    (1 - omega/2) w rho [(c - u).g / cs2 + (c.u)(c.g) / cs4], whose even
//    part relaxes with the even rate and odd part with the odd rate (TRT).
// A policy gives the collision the velocity shift g/2, a site's
// coefficients (site_terms) and each population pair's even and odd terms.

#include <kolb/core/macros.hpp>

namespace kolb {

template <class Scalar>
struct NoForcing {
  static constexpr bool active = false;
  // Zeros under GuoForcing's names, never read: nvcc 11.8 type-checks the
  // discarded `if constexpr (forced)` branches inside the collision's
  // static_for lambdas, which name them.
  Scalar g[3] = {0, 0, 0};
  struct Site {
    Scalar cu = 0, even0 = 0, odd = 0;
  };
  KOKKOS_FORCEINLINE_FUNCTION Scalar shift(int) const { return 0; }
  // Whether any component of g is non-zero.
  bool forced() const { return false; }
};

template <class Scalar>
struct GuoForcing {
  static constexpr bool active = true;
  Scalar g[3] = {0, 0, 0};  // body acceleration

  // u = j / rho + shift: half the acceleration of a step.
  KOKKOS_FORCEINLINE_FUNCTION Scalar shift(int a) const { return Scalar(0.5) * g[a]; }
  bool forced() const { return g[0] != 0 || g[1] != 0 || g[2] != 0; }

  // A site's Guo coefficients: (1 - omega_even/2) rho / cs4 (the (c.u)(c.g)
  // term), -(1 - omega_even/2) rho (u.g) / cs2 (every even term), and
  // (1 - omega_odd/2) rho / cs2 (the odd (c.g) term).
  struct Site {
    Scalar cu, even0, odd;
  };
  KOKKOS_FORCEINLINE_FUNCTION Site site_terms(Scalar rho, Scalar ug, Scalar omega_even,
                                              Scalar omega_odd, Scalar inv_cs2) const {
    const Scalar even_scale = (Scalar(1) - Scalar(0.5) * omega_even) * rho;
    const Scalar odd_scale = (Scalar(1) - Scalar(0.5) * omega_odd) * rho;
    return {even_scale * (inv_cs2 * inv_cs2), -(even_scale * inv_cs2) * ug, odd_scale * inv_cs2};
  }
};

}  // namespace kolb
