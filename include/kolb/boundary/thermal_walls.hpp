#pragma once
// D2Q37's walls (boundary.y-/y+ of the thermal model, docs/thermal.md):
// ThermalWalls, the wall condition of the model's authors (docs/reference/d2q37.md §9)
// on the 3 rows next to a bottom (y-) or top (y+) wall: streams those rows
// (the two-buffer pull of the populations that come from inside the fluid)
// and completes them, before collision; one pass instead of a propagation
// and a second read. There is no solid node: the wall lies just beyond row 2.
// At a site in row j (0, 1, 2 from the wall) the populations that would have
// come from outside (c_y pointing away from the wall by more than j) are
// unknown; they get back exactly the mass N that left the site through the
// wall, shaped as f_i = N Phi_i / S, Phi_i = 1 + xi_i.P + |xi_i|^2 E / 2,
// with P and E solved so that the site's momentum gives u^H = 0 and its
// energy the target temperature (adiabatic: T^H of row 3; fixed: T_wall on
// row 2, linear extrapolation through row 3 on rows 1 and 0), imposed as the
// raw temperature (the authors' form, the default) or as T^H = T + (g dt)^2/8
// (boundaries.y±.temperature_of). Row 2's unknowns all
// share c_y = 3, so their mass is set by the normal momentum and the rest
// population takes the difference (mass is still conserved exactly).
// Arithmetic in double whatever the storage precision (few sites).

#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/core/macros.hpp>
#include <kolb/core/static_for.hpp>
#include <kolb/model/thermal.hpp>

#include <algorithm>
#include <array>
#include <type_traits>

namespace kolb {

template <class Walls>
struct ThermalWallSides {
  Walls m_walls;
  void row(int, int y, int x0, int x1) const { m_walls.side_rows(y, x0, x1); }
};

template <class Scalar, class Layout, class MemorySpace>
struct ThermalWalls {
  static constexpr int Q = D2Q37::q;

  Kokkos::View<const Scalar*, MemorySpace> m_pre;  // pre-streaming (current)
  Kokkos::View<Scalar*, MemorySpace> m_post;       // streamed (next)
  Layout m_layout;
  index_t m_sy;
  int m_y_lo, m_y_hi;  // storage rows of the first and last interior row
  double m_gdt[2];
  double m_wall_T[2];
  int m_adiabatic[2];
  int m_raw[2];

  template <class Block>
  ThermalWalls(const Block& block, const ThermalWallSettings& s, const Scalar gdt[3])
      : m_pre(block.current()),
        m_post(block.next()),
        m_layout(block.layout()),
        m_sy(block.extents().stride(1)),
        m_y_lo(block.extents().halo[1]),
        m_y_hi(block.extents().halo[1] + block.extents().n[1] - 1),
        m_gdt{double(gdt[0]), double(gdt[1])},
        m_wall_T{s.temperature[0], s.temperature[1]},
        m_adiabatic{int(s.adiabatic[0]), int(s.adiabatic[1])},
        m_raw{int(s.raw[0]), int(s.raw[1])} {}

  // Site x of row y, which must be one of the 3 rows next to a wall.
  KOKKOS_INLINE_FUNCTION void operator()(int, int y, int x) const {
    with_row_kind(y, [&](auto side, auto j) KOLB_INLINE_LAMBDA {
      constexpr int Side = decltype(side)::value;
      site<Side, decltype(j)::value>(x, y, row3_temperature<Side>(x));
    });
  }

  // Sites [x0, x1) of row y on the host: one loop per row kind, which the
  // compiler vectorises (the site body has no branch left). A wall site
  // costs about one bulk site so; a loop over i, with the row's j a
  // runtime value, cost tens of them.
  void row(int, int y, int x0, int x1) const {
    with_row_kind(y, [&](auto side, auto j) {
      run_row<decltype(side)::value, decltype(j)::value>(y, x0, x1);
    });
  }

