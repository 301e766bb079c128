// D2Q37 model facts against ../shared/reference/d2q37.md: quadrature (§2),
// equilibrium moments (§4), the Hermite coefficients the regularised
// collision relaxes, and the wall rows' conditions (§9).
#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/boundary/thermal_walls.hpp>
#include <kolb/kernels/collide.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/wall_rows.hpp>
#include <kolb/layout/soa.hpp>
#include <kolb/model/thermal.hpp>
#include <kolb/model/thermal/collision.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>

namespace {

using kolb::D2Q37;
namespace th = kolb::thermal;

// Moments of the standard 1-D Gaussian: 0 for odd n, (n-1)!! for even n.
double gauss(int n) {
  if (n % 2) return 0;
  double m = 1;
  for (int k = n - 1; k > 1; k -= 2) m *= k;
  return m;
}

// Population getter for site_state (a host-device functor: a host lambda
// in the host-device template would make nvcc warn).
struct Populations {
  const double* f;
  KOKKOS_INLINE_FUNCTION double operator()(int i) const { return f[i]; }
};

double lattice_moment(int a, int b) {
  double s = 0;
  for (int i = 0; i < D2Q37::q; ++i)
    s += D2Q37::w(i) * std::pow(th::xi(i, 0), a) * std::pow(th::xi(i, 1), b);
  return s;
}

TEST(D2Q37Quadrature, WeightsSumToOneAndIndexOrder) {
  double s = 0;
  for (int i = 0; i < D2Q37::q; ++i) s += D2Q37::w(i);
  EXPECT_NEAR(s, 1.0, 1e-15);
  // Reference §2b: p = 18 rest, opposite 36 - p, c_x descending from +3.
  EXPECT_EQ(D2Q37::c(18, 0), 0);
  EXPECT_EQ(D2Q37::c(18, 1), 0);
  EXPECT_EQ(D2Q37::c(0, 0), 3);
  EXPECT_EQ(D2Q37::c(0, 1), -1);
  EXPECT_EQ(D2Q37::c(8, 0), 1);
  EXPECT_EQ(D2Q37::c(8, 1), -3);
  EXPECT_EQ(D2Q37::c(29, 0), -2);
  EXPECT_EQ(D2Q37::c(29, 1), -2);
  for (int i = 0; i < D2Q37::q; ++i) {
    EXPECT_EQ(D2Q37::c(D2Q37::opposite(i), 0), -D2Q37::c(i, 0));
    EXPECT_EQ(D2Q37::c(D2Q37::opposite(i), 1), -D2Q37::c(i, 1));
  }
  EXPECT_DOUBLE_EQ(D2Q37::w(1), 0.00024530102775771734547);
  EXPECT_DOUBLE_EQ(D2Q37::w(10), 0.05766785988879488203006);
}

TEST(D2Q37Quadrature, GaussianMomentsExactThroughDegreeNine) {
  for (int deg = 0; deg <= 9; ++deg)
    for (int a = 0; a <= deg; ++a) {
      const int b = deg - a;
      const double expect = gauss(a) * gauss(b);
      EXPECT_NEAR(lattice_moment(a, b), expect, 1e-12 * std::max(1.0, expect))
          << "<xi_x^" << a << " xi_y^" << b << ">";
    }
  // First failure at degree 10 (reference: <xi_x^10> = 914.99 vs 945,
  // <xi_x^4 xi_y^6> = 42.30 vs 45).
  EXPECT_NEAR(lattice_moment(10, 0), 914.99, 0.01);
  EXPECT_NEAR(lattice_moment(4, 6), 42.30, 0.01);
  EXPECT_GT(std::abs(lattice_moment(10, 0) - 945.0), 1.0);
}

TEST(D2Q37Equilibrium, MomentsGiveBackTheFields) {
  const double rho = 1.3, ux = 0.1, uy = -0.05, T = 1.1;
  double f[D2Q37::q];
  for (int i = 0; i < D2Q37::q; ++i) f[i] = th::equilibrium<double>(i, rho, ux, uy, T);
  const auto st = th::site_state<double>(Populations{f});
  EXPECT_NEAR(st.rho, rho, 1e-14);
  EXPECT_NEAR(st.jx / st.rho, ux, 1e-14);
  EXPECT_NEAR(st.jy / st.rho, uy, 1e-14);
  EXPECT_NEAR(st.T, T, 1e-14);
  // Pressure tensor rho T delta and zero heat flux (peculiar velocities).
  double pxx = 0, pxy = 0, pyy = 0, qx = 0, qy = 0;
  for (int i = 0; i < D2Q37::q; ++i) {
    const double cx = th::xi(i, 0) - ux, cy = th::xi(i, 1) - uy;
    pxx += cx * cx * f[i], pxy += cx * cy * f[i], pyy += cy * cy * f[i];
    qx += 0.5 * (cx * cx + cy * cy) * cx * f[i];
    qy += 0.5 * (cx * cx + cy * cy) * cy * f[i];
  }
  EXPECT_NEAR(pxx, rho * T, 1e-13);  // 1.43
  EXPECT_NEAR(pyy, rho * T, 1e-13);
  EXPECT_NEAR(pxy, 0.0, 1e-14);
  EXPECT_NEAR(qx, 0.0, 1e-13);
  EXPECT_NEAR(qy, 0.0, 1e-13);
}

TEST(D2Q37Equilibrium, HermiteProjectionMatchesTheCoefficients) {
  const double rho = 0.9, ux = -0.07, uy = 0.12, T = 0.93;
  double a2[3] = {0, 0, 0}, a3[4] = {0, 0, 0, 0}, a4[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < D2Q37::q; ++i) {
    const double f = th::equilibrium<double>(i, rho, ux, uy, T);
    for (int k = 0; k < 3; ++k) a2[k] += th::h2(i, k) * f;
    for (int k = 0; k < 4; ++k) a3[k] += th::h3(i, k) * f;
    for (int k = 0; k < 5; ++k) a4[k] += th::h4(i, k) * f;
  }
  double e2[3], e3[4], e4[5];
  th::equilibrium_coefficients<double>(rho, ux, uy, T, e2, e3, e4);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(a2[k], e2[k], 1e-14) << "a2 " << k;
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(a3[k], e3[k], 1e-14) << "a3 " << k;
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(a4[k], e4[k], 1e-13) << "a4 " << k;
}

// With tau = 1 and no gravity both collisions return f^eq of the site's
// moments exactly (BGK by construction; the regularised one because f^eq is
// its own order-4 Hermite projection), whatever the start.
TEST(D2Q37Collision, TauOneGivesTheEquilibrium) {
  double f0[D2Q37::q];
  for (int i = 0; i < D2Q37::q; ++i)
    f0[i] = th::equilibrium<double>(i, 1.1, 0.04, -0.03, 0.97) * (1 + 0.05 * std::sin(1.7 * i));
  const auto st = th::site_state<double>(Populations{f0});
  double a[D2Q37::q], b[D2Q37::q];
  for (int i = 0; i < D2Q37::q; ++i) a[i] = b[i] = f0[i];
  kolb::ThermalCollision<double, false> bgk;
  bgk.tau_const[0] = 1;
  bgk(a);
  kolb::ThermalCollision<double, true> reg;
  reg(b);  // tau 1 for every order by default
  double off = 0;
  for (int i = 0; i < D2Q37::q; ++i) {
    const double eq = th::equilibrium<double>(i, st.rho, st.jx / st.rho, st.jy / st.rho, st.T);
    EXPECT_NEAR(a[i], eq, 1e-15) << "bgk " << i;
    EXPECT_NEAR(b[i], eq, 1e-15) << "regularized " << i;
    off += std::abs(f0[i] - eq);
  }
  EXPECT_GT(off, 1e-3) << "the start must be off equilibrium";
}

// The regularised collision written term by term, one population at a time
// (d2q37.md §5-§6: project on H_0..H_4, relax orders 2-4 with their own tau,
// add rho g dt to order 1, rebuild): what the orbit form in collision.hpp
// must reproduce with any relaxation times and gravity.
void regularized_by_terms(const kolb::ThermalCollision<double, true>& c, double (&f)[D2Q37::q]) {
  double rho = 0, jx = 0, jy = 0, a2[3] = {}, a3[4] = {}, a4[5] = {};
  for (int i = 0; i < D2Q37::q; ++i) {
    rho += f[i];
    jx += th::xi(i, 0) * f[i];
    jy += th::xi(i, 1) * f[i];
    for (int k = 0; k < 3; ++k) a2[k] += th::h2(i, k) * f[i];
    for (int k = 0; k < 4; ++k) a3[k] += th::h3(i, k) * f[i];
    for (int k = 0; k < 5; ++k) a4[k] += th::h4(i, k) * f[i];
  }
  const double ux0 = jx / rho, uy0 = jy / rho;
  const double T0 = 0.5 * (a2[0] + a2[2]) / rho + 1 - 0.5 * (ux0 * ux0 + uy0 * uy0);
  double relax[3];
  for (int n = 0; n < 3; ++n) relax[n] = 1 / (c.tau_const[n] + c.tau_per_pressure[n] / (rho * T0));
  const double tau1 = 1 / relax[0];
  const double g2 = c.gdt[0] * c.gdt[0] + c.gdt[1] * c.gdt[1];
  double e2[3], e3[4], e4[5];
  th::equilibrium_coefficients(rho, ux0 + tau1 * c.gdt[0], uy0 + tau1 * c.gdt[1],
                               T0 + 0.5 * tau1 * (1 - tau1) * g2, e2, e3, e4);
  for (int k = 0; k < 3; ++k) a2[k] += relax[0] * (e2[k] - a2[k]);
  for (int k = 0; k < 4; ++k) a3[k] += relax[1] * (e3[k] - a3[k]);
  for (int k = 0; k < 5; ++k) a4[k] += relax[2] * (e4[k] - a4[k]);
  for (int i = 0; i < D2Q37::q; ++i) {
    double v = rho + th::xi(i, 0) * (jx + rho * c.gdt[0]) + th::xi(i, 1) * (jy + rho * c.gdt[1]);
    for (int k = 0; k < 3; ++k) v += th::m2(k) * a2[k] * th::h2(i, k);
    for (int k = 0; k < 4; ++k) v += th::m3(k) * a3[k] * th::h3(i, k);
    for (int k = 0; k < 5; ++k) v += th::m4(k) * a4[k] * th::h4(i, k);
    f[i] = D2Q37::w(i) * v;
  }
}

// Off equilibrium, each Hermite order with its own tau, with gravity: every
// population as the term-by-term collision gives it (so each of its mirror
// images got its own signs), to rounding.
TEST(D2Q37Collision, RegularizedMatchesTheTermByTermCollision) {
  kolb::ThermalCollision<double, true> reg;
  const double tau_const[3] = {0.55, 0.7, 0.9}, tau_per_pressure[3] = {0.01, 0.02, 0.03};
  const double gdt[3] = {2e-4, -3e-4, 0};
  for (int n = 0; n < 3; ++n) {
    reg.tau_const[n] = tau_const[n];
    reg.tau_per_pressure[n] = tau_per_pressure[n];
    reg.gdt[n] = gdt[n];
  }
  double a[D2Q37::q], b[D2Q37::q];
  for (int i = 0; i < D2Q37::q; ++i)
    a[i] = b[i] =
        th::equilibrium<double>(i, 0.9, -0.05, 0.03, 1.04) * (1 + 0.08 * std::cos(2.3 * i));
  reg(a);
  regularized_by_terms(reg, b);
  for (int i = 0; i < D2Q37::q; ++i) EXPECT_NEAR(a[i], b[i], 2e-16 * 37) << "population " << i;
}

// The wall rows (§9) on a 13 x 12 block, both sides, every row kind, fixed
// and adiabatic walls, raw and half-step targets. At every wall site the
// kernel must (1) stream in the populations that come from inside the
// fluid, unchanged (except the rest population of row 2, which takes the
// mass difference), overwriting whatever the next buffer held, (2) return
// exactly the mass that left through the wall, (3) give u^H = 0, i.e.
// momentum -M g dt / 2, and (4) the energy of the target temperature. The
// host's vectorised row loop, the per-site operator (device launches) and
// the host's launch of a side's three rows at once (side_rows, over x
// segments) must give the same bits. `physics` false checks the bits only.
template <class Layout, int nx = 13>
void check_wall_rows(bool adiabatic_low, bool raw_low, bool physics = true) {
  using BlockT = kolb::Block<D2Q37, double, Layout, Kokkos::HostSpace>;
  constexpr int ny = 12, h = D2Q37::halo;
  const kolb::Extents e({nx, ny, 1}, h, 2);
  BlockT a(e, "a"), b(e, "b"), c(e, "c");
  const kolb::SiteIndex site = e.site_index();
  auto fill = [&](const typename BlockT::population_view& v, double phase) {
    auto m = Kokkos::create_mirror(v);  // a copy: the kernel's inputs stay as they were
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x) {
        const double rho = 1 + 0.05 * std::sin(0.7 * x + 0.3 * y + phase);
        const double T = 1 + 0.04 * std::cos(0.4 * x - 0.9 * y + phase);
        for (int i = 0; i < D2Q37::q; ++i)
          m(a.layout()(site(x, y, 0), i)) =
              th::equilibrium<double>(i, rho, 0.02, -0.03, T) * (1 + 0.05 * std::cos(1.7 * i + x));
      }
    return m;
  };
  const auto pre = fill(a.current(), 0.0), post0 = fill(a.next(), 1.0);
  for (BlockT* blk : {&a, &b, &c}) {
    Kokkos::deep_copy(blk->current(), pre);
    Kokkos::deep_copy(blk->next(), post0);
  }
  kolb::ThermalWallSettings ws;
  ws.active = true;
  ws.adiabatic[0] = adiabatic_low, ws.adiabatic[1] = !adiabatic_low;
  ws.temperature[0] = 1.03, ws.temperature[1] = 0.96;
  ws.raw[0] = raw_low, ws.raw[1] = !raw_low;
  const double gdt[3] = {2e-4, -6e-4, 0};
  const kolb::ThermalWalls<double, Layout, Kokkos::HostSpace> wa(a, ws, gdt), wb(b, ws, gdt),
      wc(c, ws, gdt);
  const int rows[6] = {h, h + 1, h + 2, h + ny - 3, h + ny - 2, h + ny - 1};
  for (int y : rows) {
    wa.row(0, y, h, h + nx);
    for (int x = h; x < h + nx; ++x) wb(0, y, x);
  }
  auto fa = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.next());
  for (int y : {h + 1, h + ny - 1})  // any row of the side; two segments
    for (const auto& [x0, x1] : {std::pair<int, int>{h, h + 5}, std::pair<int, int>{h + 5, h + nx}})
      wc.sides().row(0, y, x0, x1);
  auto fb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.next());
  auto fc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.next());
  ASSERT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(double)), 0)
      << "row loop and per-site operator differ";
  ASSERT_EQ(std::memcmp(fa.data(), fc.data(), fa.size() * sizeof(double)), 0)
      << "row loop and the sides' launch differ";
  if (!physics) return;

  const double g2 = gdt[0] * gdt[0] + gdt[1] * gdt[1];
  for (int side = 0; side < 2; ++side)
    for (int j = 0; j < 3; ++j) {
      const int y = side == 0 ? h + j : h + ny - 1 - j, sgn = side == 0 ? 1 : -1;
      const int y3 = side == 0 ? h + 3 : h + ny - 4;
      for (int x = h; x < h + nx; ++x) {
        const kolb::index_t s = site(x, y, 0);
        auto at = [&](const auto& v, kolb::index_t t, int i) { return v(a.layout()(t, i)); };
        double mass = 0, M = 0, mx = 0, my = 0, en = 0;  // mass: what left + what came
        for (int i = 0; i < D2Q37::q; ++i) {
          const int cy = sgn * D2Q37::c(i, 1);
          if (cy < -j) mass += at(pre, s, i);
          // The pull of the two-buffer step.
          const double streamed = at(pre, site(x - D2Q37::c(i, 0), y - D2Q37::c(i, 1), 0), i);
          if (cy <= j && !(j == 2 && i == D2Q37::rest)) {
            EXPECT_EQ(at(fa, s, i), streamed) << "received population " << i << " not streamed";
          }
          if (cy <= j) mass += streamed;
          const double f = at(fa, s, i), x_ = th::xi(i, 0), y_ = th::xi(i, 1);
          M += f, mx += x_ * f, my += y_ * f, en += 0.5 * (x_ * x_ + y_ * y_) * f;
        }
        // Row 3's raw temperature after streaming, from its moments.
        double r3 = 0, jx3 = 0, jy3 = 0, e3 = 0;
        for (int i = 0; i < D2Q37::q; ++i) {
          const double f = at(pre, site(x - D2Q37::c(i, 0), y3 - D2Q37::c(i, 1), 0), i);
          r3 += f, jx3 += th::xi(i, 0) * f, jy3 += th::xi(i, 1) * f, e3 += th::xi2(i) * f;
        }
        const double T3 = 0.5 * (e3 / r3 - (jx3 * jx3 + jy3 * jy3) / (r3 * r3));
        const double t3 = T3 + g2 / 8, tw = ws.temperature[side];
        const double target =
            ws.adiabatic[side] ? t3 : (j == 2 ? tw : (j == 1 ? 2 * tw - t3 : 3 * tw - 2 * t3));
        const double t_raw = ws.raw[side] ? target : target - g2 / 8;
        const double px = -0.5 * mass * gdt[0], py = -0.5 * mass * gdt[1];
        const std::string where = "side " + std::to_string(side) + " row " + std::to_string(j) +
                                  " x " + std::to_string(x);
        EXPECT_NEAR(M, mass, 1e-14) << where;
        EXPECT_NEAR(mx, px, 5e-14) << where;  // sums of ~1 times |xi| <= 3.6: round-off ~1e-14
        EXPECT_NEAR(my, py, 5e-14) << where;
        EXPECT_NEAR(en, mass * t_raw + (px * px + py * py) / (2 * mass), 2e-13) << where;
      }
    }
}

