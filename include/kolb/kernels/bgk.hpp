#pragma once
// BGK collision with Guo forcing, applied to one site's populations in
// registers. Velocity u = (sum f c + F/2) / rho, F = rho g.

#include <kolb/core/macros.hpp>

namespace kolb {

template <class Lattice, class Scalar>
struct BGK {
  Scalar omega = 1;         // 1 / tau
  Scalar g[3] = {0, 0, 0};  // body acceleration (the Guo term is exactly 0 without it)

  static constexpr int Q = Lattice::q;
  static constexpr Scalar inv_cs2 = Scalar(1.0 / Lattice::cs2());

  // Equilibrium of Hermite order 2.
  KOKKOS_FORCEINLINE_FUNCTION static Scalar equilibrium(int i, Scalar rho, Scalar ux, Scalar uy,
                                                        Scalar uz) {
    const Scalar cu = Lattice::c(i, 0) * ux + Lattice::c(i, 1) * uy + Lattice::c(i, 2) * uz;
    const Scalar usq = ux * ux + uy * uy + uz * uz;
    return Scalar(Lattice::w(i)) * rho *
           (Scalar(1) + inv_cs2 * cu + Scalar(0.5) * inv_cs2 * inv_cs2 * cu * cu -
            Scalar(0.5) * inv_cs2 * usq);
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(Scalar (&f)[Q]) const {
    Scalar rho = 0, jx = 0, jy = 0, jz = 0;
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      rho += f[i];
      jx += Lattice::c(i, 0) * f[i];
      jy += Lattice::c(i, 1) * f[i];
      jz += Lattice::c(i, 2) * f[i];
    }
    const Scalar inv_rho = Scalar(1) / rho;
    const Scalar ux = jx * inv_rho + Scalar(0.5) * g[0];
    const Scalar uy = jy * inv_rho + Scalar(0.5) * g[1];
    const Scalar uz = jz * inv_rho + Scalar(0.5) * g[2];
    const Scalar force_scale = (Scalar(1) - Scalar(0.5) * omega) * rho;
    const Scalar ug = ux * g[0] + uy * g[1] + uz * g[2];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) {
      const Scalar cx = Lattice::c(i, 0), cy = Lattice::c(i, 1), cz = Lattice::c(i, 2);
      const Scalar cu = cx * ux + cy * uy + cz * uz;
      const Scalar cg = cx * g[0] + cy * g[1] + cz * g[2];
      const Scalar feq = equilibrium(i, rho, ux, uy, uz);
      // Guo: (1 - omega/2) w_i [ (c - u)/cs2 + (c.u) c / cs4 ] . F
      const Scalar guo =
          force_scale * Scalar(Lattice::w(i)) * (inv_cs2 * (cg - ug) + inv_cs2 * inv_cs2 * cu * cg);
      f[i] = f[i] - omega * (f[i] - feq) + guo;
    }
  }
};

}  // namespace kolb