  // All 3 wall rows of the side of row y (any of them), sites [x0, x1), on
  // the host (launched through sides()). Every wall row of a column needs
  // row 3's temperature (37 pulls and the moments); computed once per row,
  // it was a large share of a thin D2Q37 part's step. Here it is
  // computed once per column, and the rows then run as row() runs them:
  // the same bits.
  void side_rows(int y, int x0, int x1) const {
    if (row_kind(y) < 3)
      run_side<0>(x0, x1);
    else
      run_side<1>(x0, x1);
  }

  // A host launch's functor over one row per side that runs all 3 rows of
  // that side (side_rows).
  ThermalWallSides<ThermalWalls> sides() const { return {*this}; }

  // Calls f(side, j) with the kind of row y as integral constants: side 0
  // (y-) or 1 (y+), j rows from the wall. One switch for the site and the
  // row paths, so both map a row to the same body.
  KOLB_EXEC_CHECK_DISABLE
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void with_row_kind(int y, F&& f) const {
    using I0 = std::integral_constant<int, 0>;
    using I1 = std::integral_constant<int, 1>;
    using I2 = std::integral_constant<int, 2>;
    switch (row_kind(y)) {
      case 0: f(I0{}, I0{}); break;
      case 1: f(I0{}, I1{}); break;
      case 2: f(I0{}, I2{}); break;
      case 3: f(I1{}, I0{}); break;
      case 4: f(I1{}, I1{}); break;
      default: f(I1{}, I2{}); break;
    }
  }

  // 3 side + j: side 0 (y-) or 1 (y+), j rows from the wall.
  KOKKOS_INLINE_FUNCTION int row_kind(int y) const {
    return y <= m_y_lo + 2 ? y - m_y_lo : 3 + m_y_hi - y;
  }

  // Sums over the populations a site j rows from a wall does not receive
  // (c_y pointing into the fluid, sgn c_y > j): constants of the row kind.
  struct UnknownSums {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, se = 0, sxe = 0, sye = 0, see = 0;
  };
  KOKKOS_INLINE_FUNCTION static constexpr UnknownSums unknown_sums(int sgn, int j) {
    using thermal::xi;
    UnknownSums u;
    for (int i = 0; i < Q; ++i) {
      if (sgn * D2Q37::c(i, 1) <= j) continue;
      const double x_ = xi(i, 0), y_ = xi(i, 1), e = 0.5 * (x_ * x_ + y_ * y_);
      u.n += 1, u.sx += x_, u.sy += y_, u.sxx += x_ * x_, u.sxy += x_ * y_, u.syy += y_ * y_;
      u.se += e, u.sxe += x_ * e, u.sye += y_ * e, u.see += e * e;
    }
    return u;
  }

  template <int Side, int J>
  KOLB_NOINLINE void run_row(int y, int x0, int x1) const {
    KOLB_SIMD
    for (int x = x0; x < x1; ++x) site<Side, J>(x, y, row3_temperature<Side>(x));
  }

  // side_rows in chunks of a stack buffer's row-3 temperatures.
  template <int Side>
  KOLB_NOINLINE void run_side(int x0, int x1) const {
    constexpr int chunk = 64;
    double t3[chunk];
    for (int c0 = x0; c0 < x1; c0 += chunk) {
      const int c1 = c0 + chunk < x1 ? c0 + chunk : x1;
      KOLB_SIMD
      for (int x = c0; x < c1; ++x) t3[x - c0] = row3_temperature<Side>(x);
      // Three calls, not static_for: its device-callable loop over a
      // host-only lambda is what nvcc warns about.
      chunk_row<Side, 0>(c0, c1, t3);
      chunk_row<Side, 1>(c0, c1, t3);
      chunk_row<Side, 2>(c0, c1, t3);
    }
  }
  template <int Side, int J>
  KOLB_HOST_INLINE void chunk_row(int c0, int c1, const double* t3) const {
    const int y = Side == 0 ? m_y_lo + J : m_y_hi - J;
    KOLB_SIMD
    for (int x = c0; x < c1; ++x) site<Side, J>(x, y, t3[x - c0]);
  }

