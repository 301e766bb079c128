// Lattice descriptors: the moment identities every LBM derivation relies on;
// the collision without its Guo terms against the forced one at g = 0, and
// TRT against BGK.
#include <kolb/lattice/lattices.hpp>
#include <kolb/model/models.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <tuple>
#include <vector>

namespace {

template <class Lattice>
class LatticeTest : public ::testing::Test {};
using Lattices = ::testing::Types<kolb::D2Q9, kolb::D3Q19, kolb::D3Q27>;
TYPED_TEST_SUITE(LatticeTest, Lattices);

template <class L>
double moment(std::initializer_list<int> axes) {
  double s = 0;
  for (int i = 0; i < L::q; ++i) {
    double p = L::w(i);
    for (int a : axes) p *= L::c(i, a);
    s += p;
  }
  return s;
}

int delta(int a, int b) { return a == b ? 1 : 0; }

TYPED_TEST(LatticeTest, WeightsSumToOneAndArePositive) {
  using L = TypeParam;
  double s = 0;
  for (int i = 0; i < L::q; ++i) {
    EXPECT_GT(L::w(i), 0.0);
    s += L::w(i);
  }
  EXPECT_NEAR(s, 1.0, 1e-15);
}

TYPED_TEST(LatticeTest, VelocitiesAreDistinctAndWithinHalo) {
  using L = TypeParam;
  std::set<std::tuple<int, int, int>> seen;
  for (int i = 0; i < L::q; ++i) {
    seen.insert({L::c(i, 0), L::c(i, 1), L::c(i, 2)});
    for (int a = 0; a < 3; ++a) EXPECT_LE(std::abs(L::c(i, a)), L::halo);
    for (int a = L::dim; a < 3; ++a) EXPECT_EQ(L::c(i, a), 0);
  }
  EXPECT_EQ(int(seen.size()), L::q);
  EXPECT_EQ(L::c(0, 0) * L::c(0, 0) + L::c(0, 1) * L::c(0, 1) + L::c(0, 2) * L::c(0, 2), 0)
      << "index 0 is the rest population";
}

// D3Q27 is the tensor product of three D1Q3 (weights 2/3, 1/6, 1/6): every
// moment factorises, x^2 y^2 z^2 included (cs^6), which D3Q19 lacks (0).
TEST(D3Q27, MomentsOfTheTensorProduct) {
  using L = kolb::D3Q27;
  const double one[3] = {1, 0, 1.0 / 3};  // D1Q3: <c^0>, <c^1>, <c^2>
  const double fourth = 1.0 / 3;          // <c^4> = <c^2> on {-1, 0, 1}
  for (int p = 0; p <= 4; ++p)
    for (int q = 0; q <= 4 - p; ++q)
      for (int r = 0; r <= 2; ++r) {
        double s = 0;
        for (int i = 0; i < L::q; ++i)
          s +=
              L::w(i) * std::pow(L::c(i, 0), p) * std::pow(L::c(i, 1), q) * std::pow(L::c(i, 2), r);
        const auto m = [&](int k) { return k == 4 ? fourth : k == 3 ? 0.0 : one[k]; };
        EXPECT_NEAR(s, m(p) * m(q) * m(r), 1e-15) << p << q << r;
      }
  EXPECT_NEAR(moment<L>({0, 0, 1, 1, 2, 2}), 1.0 / 27, 1e-15);
  EXPECT_NEAR(moment<kolb::D3Q19>({0, 0, 1, 1, 2, 2}), 0.0, 1e-15);
}

TYPED_TEST(LatticeTest, OppositePairs) {
  using L = TypeParam;
  for (int i = 0; i < L::q; ++i) {
    const int o = L::opposite(i);
    EXPECT_EQ(L::opposite(o), i);
    for (int a = 0; a < 3; ++a) EXPECT_EQ(L::c(o, a), -L::c(i, a)) << "i=" << i;
    EXPECT_EQ(L::w(o), L::w(i));
  }
}

TYPED_TEST(LatticeTest, IsotropyThroughFourthOrder) {
  using L = TypeParam;
  const double cs2 = L::cs2();
  const int d = L::dim;
  for (int a = 0; a < d; ++a) {
    EXPECT_NEAR(moment<L>({a}), 0.0, 1e-15);
    for (int b = 0; b < d; ++b) {
      EXPECT_NEAR(moment<L>({a, b}), cs2 * delta(a, b), 1e-15) << a << b;
      for (int c = 0; c < d; ++c) {
        EXPECT_NEAR(moment<L>({a, b, c}), 0.0, 1e-15);
        for (int e = 0; e < d; ++e) {
          const double iso =
              cs2 * cs2 *
              (delta(a, b) * delta(c, e) + delta(a, c) * delta(b, e) + delta(a, e) * delta(b, c));
          EXPECT_NEAR(moment<L>({a, b, c, e}), iso, 1e-15) << a << b << c << e;
          for (int f = 0; f < d; ++f) EXPECT_NEAR(moment<L>({a, b, c, e, f}), 0.0, 1e-15);
        }
      }
    }
  }
}

template <class L, class T, template <class> class Rates, template <class> class Forcing>
using Collision = kolb::IsothermalCollision<L, T, Rates<T>, Forcing<T>>;

// Populations near equilibrium with noise, for `sites` sites.
template <class L, class T>
std::vector<std::array<T, L::q>> noisy_sites(int sites) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> noise(-0.2, 0.2);
  std::vector<std::array<T, L::q>> v(sites);
  for (auto& f : v)
    for (int i = 0; i < L::q; ++i) f[i] = T(L::w(i) * (1 + noise(gen)));
  return v;
}

