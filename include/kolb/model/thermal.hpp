#pragma once
// ThermalModel: the D2Q37 thermal, compressible model (docs/thermal.md) with
// the interface of IsothermalModel: the shifted-field collision (bgk or the
// authors' regularised one, a template parameter), gravity g dt, and the
// authors' thermal walls on the 3 rows next to each y wall. The physical
// fields are the half-step ones (docs/reference/d2q37.md §3):
// u^H = sum f xi / rho - g dt / 2, T^H = T + |g dt|^2 / 8.

#include <kolb/model/model.hpp>
#include <kolb/model/thermal/collision.hpp>

namespace kolb {

// The thermal walls' keys (boundary/thermal_walls.hpp applies them).
struct ThermalWallSettings {
  bool active = false;                 // walls on y- and y+ (else periodic y)
  bool adiabatic[2] = {true, true};    // y-, y+
  double temperature[2] = {1.0, 1.0};  // fixed temperature of y-, y+ when not adiabatic
  // The target is the raw temperature (the authors' code: T^H = target +
  // (g dt)^2 / 8 on the wall rows, so adiabatic rows add a little heat) or T^H.
  bool raw[2] = {true, true};
};

template <class Scalar, bool Regularized>
struct ThermalModel : CollisionModel<D2Q37, Scalar, ThermalCollision<Scalar, Regularized>> {
  using CollisionModel<D2Q37, Scalar, ThermalCollision<Scalar, Regularized>>::collision;
  static constexpr bool has_temperature = true;
  // The wall rows are completed from the pre-streaming populations, which
  // the in-place scheme overwrites.
  static constexpr bool in_place_streaming = false;
  static constexpr int max_wall_rows = 3;

  ThermalWallSettings walls;

  int wall_rows() const { return walls.active ? max_wall_rows : 0; }
  // The wall rows collide with tau = 1 (the authors' scheme, §8).
  ThermalModel wall_model() const {
    ThermalModel m = *this;
    for (int n = 0; n < 3; ++n) m.collision.tau_const[n] = 1, m.collision.tau_per_pressure[n] = 0;
    return m;
  }

  template <class Get>
  KOKKOS_INLINE_FUNCTION SiteFields<Scalar> fields(const Get& f) const {
    const auto st = thermal::site_state<Scalar>(f);
    const Scalar hx = collision.gdt[0] / 2, hy = collision.gdt[1] / 2;
    SiteFields<Scalar> s;
    s.rho = st.rho;
    s.u[0] = st.jx / st.rho - hx;
    s.u[1] = st.jy / st.rho - hy;
    s.temperature = st.T + Scalar(0.5) * (hx * hx + hy * hy);
    return s;
  }

  KOKKOS_INLINE_FUNCTION Scalar equilibrium(int i, const SiteFields<double>& s) const {
    const Scalar hx = collision.gdt[0] / 2, hy = collision.gdt[1] / 2;
    const Scalar T = Scalar(s.temperature) - Scalar(0.5) * (hx * hx + hy * hy);
    return thermal::equilibrium<Scalar>(i, s.rho, s.u[0] + hx, s.u[1] + hy, T);
  }
};

}  // namespace kolb
