// Lattice descriptors: the moment identities every LBM derivation relies on;
// and the BGK collision without its Guo terms against the forced one at g = 0.
#include <kolb/lattice/d2q9.hpp>
#include <kolb/lattice/d3q19.hpp>
#include <kolb/model/bgk.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <tuple>

namespace {

template <class Lattice>
class LatticeTest : public ::testing::Test {};
using Lattices = ::testing::Types<kolb::D2Q9, kolb::D3Q19>;
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

// Host bulk rows of cases without a body force collide with BGK<..., false>
// (policy.hpp, for_each_site_split) and every other site with the forced
// BGK: both must give the same bits at g = 0, or a run's result would
// depend on which sites are bulk. With a force they must differ (the forced
// collision reads g).
template <class L, class T>
void expect_unforced_bits() {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> noise(-0.2, 0.2);
  kolb::BGK<L, T, true> forced;
  kolb::BGK<L, T, false> unforced;
  forced.omega = unforced.omega = T(1 / 0.53);
  int differ_with_force = 0;
  for (int site = 0; site < 2000; ++site) {
    T f[L::q], a[L::q], b[L::q], c[L::q];
    for (int i = 0; i < L::q; ++i) f[i] = T(L::w(i) * (1 + noise(gen)));
    std::memcpy(a, f, sizeof f);
    std::memcpy(b, f, sizeof f);
    std::memcpy(c, f, sizeof f);
    forced.g[0] = forced.g[1] = forced.g[2] = 0;
    forced(a);
    unforced(b);
    ASSERT_EQ(std::memcmp(a, b, sizeof a), 0) << "site " << site;
    forced.g[0] = T(1e-4), forced.g[L::dim - 1] = T(-2e-4);
    forced(c);
    differ_with_force += std::memcmp(a, c, sizeof a) != 0;
  }
  EXPECT_EQ(differ_with_force, 2000);
}

TYPED_TEST(LatticeTest, UnforcedBGKGivesTheForcedBitsAtZeroForce) {
  expect_unforced_bits<TypeParam, double>();
  expect_unforced_bits<TypeParam, float>();
}

}  // namespace
