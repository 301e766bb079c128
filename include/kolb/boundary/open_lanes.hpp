#pragma once
// The open faces' values of one link (boundary/open_faces.hpp has the
// formulas and their sources), written once for the pass that fills the
// halos (OpenSiteValues) and for the host rows that take an open x face at
// their ends (OpenLanes, the plan's EndLane::open): the fused two-buffer
// rows in their end lines' lanes, the in-place rows in their hooks. Both
// compute them from a per-row stash of the face site's f*, instead of a
// pass that misses on a line of its own for every link.

#include <kolb/block/extents.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/boundary/post_state.hpp>
#include <kolb/core/cache_lines.hpp>
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

// What the rows need of the open x faces at one step, to take them at
// their ends instead of the pass: the fused two-buffer rows in their end
// lines' lanes, the in-place (AA) rows in their hooks (put, keep). Per side
// (x-, x+) its kind (none: no rows take that side), an outlet's density,
// and an inlet's terms, [(z ny + y) Q + i] over the part's extents (y, z
// with halos), times this step's inflow factor. A lane site's neighbours
// are all fluid (OpenFaces leaves the others to the pass): a face site
// next to a wall corner pulls from a solid site. Host memory: only host
// rows take lanes.
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
  // Per row, [z ny + y]: whether its site next to the face is a lane site
  // (the others keep the pass: next to a wall, or not in the row's run).
  Kokkos::Array<const std::uint8_t*, 2> lane{nullptr, nullptr};

  Kokkos::Array<R, 3> g{};
  Kokkos::Array<R, 3 * Lattice::q> c{};
  // In place: the lane sites' x per side, and site x + c_k = x + offset[k].
  Kokkos::Array<int, 2> x{-1, -1};
  Kokkos::Array<index_t, Lattice::q> offset{};

  KOLB_HOST_INLINE index_t row(int y, int z) const { return (index_t(z) * ny + y) * Lattice::q; }
  // Whether row (y, z) takes side `side` at its end.
  KOLB_HOST_INLINE bool takes(int side, int y, int z) const {
    return kind[side] != OpenKind::none && lane[side][index_t(z) * ny + y];
  }

  // The values side `side`'s face gives the populations i entering the
  // site of row (y, z) across it (c_ix = 1 on x-, -1 on x+), into v[i],
  // from its stashed f*: the outlet's velocity once for all of them.
  KOLB_HOST_INLINE void values(int side, int y, int z, Stored* v) const {
    const Stored* f = stash[side] + row(y, z);
    const auto post = [f](int k) { return f[k]; };
    const OpenKind k = kind[side];
    R u[3] = {0, 0, 0};
    if (k == OpenKind::outlet) Values::velocity(post, c.data(), g.data(), u);
    const double* t = k == OpenKind::inlet ? term[side] + row(y, z) : nullptr;
    KOLB_UNROLL
    for (int i = 0; i < Lattice::q; ++i) {
      if (Lattice::c(i, 0) != (side == 0 ? 1 : -1)) continue;
      const int o = Lattice::opposite(i);
      v[i] = k == OpenKind::outflow ? post(i)
             : k == OpenKind::inlet ? Values::inlet(i, post(o), R(t[i] * inflow[side]))
                                    : Values::outlet(i, density[side], u, c.data(), post(o));
    }
  }

  // Asks for the next row's stash entries and inlet terms: a line or three
  // a row that no hardware prefetcher follows.
  KOLB_HOST_INLINE void prefetch_next(int y, int z) const {
    const index_t next = row(y + 1, z);
    for (int side = 0; side < 2; ++side) {
      if (kind[side] == OpenKind::none) continue;
      for (int k = 0; k < Lattice::q; k += host::kLineBytes / int(sizeof(Stored)))
        host::prefetch_read(stash[side] + next + k);
      if (kind[side] == OpenKind::inlet)
        for (int k = 0; k < Lattice::q; k += host::kLineBytes / int(sizeof(double)))
          host::prefetch_read(term[side] + next + k);
    }
  }

  // In place (AA), the rows' hooks (host_rows.hpp, run_bulk) for bulk run
  // [b, e) of row (y, z), `pull` for the pull step, else the local step:
  //  - row_start: the x- lane's values, where the step reads them (put);
  //  - row_last, before the row's last site: the x+ lane's;
  //  - row_end: each lane site's f* into the stash for the next step
  //    (keep), from lines the row has just touched.
  template <class View, class Layout>
  KOLB_HOST_INLINE void row_start(const View& f, const Layout& layout, const SiteIndex& site, int z,
                                  int y, int b, bool pull) const {
    if (b == x[0] && takes(0, y, z)) put(0, site(x[0], y, z), y, z, pull, f, layout);
    prefetch_next(y, z);
  }
  template <class View, class Layout>
  KOLB_HOST_INLINE void row_last(const View& f, const Layout& layout, const SiteIndex& site, int z,
                                 int y, int e, bool pull) const {
    if (e == x[1] + 1 && takes(1, y, z)) put(1, site(x[1], y, z), y, z, pull, f, layout);
  }
  template <class View, class Layout>
  KOLB_HOST_INLINE void row_end(const View& f, const Layout& layout, const SiteIndex& site, int z,
                                int y, int b, int e, bool pull) const {
    const PostState state = pull ? PostState::pushed : PostState::swapped;
    if (b == x[0] && takes(0, y, z)) keep(stash[0] + row(y, z), site(x[0], y, z), state, f, layout);
    if (e == x[1] + 1 && takes(1, y, z))
      keep(stash[1] + row(y, z), site(x[1], y, z), state, f, layout);
  }

  // Side `side`'s values for lane site s of row (y, z): before a pull into
  // the halo slots it pulls them from (slot ī of s − c_i, swapped), before
  // a local step into s's own slots i.
  template <class View, class Layout>
  KOLB_HOST_INLINE void put(int side, index_t s, int y, int z, bool pull, const View& f,
                            const Layout& layout) const {
    Stored v[Lattice::q];
    values(side, y, z, v);
    KOLB_UNROLL
    for (int i = 0; i < Lattice::q; ++i)
      if (Lattice::c(i, 0) == (side == 0 ? 1 : -1))
        f(pull ? layout(s - offset[i], Lattice::opposite(i)) : layout(s, i)) = v[i];
  }
  // Lane site s's f*, held as `state` (after a pull: pushed, after a local
  // step: swapped), into `out` (its row's stash entries).
  template <class View, class Layout>
  KOLB_HOST_INLINE void keep(Stored* out, index_t s, PostState state, const View& f,
                             const Layout& layout) const {
    for (int k = 0; k < Lattice::q; ++k)
      out[k] = f(state == PostState::stored    ? layout(s, k)
                 : state == PostState::swapped ? layout(s, Lattice::opposite(k))
                                               : layout(s + offset[k], k));
  }
};

}  // namespace kolb
