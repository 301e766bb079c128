#pragma once
// Hermite machinery of the D2Q37 model in its own units (xi = r c, T0 = 1):
// the 4th-order equilibrium, the moments (rho, j, T) of a site, and the
// Hermite coefficients up to order 4. Reference: docs/reference/d2q37.md §3-§4.
// All c-dependent factors are constexpr per population, so with the loops
// over populations unrolled they fold into constants.

#include <kolb/core/static_for.hpp>
#include <kolb/lattice/d2q37.hpp>

namespace kolb::thermal {

constexpr int Q37 = D2Q37::q;

KOKKOS_INLINE_FUNCTION constexpr double xi(int i, int a) { return D2Q37::unit() * D2Q37::c(i, a); }
KOKKOS_INLINE_FUNCTION constexpr double xi2(int i) {
  return xi(i, 0) * xi(i, 0) + xi(i, 1) * xi(i, 1);
}

// Hermite polynomials at xi_i, independent components (T0 = 1).
KOKKOS_INLINE_FUNCTION constexpr double h2(int i, int k) {
  const double x = xi(i, 0), y = xi(i, 1);
  return k == 0 ? x * x - 1 : (k == 1 ? x * y : y * y - 1);
}
KOKKOS_INLINE_FUNCTION constexpr double h3(int i, int k) {
  const double x = xi(i, 0), y = xi(i, 1);
  return k == 0   ? x * x * x - 3 * x
         : k == 1 ? x * x * y - y
         : k == 2 ? x * y * y - x
                  : y * y * y - 3 * y;
}
KOKKOS_INLINE_FUNCTION constexpr double h4(int i, int k) {
  const double x = xi(i, 0), y = xi(i, 1);
  return k == 0   ? x * x * x * x - 6 * x * x + 3
         : k == 1 ? x * x * x * y - 3 * x * y
         : k == 2 ? x * x * y * y - x * x - y * y + 1
         : k == 3 ? x * y * y * y - 3 * x * y
                  : y * y * y * y - 6 * y * y + 3;
}
// Multiplicity / n! of each independent component in a_n : H_n / n!.
KOKKOS_INLINE_FUNCTION constexpr double m2(int k) { return k == 1 ? 1.0 : 0.5; }
KOKKOS_INLINE_FUNCTION constexpr double m3(int k) { return (k == 0 || k == 3) ? 1.0 / 6 : 0.5; }
KOKKOS_INLINE_FUNCTION constexpr double m4(int k) {
  return (k == 0 || k == 4) ? 1.0 / 24 : (k == 2 ? 0.25 : 1.0 / 6);
}

// The 15 Hermite terms the regularised collision keeps, as one list: 1
// (order 0), xi_x, xi_y (order 1), then H2, H3 and H4 as above.
constexpr int kTerms = 15;
KOKKOS_INLINE_FUNCTION constexpr double term(int i, int t) {
  return t == 0   ? 1.0
         : t < 3  ? xi(i, t - 1)
         : t < 6  ? h2(i, t - 3)
         : t < 10 ? h3(i, t - 6)
                  : h4(i, t - 10);
}
// Parity of term t under xi_a -> -xi_a: its degree in xi_a, mod 2.
KOKKOS_INLINE_FUNCTION constexpr int term_parity(int t, int a) {
  constexpr int degree[kTerms] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4};
  constexpr int degree_x[kTerms] = {0, 1, 0, 2, 1, 0, 3, 2, 1, 0, 4, 3, 2, 1, 0};
  return (a == 0 ? degree_x[t] : degree[t] - degree_x[t]) % 2;
}

// Mirror orbits: the populations (+-c_x, +-c_y) of one |c_x|, |c_y| (4, or
// 2 on an axis, 1 at rest). A term's value changes only in sign across an
// orbit, so a sum over the lattice needs each orbit's 4 parity sums once.
KOKKOS_INLINE_FUNCTION constexpr int index_of(int cx, int cy) {
  for (int i = 0; i < Q37; ++i)
    if (D2Q37::c(i, 0) == cx && D2Q37::c(i, 1) == cy) return i;
  return -1;
}
// Orbit k's representative: the k-th population with c_x >= 0 and c_y >= 0.
KOKKOS_INLINE_FUNCTION constexpr int orbit_rep(int k) {
  for (int i = 0; i < Q37; ++i)
    if (D2Q37::c(i, 0) >= 0 && D2Q37::c(i, 1) >= 0 && k-- == 0) return i;
  return -1;
}
// The number of orbits (13): representatives counted until none is left.
KOKKOS_INLINE_FUNCTION constexpr int count_orbits() {
  int k = 0;
  while (orbit_rep(k) >= 0) ++k;
  return k;
}
constexpr int kOrbits = count_orbits();
// The lowest term of parity (px, py) that is not zero on orbit rep r (-1: none).
KOKKOS_INLINE_FUNCTION constexpr int first_term(int r, int px, int py) {
  for (int t = 0; t < kTerms; ++t)
    if (term_parity(t, 0) == px && term_parity(t, 1) == py && term(r, t) != 0) return t;
  return -1;
}