  // T^H of row 3 at column x after streaming, pulled from the pre-streaming
  // buffer: the adiabatic target of every wall row, and the fixed
  // temperature's extrapolation point.
  template <int Side>
  KOKKOS_FORCEINLINE_FUNCTION double row3_temperature(int x) const {
    const double g2 = m_gdt[0] * m_gdt[0] + m_gdt[1] * m_gdt[1];
    const index_t s3 = x + m_sy * (Side == 0 ? m_y_lo + 3 : m_y_hi - 3);
    const auto st = thermal::site_state<double>([&](int i) KOLB_INLINE_LAMBDA {
      return double(m_pre(m_layout(s3 - (D2Q37::c(i, 0) + D2Q37::c(i, 1) * m_sy), i)));
    });
    return st.T + g2 / 8;
  }

  // Site x of row y, J rows from the wall of Side, t3 its column's
  // row3_temperature. Terms with a zero factor are left out; adding them
  // added +-0, so the bits are those of the sums over all i.
  template <int Side, int J>
  KOKKOS_FORCEINLINE_FUNCTION void site(int x, int y, double t3) const {
    using thermal::xi;
    constexpr int sgn = Side == 0 ? 1 : -1;  // c_y into the fluid
    constexpr UnknownSums u = unknown_sums(sgn, J);
    const index_t s = x + m_sy * y;

    double N = 0;                           // mass that left through the wall (pre-streaming)
    double mk = 0, ox = 0, oy = 0, oe = 0;  // known post-streaming content
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value, cy = sgn * D2Q37::c(i, 1);
      if constexpr (cy < -J) N += double(m_pre(m_layout(s, i)));
      if constexpr (cy <= J) {
        // Streamed in from inside the fluid (or along the row).
        constexpr double x_ = xi(i, 0), y_ = xi(i, 1), e = 0.5 * (x_ * x_ + y_ * y_);
        const Scalar pulled = m_pre(m_layout(s - (D2Q37::c(i, 0) + D2Q37::c(i, 1) * m_sy), i));
        m_post(m_layout(s, i)) = pulled;
        const double f = double(pulled);
        mk += f;
        if constexpr (x_ != 0) ox += x_ * f;
        if constexpr (y_ != 0) oy += y_ * f;
        if constexpr (e != 0) oe += e * f;
      }
    });

    const double g2 = m_gdt[0] * m_gdt[0] + m_gdt[1] * m_gdt[1];
    const double tw = m_wall_T[Side];
    const double target =
        m_adiabatic[Side] ? t3 : (J == 2 ? tw : (J == 1 ? 2 * tw - t3 : 3 * tw - 2 * t3));
    const double t_raw = m_raw[Side] ? target : target - g2 / 8;

    const double M = N + mk;
    const double px = -0.5 * M * m_gdt[0], py = -0.5 * M * m_gdt[1];  // u^H = 0
    const double E = M * t_raw + (px * px + py * py) / (2 * M);
    const double ax = px - ox, ay = py - oy, b = E - oe;

