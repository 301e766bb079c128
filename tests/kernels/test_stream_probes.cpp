// The bandwidth probes behind `kolb bench`'s bounds move exactly the bytes
// they count: every element of every one of the K segments once, nothing in
// the gaps between them (their page-slot padding) or past them, on chunks
// that do not divide the segments, with plain and with non-temporal stores.
#include <kolb/kernels/stream_probes.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using exec = Kokkos::DefaultHostExecutionSpace;
using view = Kokkos::View<double*, exec::memory_space>;

template <int K, bool InPlace, bool Prefetch = false, bool Stream = false>
void run_segments(const view& a, const view& b, kolb::index_t len, kolb::index_t stride,
                  kolb::index_t chunk, double s) {
  const kolb::StreamSegments<exec, K, InPlace, Prefetch, Stream> f{a, b, len, stride, chunk, s};
  Kokkos::parallel_for(
      Kokkos::RangePolicy<exec, Kokkos::IndexType<kolb::index_t>>(0, (len + chunk - 1) / chunk), f);
  exec().fence();
}

TEST(StreamProbes, CopyAndUpdateTouchEverySegmentOnce) {
  constexpr int K = 19;
  // 1000 = 142 chunks of 7 + 6; segments 1003 apart (3 elements of gap).
  const kolb::index_t len = 1000, stride = 1003, chunk = 7, tail = 25;
  const kolb::index_t size = K * stride + tail;
  auto in_segment = [&](kolb::index_t i) { return i < K * stride && i % stride < len; };
  view a("a", size), b("b", size);
  for (kolb::index_t i = 0; i < size; ++i) a(i) = double(i + 1), b(i) = -1.0;

  run_segments<K, false>(a, b, len, stride, chunk, 0.0);
  for (kolb::index_t i = 0; i < size; ++i)
    ASSERT_EQ(b(i), in_segment(i) ? double(i + 1) : -1.0) << "copy, element " << i;

  // The prefetching copy goes a line (8 elements) at a time within a chunk:
  // 1000 = 34 chunks of 29 (3 lines and 5) + 14 (a line and 6).
  for (kolb::index_t i = 0; i < size; ++i) b(i) = -1.0;
  run_segments<K, false, true>(a, b, len, stride, 29, 0.0);
  for (kolb::index_t i = 0; i < size; ++i)
    ASSERT_EQ(b(i), in_segment(i) ? double(i + 1) : -1.0) << "prefetching copy, element " << i;

  // The streamed copy: lines not 64-byte aligned (most of these) get plain stores.
  for (kolb::index_t i = 0; i < size; ++i) b(i) = -1.0;
  run_segments<K, false, true, true>(a, b, len, stride, 29, 0.0);
  for (kolb::index_t i = 0; i < size; ++i)
    ASSERT_EQ(b(i), in_segment(i) ? double(i + 1) : -1.0) << "streamed copy, element " << i;

  run_segments<K, true>(a, b, len, stride, chunk, 2.0);
  for (kolb::index_t i = 0; i < size; ++i)
    ASSERT_EQ(a(i), (in_segment(i) ? 2.0 : 1.0) * (i + 1)) << "update, element " << i;
}

// The streamed copy writes whole aligned lines with non-temporal stores
// (segments a multiple of 8 elements apart, chunks of 4 lines) and the rest
// of a segment (4 elements after its last whole line) with plain ones.
TEST(StreamProbes, StreamedCopyWritesAlignedLinesOnce) {
  constexpr int K = 9;
  const kolb::index_t len = 1004, stride = 1016, chunk = 32, tail = 24;
  const kolb::index_t size = K * stride + tail;
  auto in_segment = [&](kolb::index_t i) { return i < K * stride && i % stride < len; };
  view a("a", size), b("b", size);
  ASSERT_TRUE(kolb::host::line_aligned(a.data()) && kolb::host::line_aligned(b.data()));
  for (kolb::index_t i = 0; i < size; ++i) a(i) = double(i + 1), b(i) = -1.0;
  run_segments<K, false, true, true>(a, b, len, stride, chunk, 0.0);
  for (kolb::index_t i = 0; i < size; ++i)
    ASSERT_EQ(b(i), in_segment(i) ? double(i + 1) : -1.0) << "streamed copy, element " << i;
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
