// The bandwidth probes behind `kolb bench`'s bounds move exactly the bytes
// they count: every element of every one of the K segments once, nothing in
// the gaps between them (their page-slot padding) or past them, on chunks
// that do not divide the segments, with plain and with non-temporal stores;
// and a row's repeats run between windows of its probe.
#include <kolb/app/bench_windows.hpp>
#include <kolb/kernels/stream_probes.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

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

// K segments of `len` elements, `stride` apart, in arrays with `tail`
// elements after the last one: a(i) = i + 1, b = -1 everywhere.
struct Segments {
  int k;
  kolb::index_t len, stride, size;
  view a, b;
  Segments(int k_, kolb::index_t len_, kolb::index_t stride_, kolb::index_t tail)
      : k(k_), len(len_), stride(stride_), size(k_ * stride_ + tail), a("a", size), b("b", size) {
    for (kolb::index_t i = 0; i < size; ++i) a(i) = double(i + 1), b(i) = -1.0;
  }
  bool in_segment(kolb::index_t i) const { return i < k * stride && i % stride < len; }
  // Whether b holds a's values in the segments and -1 elsewhere; resets b.
  ::testing::AssertionResult copied(const char* what) {
    for (kolb::index_t i = 0; i < size; ++i)
      if (b(i) != (in_segment(i) ? double(i + 1) : -1.0))
        return ::testing::AssertionFailure() << what << ", element " << i << ": " << b(i);
    for (kolb::index_t i = 0; i < size; ++i) b(i) = -1.0;
    return ::testing::AssertionSuccess();
  }
};

TEST(StreamProbes, CopyAndUpdateTouchEverySegmentOnce) {
  constexpr int K = 19;
  // 1000 = 142 chunks of 7 + 6; segments 1003 apart (3 elements of gap).
  Segments g(K, 1000, 1003, 25);
  run_segments<K, false>(g.a, g.b, g.len, g.stride, 7, 0.0);
  EXPECT_TRUE(g.copied("copy"));

  // The prefetching copy goes a line (8 elements) at a time within a chunk:
  // 1000 = 34 chunks of 29 (3 lines and 5) + 14 (a line and 6).
  run_segments<K, false, true>(g.a, g.b, g.len, g.stride, 29, 0.0);
  EXPECT_TRUE(g.copied("prefetching copy"));

  // The streamed copy: lines not 64-byte aligned (most of these) get plain stores.
  run_segments<K, false, true, true>(g.a, g.b, g.len, g.stride, 29, 0.0);
  EXPECT_TRUE(g.copied("streamed copy"));

  run_segments<K, true>(g.a, g.b, g.len, g.stride, 7, 2.0);
  for (kolb::index_t i = 0; i < g.size; ++i)
    ASSERT_EQ(g.a(i), (g.in_segment(i) ? 2.0 : 1.0) * (i + 1)) << "update, element " << i;

  // The prefetching update, a line at a time as the prefetching copy: every
  // segment element scaled once more, nothing else.
  run_segments<K, true, true>(g.a, g.b, g.len, g.stride, 29, 2.0);
  for (kolb::index_t i = 0; i < g.size; ++i)
    ASSERT_EQ(g.a(i), (g.in_segment(i) ? 4.0 : 1.0) * (i + 1))
        << "prefetching update, element " << i;
}

// The streamed copy writes whole aligned lines with non-temporal stores
// (segments a multiple of 8 elements apart, chunks of 4 lines) and the rest
// of a segment (4 elements after its last whole line) with plain ones.
TEST(StreamProbes, StreamedCopyWritesAlignedLinesOnce) {
  constexpr int K = 9;
  Segments g(K, 1004, 1016, 24);
  ASSERT_TRUE(kolb::host::line_aligned(g.a.data()) && kolb::host::line_aligned(g.b.data()));
  run_segments<K, false, true, true>(g.a, g.b, g.len, g.stride, 32, 0.0);
  EXPECT_TRUE(g.copied("streamed copy"));
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

// kolb bench runs a row's repeats between windows of its probe (so that a
// rise of the bandwidth during the repeats is in the bound) and reduces them
// to the median repeat, the fastest, and the best window.
TEST(BenchWindows, ProbeWindowsSurroundEveryRepeat) {
  struct Rates {
    double one, many;
  };
  std::string order;
  const std::vector<double> seconds = {3.0, 1.0, 2.0};
  // The best one-stream rate comes in a window between repeats, the best
  // Q-stream one after the last: both must count.
  const std::vector<Rates> windows = {{10, 20}, {50, 30}, {40, 45}, {25, 60}};
  const std::vector<double> peaks = {100, 150, 120, 110};
  std::size_t r = 0, w = 0, p = 0;
  const kolb::TimedRow t = kolb::time_between_probes([&] { return order += 'r', seconds.at(r++); },
                                                     [&] { return order += 'w', windows.at(w++); },
                                                     [&] { return peaks.at(p++); }, 3);
  EXPECT_EQ(order, "wrwrwrw");
  EXPECT_EQ(t.median, 2.0);
  EXPECT_EQ(t.best, 1.0);
  EXPECT_EQ(t.one, 50.0);
  EXPECT_EQ(t.many, 60.0);
  EXPECT_EQ(t.peak, 150.0);
  EXPECT_EQ(t.seconds, seconds);  // the timeline bench.json keeps
  EXPECT_EQ(t.windows, (std::vector<double>{20, 50, 45, 60}));

  // Four repeats: the median is the mean of the two middle ones.
  r = w = 0;
  const std::vector<double> seconds4 = {9.0, 2.0, 1.0, 4.0};
  const std::vector<Rates> windows5 = {{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}};
  const kolb::TimedRow t4 = kolb::time_between_probes(
      [&] { return seconds4.at(r++); }, [&] { return windows5.at(w++); }, [] { return 0.0; }, 4);
  EXPECT_EQ(w, 5u);
  EXPECT_EQ(t4.median, 3.0);
  EXPECT_EQ(t4.best, 1.0);
  EXPECT_EQ(t4.peak, 0.0);
}