TEST(D2Q37Walls, RowsKeepMassZeroVelocityAndTheTargetEnergy) {
  for (bool adiabatic_low : {true, false})
    for (bool raw_low : {true, false}) {
      check_wall_rows<kolb::SoA>(adiabatic_low, raw_low);
      check_wall_rows<kolb::CSoA<8>>(adiabatic_low, raw_low);
    }
  // Rows of 150: the sides' launch goes 64 columns at a time (bits only).
  check_wall_rows<kolb::SoA, 150>(true, false, false);
  check_wall_rows<kolb::SoA, 150>(false, true, false);
}

// A device runs the wall rows of both sides and their collisions in one
// launch (WallRowsCollided, kernels/wall_rows.hpp). Run here on the
// host, it must give the bits of the host's launches: the rows, then the
// collision over the fluid runs. Both sides whole, and a region that holds
// two of the low side's rows and all three of the high side's; a solid site
// in a wall row leaves a general site next to the runs.
template <class Layout>
void check_wall_rows_in_one_launch(int low_rows, bool solid) {
  using BlockT = kolb::Block<D2Q37, double, Layout, Kokkos::HostSpace>;
  using Model = kolb::ThermalModel<double, true>;
  constexpr int nx = 13, ny = 12, h = D2Q37::halo;
  const kolb::Extents e({nx, ny, 1}, h, 2);
  BlockT a(e, "a"), b(e, "b");
  const kolb::SiteIndex site = e.site_index();
  auto pre = Kokkos::create_mirror(a.current());
  for (int y = 0; y < e.ext(1); ++y)
    for (int x = 0; x < e.ext(0); ++x)
      for (int i = 0; i < D2Q37::q; ++i)
        pre(a.layout()(site(x, y, 0), i)) =
            th::equilibrium<double>(i, 1 + 0.04 * std::sin(0.6 * x + 0.2 * y), 0.01, -0.02,
                                    1 + 0.03 * std::cos(0.5 * x - 0.8 * y)) *
            (1 + 0.04 * std::cos(1.3 * i + y));
  for (BlockT* blk : {&a, &b}) {
    Kokkos::deep_copy(blk->current(), pre);
    Kokkos::deep_copy(blk->next(), 0.0);
    if (solid) {
      auto mat = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), blk->material());
      mat(site(h + 4, h + ny - 2, 0)) = kolb::kSolid;
      Kokkos::deep_copy(blk->material(), mat);
    }
  }
  Model model;
  model.walls.active = true;
  model.walls.adiabatic[1] = false;
  model.walls.temperature[1] = 0.97;
  model.collision.gdt[1] = -4e-4;
  const Model wall_model = model.wall_model();
  const auto fluid = kolb::find_bulk_rows<D2Q37>(
      e, Kokkos::View<const kolb::material_t*, Kokkos::HostSpace>(a.material()), false);
  ASSERT_EQ(fluid.whole, !solid);
  const Kokkos::DefaultHostExecutionSpace exec;
  kolb::Region edge[2];
  for (kolb::Region& r : edge) r.lo[0] = h, r.hi[0] = h + nx, r.lo[2] = 0, r.hi[2] = 1;
  edge[0].lo[1] = h + 3 - low_rows, edge[0].hi[1] = h + 3;
  edge[1].lo[1] = h + ny - 3, edge[1].hi[1] = h + ny;

  // The host's launches.
  const auto walls_a = kolb::thermal_walls(a, model);
  const kolb::Collide<Model, Layout, Kokkos::HostSpace> collide_a(a, wall_model);
  for (const kolb::Region& r : edge) kolb::for_each_site("rows", exec, r, walls_a);
  for (const kolb::Region& r : edge)
    kolb::for_each_site_split("collide", exec, r, collide_a, fluid);

  // One launch over both sides' rows.
  const auto walls_b = kolb::thermal_walls(b, model);
  using Walls = std::decay_t<decltype(walls_b)>;
  using C = kolb::Collide<Model, Layout, Kokkos::HostSpace>;
  const C collide_b(b, wall_model);
  kolb::Region both = edge[0];
  both.lo[1] = 0, both.hi[1] = low_rows + 3;
  kolb::for_each_site(
      "one launch", exec, both,
      kolb::WallRowsCollided<Walls, C, C, Kokkos::HostSpace>{
          walls_b, collide_b, collide_b, kolb::bulk_runs_on<Kokkos::HostSpace>(fluid), low_rows,
          edge[0].lo[1], edge[1].lo[1]});

  auto fa = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.next());
  auto fb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.next());
  ASSERT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(double)), 0)
      << "one launch and the host's launches differ (low rows " << low_rows << ", solid " << solid
      << ")";
  double moved = 0;  // the check must see the wall rows' output
  for (int x = h; x < h + nx; ++x) moved += std::abs(fa(a.layout()(site(x, h + ny - 1, 0), 5)));
  EXPECT_GT(moved, 0.0);
}

TEST(D2Q37Walls, BothSidesAndTheirCollisionsInOneLaunchGiveTheSameBits) {
  for (int low_rows : {3, 2})
    for (bool solid : {false, true}) {
      check_wall_rows_in_one_launch<kolb::SoA>(low_rows, solid);
      check_wall_rows_in_one_launch<kolb::CSoA<8>>(low_rows, solid);
    }
}

}  // namespace