    double mass = N, Px = 0, Py = 0, Pe = 0;
    if constexpr (J < 2) {
      // (N s_ab - A_a s_b) P_b ... = A_a n - N s_a, and the energy row.
      const double m[3][4] = {
          {N * u.sxx - ax * u.sx, N * u.sxy - ax * u.sy, N * u.sxe - ax * u.se,
           ax * u.n - N * u.sx},
          {N * u.sxy - ay * u.sx, N * u.syy - ay * u.sy, N * u.sye - ay * u.se,
           ay * u.n - N * u.sy},
          {N * u.sxe - b * u.sx, N * u.sye - b * u.sy, N * u.see - b * u.se, b * u.n - N * u.se}};
      const double det = det3(m, 0, 1, 2);
      Px = det3(m, 3, 1, 2) / det;
      Py = det3(m, 0, 3, 2) / det;
      Pe = det3(m, 0, 1, 3) / det;
    } else {
      // All unknowns have xi_y = sgn 3 r: their mass fixes the normal momentum.
      mass = ay / (sgn * 3 * D2Q37::unit());
      m_post(m_layout(s, D2Q37::rest)) += Scalar(N - mass);
      const double a11 = mass * u.sxx - ax * u.sx, a12 = mass * u.sxe - ax * u.se;
      const double r1 = ax * u.n - mass * u.sx;
      const double a21 = mass * u.sxe - b * u.sx, a22 = mass * u.see - b * u.se;
      const double r2 = b * u.n - mass * u.se;
      const double det = a11 * a22 - a12 * a21;
      Px = (r1 * a22 - a12 * r2) / det;
      Pe = (a11 * r2 - r1 * a21) / det;
    }
    const double S = u.n + u.sx * Px + u.sy * Py + u.se * Pe;
    static_for<Q>([&](auto p) KOLB_INLINE_LAMBDA {
      constexpr int i = decltype(p)::value;
      if constexpr (sgn * D2Q37::c(i, 1) > J) {
        constexpr double x_ = xi(i, 0), y_ = xi(i, 1), e = 0.5 * (x_ * x_ + y_ * y_);
        double phi = 1;
        if constexpr (x_ != 0) phi += x_ * Px;
        phi += y_ * Py;  // never zero here: unknowns have |c_y| > j >= 0
        phi += e * Pe;
        m_post(m_layout(s, i)) = Scalar(mass * phi / S);
      }
    });
  }

  // Determinant of the columns c0, c1, c2 of a 3x4 matrix (Cramer's rule).
  KOKKOS_INLINE_FUNCTION static double det3(const double (&m)[3][4], int c0, int c1, int c2) {
    return m[0][c0] * (m[1][c1] * m[2][c2] - m[1][c2] * m[2][c1]) -
           m[0][c1] * (m[1][c0] * m[2][c2] - m[1][c2] * m[2][c0]) +
           m[0][c2] * (m[1][c0] * m[2][c1] - m[1][c1] * m[2][c0]);
  }
};

// The wall kernel of a thermal model's block (its rows then collide with
// model.wall_model()).
template <class Block, class Scalar, bool Regularized>
auto thermal_walls(const Block& block, const ThermalModel<Scalar, Regularized>& model) {
  return ThermalWalls<Scalar, typename Block::layout_type, typename Block::memory_space>(
      block, model.walls, model.collision.gdt);
}

// Region r of a block whose interior is `all` without the `rows` wall rows
// of the sides it holds (side[0]: y-, side[1]: y+), and, in edge[side],
// r's share of that side's wall rows (empty where r has none or the part
// holds no such wall).
struct WallRowSplit {
  Region inner, edge[2];
  WallRowSplit(const Region& r, const Region& all, int rows, const std::array<bool, 2>& side)
      : inner(r), edge{r, r} {
    if (side[0]) inner.lo[1] = std::max(inner.lo[1], all.lo[1] + rows);
    if (side[1]) inner.hi[1] = std::min(inner.hi[1], all.hi[1] - rows);
    inner.hi[1] = std::max(inner.hi[1], inner.lo[1]);
    edge[0].hi[1] = std::max(std::min(r.hi[1], all.lo[1] + rows), r.lo[1]);
    edge[1].lo[1] = std::min(std::max(r.lo[1], all.hi[1] - rows), r.hi[1]);
    for (int s = 0; s < 2; ++s)
      if (!side[s]) edge[s].hi[1] = edge[s].lo[1];
  }
};

}  // namespace kolb