// Host bulk rows of cases without a body force collide with NoForcing
// (policy.hpp, for_each_site_split) and every other site with GuoForcing:
// both must give the same bits at g = 0, or a run's result would depend on
// which sites are bulk. With a force they must differ (the forced
// collision reads g). c_s: Smagorinsky's constant (TRT only).
template <class L, class T, template <class> class Rates>
void expect_unforced_bits([[maybe_unused]] double c_s = 0) {
  Collision<L, T, Rates, kolb::GuoForcing> forced;
  Collision<L, T, Rates, kolb::NoForcing> unforced;
  forced.rates.set(0.53, {0.1875});
  if constexpr (Rates<T>::local_rates) forced.rates.smagorinsky(c_s, L::cs2());
  unforced.rates = forced.rates;
  int differ_with_force = 0, site = 0;
  for (const auto& f : noisy_sites<L, T>(2000)) {
    T a[L::q], b[L::q], c[L::q];
    std::memcpy(a, f.data(), sizeof a);
    std::memcpy(b, f.data(), sizeof b);
    std::memcpy(c, f.data(), sizeof c);
    forced.forcing.g[0] = forced.forcing.g[1] = forced.forcing.g[2] = 0;
    forced(a);
    unforced(b);
    ASSERT_EQ(std::memcmp(a, b, sizeof a), 0) << "site " << site++;
    forced.forcing.g[0] = T(1e-4), forced.forcing.g[L::dim - 1] = T(-2e-4);
    forced(c);
    differ_with_force += std::memcmp(a, c, sizeof a) != 0;
  }
  EXPECT_EQ(differ_with_force, 2000);
}

TYPED_TEST(LatticeTest, UnforcedCollisionGivesTheForcedBitsAtZeroForce) {
  expect_unforced_bits<TypeParam, double, kolb::BgkRates>();
  expect_unforced_bits<TypeParam, float, kolb::BgkRates>();
  expect_unforced_bits<TypeParam, double, kolb::TrtRates>();
  expect_unforced_bits<TypeParam, float, kolb::TrtRates>();
  expect_unforced_bits<TypeParam, double, kolb::TrtRates>(0.16);  // LES
  expect_unforced_bits<TypeParam, float, kolb::TrtRates>(0.16);
}

// TRT whose two rates are equal (magic = (tau - 1/2)^2) is BGK bit for bit,
// forced or not; with the magic 3/16 it differs at every site.
template <class L, class T>
void expect_trt_is_bgk_at_equal_rates() {
  const double tau = 0.8;
  Collision<L, T, kolb::BgkRates, kolb::GuoForcing> bgk;
  Collision<L, T, kolb::TrtRates, kolb::GuoForcing> trt, magic;
  bgk.rates.set(tau, {});
  trt.rates.set(tau, {(tau - 0.5) * (tau - 0.5)});
  magic.rates.set(tau, {0.1875});
  ASSERT_EQ(trt.rates.omega, trt.rates.omega_odd);
  for (auto* c : {&bgk.forcing, &trt.forcing, &magic.forcing})
    c->g[0] = T(3e-5), c->g[1] = T(-1e-5), c->g[2] = T(L::dim == 3 ? 2e-5 : 0);
  int differ = 0, site = 0;
  for (const auto& f : noisy_sites<L, T>(2000)) {
    T a[L::q], b[L::q], c[L::q];
    std::memcpy(a, f.data(), sizeof a);
    std::memcpy(b, f.data(), sizeof b);
    std::memcpy(c, f.data(), sizeof c);
    bgk(a);
    trt(b);
    magic(c);
    ASSERT_EQ(std::memcmp(a, b, sizeof a), 0) << "site " << site++;
    differ += std::memcmp(a, c, sizeof a) != 0;
  }
  EXPECT_EQ(differ, 2000);
}

TYPED_TEST(LatticeTest, TrtWithEqualRatesIsBgkBitForBit) {
  expect_trt_is_bgk_at_equal_rates<TypeParam, double>();
  expect_trt_is_bgk_at_equal_rates<TypeParam, float>();
}

// TRT conserves mass and momentum (without force) at any pair of rates.
TYPED_TEST(LatticeTest, TrtConservesMassAndMomentum) {
  using L = TypeParam;
  Collision<L, double, kolb::TrtRates, kolb::NoForcing> trt;
  trt.rates.set(0.57, {0.03});
  for (const auto& f : noisy_sites<L, double>(200)) {
    double a[L::q];
    std::memcpy(a, f.data(), sizeof a);
    trt(a);
    for (int m = 0; m < 4; ++m) {
      double before = 0, after = 0;
      for (int i = 0; i < L::q; ++i) {
        const double c = m == 0 ? 1.0 : L::c(i, m - 1);
        before += c * f[i], after += c * a[i];
      }
      EXPECT_NEAR(after, before, 1e-14) << "moment " << m;
    }
  }
}

}  // namespace
