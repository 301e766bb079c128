// 16-bit storage (block/storage.hpp, core/half.hpp): the half conversions
// against an independent oracle (ldexp decoding, nearest value by search,
// ties to even) over every half and a sweep of float bit patterns, and the
// range-shifted population codec: loads within half an ulp of the half,
// exact double copies for checkpoints.
#include <kolb/block/storage.hpp>
#include <kolb/lattice/d3q19.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

// The value of half h from its fields.
double decode(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v;
  if (exponent == 0x1f)
    v = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    v = std::ldexp(mantissa, -24);
  else
    v = std::ldexp(1024 + mantissa, exponent - 25);
  return sign ? -v : v;
}

float as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// The half nearest to x (ties to the even mantissa; beyond the largest
// finite half by half an ulp or more: infinity), by search over all halves.
std::uint16_t nearest(float x, const std::vector<double>& positive) {
  const double a = std::fabs(double(x));
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (a >= 65520.0) return sign | 0x7c00;
  const auto hi = std::lower_bound(positive.begin(), positive.end(), a);
  std::uint16_t k = std::uint16_t(hi - positive.begin());  // positive[k] >= a
  if (k > 0) {
    const double up = positive[k] - a, down = a - positive[k - 1];
    if (down < up || (down == up && (k - 1) % 2 == 0)) --k;
  }
  return sign | k;
}

TEST(Half, EveryHalfDecodesExactlyAndRoundTrips) {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = kolb::float_from_half(std::uint16_t(h));
    const double want = decode(std::uint16_t(h));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << h;
      continue;
    }
    ASSERT_EQ(double(f), want) << std::hex << h;
    ASSERT_EQ(std::signbit(f), bool(h & 0x8000)) << std::hex << h;
    ASSERT_EQ(kolb::half_from_float(f), h) << std::hex << h;
  }
}

TEST(Half, FloatsRoundToNearestEven) {
  std::vector<double> positive;  // every finite non-negative half, ascending
  for (std::uint32_t h = 0; h < 0x7c00; ++h) positive.push_back(decode(std::uint16_t(h)));
  positive.push_back(65536.0);  // where infinity (0x7c00) would lie: the search's upper end
  int checked = 0;
  auto check = [&](std::uint32_t u) {
    const float x = as_float(u);
    if (std::isnan(x)) {
      EXPECT_EQ(kolb::half_from_float(x) & 0x7c00, 0x7c00);
      EXPECT_NE(kolb::half_from_float(x) & 0x3ff, 0);
      return;
    }
    ASSERT_EQ(kolb::half_from_float(x), nearest(x, positive)) << std::hexfloat << x;
    ++checked;
  };
  for (std::uint64_t u = 0; u <= 0xffffffffu; u += 4099) check(std::uint32_t(u));
  // Ties and their neighbours in every binade of the half, both signs.
  for (std::uint32_t h = 0; h < 0x7c00; ++h)
    for (const double t : {0.5, 0.25, 0.75}) {
      const double a = decode(std::uint16_t(h)), b = h + 1 < 0x7c00 ? decode(h + 1) : 65536.0;
      const float mid = float(a + t * (b - a));
      std::uint32_t m;
      std::memcpy(&m, &mid, 4);
      for (const std::uint32_t v : {m - 1, m, m + 1}) {
        check(v);
        check(v | 0x80000000u);
      }
    }
  EXPECT_GT(checked, 1000000);
}

TEST(Fp16Storage, LoadsWithinHalfAnUlpAndCopiesExactly) {
  using P = kolb::Storage<kolb::fp16>;
  using L = kolb::D3Q19;
  for (int i = 0; i < L::q; ++i) {
    const double w = L::w(i);
    for (const double d : {0.0, 1e-9, -3.7e-7, 2.5e-5, -1e-3, 0.0123, -0.2, 0.9}) {
      const double f = w + d;
      const double got = P::load<L>(P::store<L>(float(f), i), i);
      // half of the half's ulp at |d| 2^15, scaled back, plus float rounding
      const double ulp = std::ldexp(1.0, std::ilogb(std::max(std::fabs(d) * 32768, 0x1p-14)) - 10);
      EXPECT_NEAR(got, f, 0.5 * ulp / 32768 + 4e-8) << "i " << i << " d " << d;
    }
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
      if ((h & 0x7c00) == 0x7c00) continue;               // infinities and NaNs
      const double v = P::exact<L>(std::uint16_t(h), i);  // -0 comes back as +0: the same value
      ASSERT_EQ(P::from_exact<L>(v, i), h == 0x8000 ? 0 : h) << i << " " << h;
    }
  }
  // The rest state is stored as zero bits (freshly zeroed arrays hold it).
  for (int i = 0; i < L::q; ++i) EXPECT_EQ(P::store<L>(float(L::w(i)), i), 0) << i;
}

}  // namespace