namespace impl {
// Every population in exactly one orbit, and every term's value on a mirror
// image the representative's times (-1)^parity, to the last bit.
constexpr bool orbits_consistent() {
  int members = 0;
  for (int k = 0; k < kOrbits; ++k) {
    const int r = orbit_rep(k), a = D2Q37::c(r, 0), b = D2Q37::c(r, 1);
    members += (a != 0 ? 2 : 1) * (b != 0 ? 2 : 1);
    for (int sx = -1; sx <= 1; sx += 2)
      for (int sy = -1; sy <= 1; sy += 2)
        for (int t = 0; t < kTerms; ++t) {
          const double sign =
              (term_parity(t, 0) && sx < 0 ? -1 : 1) * (term_parity(t, 1) && sy < 0 ? -1 : 1);
          if (term(index_of(sx * a, sy * b), t) != sign * term(r, t)) return false;
        }
  }
  return members == Q37;
}
static_assert(orbits_consistent(), "D2Q37 mirror orbits");
}  // namespace impl

// f_i^eq(rho, u, T): the expanded 4th-order Hermite form (d2q37.md §4).
template <class Scalar>
KOKKOS_FORCEINLINE_FUNCTION Scalar equilibrium(int i, Scalar rho, Scalar ux, Scalar uy, Scalar T) {
  const Scalar C = Scalar(xi2(i));
  const Scalar s = Scalar(xi(i, 0)) * ux + Scalar(xi(i, 1)) * uy;
  const Scalar U = ux * ux + uy * uy;
  const Scalar th = T - Scalar(1);
  const Scalar s2 = s * s;
  return Scalar(D2Q37::w(i)) * rho *
         (Scalar(1) + s + Scalar(0.5) * (s2 - U + th * (C - Scalar(2))) +
          s * Scalar(1.0 / 6) * (s2 - Scalar(3) * U + Scalar(3) * th * (C - Scalar(4))) +
          Scalar(1.0 / 24) * (s2 * s2 - Scalar(6) * s2 * U + Scalar(3) * U * U) +
          Scalar(0.25) * th * ((C - Scalar(4)) * (s2 - U) - Scalar(2) * s2) +
          Scalar(0.125) * th * th * (C * C - Scalar(8) * C + Scalar(8)));
}

// Density, momentum j = sum xi f and temperature of raw populations:
// rho T = 1/2 sum |xi - u|^2 f  (D = 2).
template <class Scalar>
struct SiteState {
  Scalar rho, jx, jy, T;
};

template <class Scalar, class Get>
KOKKOS_FORCEINLINE_FUNCTION SiteState<Scalar> site_state(const Get& f) {
  using math::fma;  // unqualified below: a counting scalar brings its own (ADL)
  Scalar rho = 0, jx = 0, jy = 0, e2 = 0;
  static_for<Q37>([&](auto p) KOLB_INLINE_LAMBDA {
    constexpr int i = decltype(p)::value;
    constexpr double x = xi(i, 0), y = xi(i, 1), c2 = xi2(i);
    const Scalar fi = f(i);
    rho += fi;
    if constexpr (x != 0) jx = fma(Scalar(x), fi, jx);
    if constexpr (y != 0) jy = fma(Scalar(y), fi, jy);
    if constexpr (c2 != 0) e2 = fma(Scalar(c2), fi, e2);
  });
  const Scalar inv = Scalar(1) / rho;
  const Scalar T = Scalar(0.5) * (e2 * inv - (jx * jx + jy * jy) * inv * inv);
  return {rho, jx, jy, T};
}

// Equilibrium Hermite coefficients a2..a4 (independent components).
template <class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void equilibrium_coefficients(Scalar rho, Scalar ux, Scalar uy,
                                                          Scalar T, Scalar (&a2)[3],
                                                          Scalar (&a3)[4], Scalar (&a4)[5]) {
  const Scalar th = T - Scalar(1);
  const Scalar xx = ux * ux, xy = ux * uy, yy = uy * uy;
  a2[0] = rho * (xx + th);
  a2[1] = rho * xy;
  a2[2] = rho * (yy + th);
  a3[0] = rho * ux * (xx + Scalar(3) * th);
  a3[1] = rho * uy * (xx + th);
  a3[2] = rho * ux * (yy + th);
  a3[3] = rho * uy * (yy + Scalar(3) * th);
  a4[0] = rho * (xx * xx + Scalar(6) * th * xx + Scalar(3) * th * th);
  a4[1] = rho * xy * (xx + Scalar(3) * th);
  a4[2] = rho * (xx * yy + th * (xx + yy) + th * th);
  a4[3] = rho * xy * (yy + Scalar(3) * th);
  a4[4] = rho * (yy * yy + Scalar(6) * th * yy + Scalar(3) * th * th);
}

}  // namespace kolb::thermal
