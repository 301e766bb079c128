#pragma once
// The open faces' values of one link (boundary/open_faces.hpp has the
// formulas and their sources), written once for the pass that fills the
// halos (OpenSiteValues) and for the fused rows' end lanes along an open x
// face (OpenLanes, the plan's EndLane::open). The lanes take them in
// registers from a per-row stash of the face site's f*, instead of a pass
// that misses on a line of its own for every link.

#include <kolb/block/storage.hpp>
#include <kolb/core/macros.hpp>

#include <cstdint>

namespace kolb {

// What one face of the lattice is to a part: not open (a wall, periodic,
// inner or not the part's), a velocity inlet, a pressure outlet or an
// outflow.
enum class OpenKind : std::uint8_t { none, inlet, outlet, outflow };

template <class Lattice, class S>
struct OpenValues {
  using R = real_t<S>;
  using P = Storage<S>;
  using Stored = stored_t<S>;

  // The site's velocity u = Σ c f* / ρ − g/2 from its stored f* (`post(k)`).
  KOLB_EXEC_CHECK_DISABLE
  template <class Post>
  KOKKOS_FORCEINLINE_FUNCTION static void velocity(const Post& post, const R* c, const R* g, R* u) {
    R rho = 0, m[3] = {0, 0, 0};
    for (int k = 0; k < Lattice::q; ++k) {
      const R v = P::template load<Lattice>(post(k), k);
      rho += v;
      for (int a = 0; a < Lattice::dim; ++a) m[a] += c[3 * k + a] * v;
    }
    for (int a = 0; a < Lattice::dim; ++a) u[a] = m[a] / rho - R(0.5) * g[a];
  }
  // Velocity inlet: f*_ī bounced with the inlet's term `term` (its wall
  // term at this step).
  KOKKOS_FORCEINLINE_FUNCTION static Stored inlet(int i, Stored f_opposite, R term) {
    return P::template bounce<Lattice>(f_opposite, term, i);
  }
  // Pressure outlet (anti-bounce-back): 2 w_i ρ_w [1 + (c_i·u)² / (2 c_s⁴)
  // − u² / (2 c_s²)] − f*_ī, u the site's velocity.
  KOKKOS_FORCEINLINE_FUNCTION static Stored outlet(int i, R rho_w, const R* u, const R* c,
                                                   Stored f_opposite) {
    R cu = 0, uu = 0;
    for (int a = 0; a < Lattice::dim; ++a) {
      cu += c[3 * i + a] * u[a];
      uu += u[a] * u[a];
    }
    const R cs2 = R(Lattice::cs2());
    const R eq =
        R(2 * Lattice::w(i)) * rho_w * (R(1) + cu * cu / (R(2) * cs2 * cs2) - uu / (R(2) * cs2));
    return P::template store<Lattice>(
        eq - P::template load<Lattice>(f_opposite, Lattice::opposite(i)), i);
  }
};

// What the fused rows' end lanes need of the open x faces at one step:
// per side (x-, x+) its kind (none: no lanes take that side), an outlet's
// density, and an inlet's terms, [(z ny + y) Q + i] over the part's
// extents (y, z with halos), times this step's inflow factor. Every link
// of a lane site crosses into the face's fluid halo (OpenFaces checks):
// a face site next to a wall corner pulls from a solid site, is no bulk
// site and stays with the pass. Host memory: lines by pointers run on
// host spaces only.
template <class Lattice, class S>
struct OpenLanes {
  using R = real_t<S>;
  using Stored = stored_t<S>;
  using Values = OpenValues<Lattice, S>;
  Kokkos::Array<OpenKind, 2> kind{OpenKind::none, OpenKind::none};
  Kokkos::Array<R, 2> density{R(1), R(1)};
  Kokkos::Array<double, 2> inflow{1, 1};
  Kokkos::Array<const double*, 2> term{nullptr, nullptr};
  index_t ny = 1;  // the extents' rows along y, halos included
  // Per row, [(z ny + y) Q + k]: the stored f*_k of the row's site next to
  // the face, as the rows wrote it in the step before; the rows read it in
  // their lanes and write this step's after colliding. Most of those
  // populations lie on lines only other rows (or planes) stream: read at
  // the site, each would be a miss of its own.
  Kokkos::Array<Stored*, 2> stash{nullptr, nullptr};

  Kokkos::Array<R, 3> g{};
  Kokkos::Array<R, 3 * Lattice::q> c{};

  // The value side `side`'s face gives population i of the site in row
  // (y, z), from its stashed f*.
  KOLB_HOST_INLINE Stored value(int side, int i, int y, int z) const {
    const Stored* f = stash[side] + (index_t(z) * ny + y) * Lattice::q;
    const auto post = [f](int k) { return f[k]; };
    const int o = Lattice::opposite(i);
    switch (kind[side]) {
      case OpenKind::outflow: return post(i);
      case OpenKind::inlet:
        return Values::inlet(i, post(o),
                             R(term[side][(index_t(z) * ny + y) * Lattice::q + i] * inflow[side]));
      default: {
        R u[3] = {0, 0, 0};
        Values::velocity(post, c.data(), g.data(), u);
        return Values::outlet(i, density[side], u, c.data(), post(o));
      }
    }
  }
};

}  // namespace kolb
