// The bandwidth probes behind `kolb bench`'s bounds move exactly the bytes
// they count: every element of every one of the K segments once, nothing past
// them, on chunks that do not divide the segments.
#include <kolb/kernels/stream_probes.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using exec = Kokkos::DefaultHostExecutionSpace;
using view = Kokkos::View<double*, exec::memory_space>;

template <int K, bool InPlace, bool Prefetch = false>
void run_segments(const view& a, const view& b, kolb::index_t len, kolb::index_t chunk, double s) {
  const kolb::StreamSegments<exec, K, InPlace, Prefetch> f{a, b, len, chunk, s};
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec, Kokkos::IndexType<kolb::index_t>>(0, (len + chunk - 1) / chunk), f);
  exec().fence();
}

TEST(StreamProbes, CopyAndUpdateTouchEverySegmentOnce) {
  constexpr int K = 19;
  const kolb::index_t len = 1000, chunk = 7, tail = 25;  // 1000 = 142 chunks of 7 + 6
  view a("a", K * len + tail), b("b", K * len + tail);
  for (kolb::index_t i = 0; i < K * len + tail; ++i) a(i) = double(i + 1), b(i) = -1.0;

  run_segments<K, false>(a, b, len, chunk, 0.0);
  for (kolb::index_t i = 0; i < K * len; ++i)
    ASSERT_EQ(b(i), double(i + 1)) << "copy, element " << i;
  for (kolb::index_t i = K * len; i < K * len + tail; ++i)
    ASSERT_EQ(b(i), -1.0) << "past the segments";

  // The prefetching copy goes a line (8 elements) at a time within a chunk:
  // 1000 = 34 chunks of 29 (3 lines and 5) + 14 (a line and 6).
  for (kolb::index_t i = 0; i < K * len + tail; ++i) b(i) = -1.0;
  run_segments<K, false, true>(a, b, len, 29, 0.0);
  for (kolb::index_t i = 0; i < K * len; ++i)
    ASSERT_EQ(b(i), double(i + 1)) << "prefetching copy, element " << i;
  for (kolb::index_t i = K * len; i < K * len + tail; ++i)
    ASSERT_EQ(b(i), -1.0) << "past the segments (prefetching copy)";

  run_segments<K, true>(a, b, len, chunk, 2.0);
  for (kolb::index_t i = 0; i < K * len; ++i)
    ASSERT_EQ(a(i), 2.0 * (i + 1)) << "update, element " << i;
  for (kolb::index_t i = K * len; i < K * len + tail; ++i) ASSERT_EQ(a(i), double(i + 1));
}

TEST(StreamProbes, RatesForEveryLatticeStreamCount) {
  const kolb::StreamProbes<exec> probes(exec(), 1 << 16);
  for (const int q : {1, 9, 19, 37})
    for (const auto p : {kolb::StreamPattern::copy, kolb::StreamPattern::update}) {
      // A prefix of the arrays, and more elements than they hold (clamped).
      for (const kolb::index_t elements : {kolb::index_t(5000), kolb::index_t(1) << 20}) {
        const kolb::StreamRates r = probes.measure_streams(p, 1, q, elements);
        EXPECT_TRUE(std::isfinite(r.one) && r.one > 0) << q;
        EXPECT_TRUE(std::isfinite(r.many) && r.many > 0) << q;
        EXPECT_EQ(probes.measure(p, 1, q, elements) > 0, true);
      }
    }
  EXPECT_THROW(probes.measure(kolb::StreamPattern::copy, 1, 5), std::invalid_argument);
}

}  // namespace
