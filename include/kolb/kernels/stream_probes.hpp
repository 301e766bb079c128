#pragma once
// STREAM-like bandwidth probes, run on the same execution space as the LBM
// kernels, one per access pattern a kernel row is judged against
// (docs/performance.md, "How to measure"):
//   copy      b[i] = a[i]        two-buffer kernels (read one array, write another)
//   update    a[i] = s a[i]      in-place kernels (AA, Collide): read and write one array
//   triad     a[i] = b[i] + s c[i]   the familiar STREAM reference
// Copy and update are each timed over one stream and over as many
// concurrent streams as the lattice has populations (the array cut into Q
// equal segments, element i of every segment in one vectorised iteration, as
// a SoA kernel reads and writes Q streams at once; host copies also with the
// two-buffer kernels' software prefetch and with their non-temporal line
// stores, host updates with the in-place kernels' prefetch), and the best of
// them is the bound: one stream may copy faster than Q, while Q-stream and
// prefetching in-place kernels ran above a plain one-stream update probe.
// Bytes are counted as STREAM does (2, 2 and 3 doubles per element; a
// write-allocate read is not counted), like the kernels' 2 Q sizeof(scalar)
// per site update, so a kernel and its probe are counted alike.

#include <kolb/core/allocate.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/layout/population_stride.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kolb {

enum class StreamPattern { copy, update, triad };

// A probe's bandwidth over one stream and over a lattice's Q streams, GB/s
// (on host spaces: the better of plain and prefetched streams).
struct StreamRates {
  double one = 0, many = 0;
};

// Copy (InPlace = false: b = a) or in-place update (a = s a) of K streams:
// element i of each of the K segments of length `len`, `stride` elements
// apart (population_stride: spread over the 64-byte slots of a 4 KiB page as
// the SoA populations are). One work item is a chunk of `chunk` consecutive
// i (a host row, vectorised over i; 1 on devices, one thread per i with
// coalesced accesses in every segment).
// Prefetch = true (host probes): a line of elements at a time, asking first
// for the source lines host::kPrefetchLines on, as the two-buffer kernels'
// line path does (StreamCollide::prefetch_sources), or as far as the in-place
// rows ask for updates (RowPrefetch), so the bounds include what prefetching
// gives a plain copy or update. Stream = true (host copies, with Prefetch):
// each line is written with a non-temporal store (no write-allocate read), as the
// two-buffer kernels' line path writes its outputs (StreamCollide::bulk_line),
// so a kernel that skips the write-allocate is judged against a copy that
// skips it too.
template <class ExecSpace, int K, bool InPlace, bool Prefetch = false, bool Stream = false>
struct StreamSegments {
  static_assert(!Stream || (Prefetch && !InPlace), "streamed stores: prefetched copies only");
  static constexpr int kLine = host::line_values<double>;  // elements per line
  // Elements prefetched ahead: the same bytes ahead as the kernels'.
  static constexpr int kAhead =
      InPlace ? RowPrefetch<double>::prefetch_sites : host::kPrefetchLines * kLine;
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a, m_b;
  index_t m_len, m_stride, m_chunk;
  double m_s;
  KOKKOS_INLINE_FUNCTION void operator()(index_t c) const {
    const index_t lo = c * m_chunk, hi = lo + m_chunk < m_len ? lo + m_chunk : m_len;
    if constexpr (Prefetch) {
      index_t i = lo;
      for (; i + kLine <= hi; i += kLine) {
        KOLB_UNROLL
        for (int k = 0; k < K; ++k) host::prefetch_read(m_a.data() + k * m_stride + i + kAhead);
        if constexpr (Stream)
          stream_lines(i);
        else
          elements(i, i + kLine);
      }
      elements(i, hi);
      if constexpr (Stream) host::stream_fence();
    } else {
      elements(lo, hi);
    }
  }
  // The line at element i of every segment, copied with non-temporal stores
  // (a plain copy where a segment's line is not 64-byte aligned).
  KOKKOS_FORCEINLINE_FUNCTION void stream_lines(index_t i) const {
    KOLB_UNROLL
    for (int k = 0; k < K; ++k) {
      const double* from = m_a.data() + k * m_stride + i;
      double* to = m_b.data() + k * m_stride + i;
      if (host::line_aligned(from) && host::line_aligned(to))
        host::stream_line(to, from);
      else
        for (int j = 0; j < kLine; ++j) to[j] = from[j];
    }
  }
  // Element i of every segment is loaded before any is stored, as a kernel
  // loads a site's Q populations before it stores them. Load, store, load...
  // would chain the K loads of a GPU thread one after another (the compiler
  // cannot move a load above a store that may alias it): on a GPU that
  // capped the in-place Q-stream probe below the AA kernels.
  KOKKOS_FORCEINLINE_FUNCTION void elements(index_t lo, index_t hi) const {
    double* const a = m_a.data();
    double* const b = m_b.data();
    KOLB_SIMD
    for (index_t i = lo; i < hi; ++i) {
      double v[K];
      KOLB_UNROLL
      for (int k = 0; k < K; ++k) v[k] = a[k * m_stride + i];
      KOLB_UNROLL
      for (int k = 0; k < K; ++k) {
        if constexpr (InPlace)
          a[k * m_stride + i] = m_s * v[k];
        else
          b[k * m_stride + i] = v[k];
      }
    }
  }
};

template <class ExecSpace>
struct StreamTriad {
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a, m_b, m_c;
  double m_s;
  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const { m_a(i) = m_b(i) + m_s * m_c(i); }
};

template <class ExecSpace>
struct ProbeFill {
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a, m_b, m_c;
  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const {
    m_a(i) = 1.0, m_b(i) = 1.0, m_c(i) = 2.0;
  }
};

// The three probes over three arrays of n doubles, allocated (on huge pages
// like the lattice's populations, core/allocate.hpp; first touched by the
// probes' own launch layout) once and reused.
template <class ExecSpace>
class StreamProbes {
 public:
  using view = Kokkos::View<double*, typename ExecSpace::memory_space>;
  StreamProbes(const ExecSpace& exec, index_t n)
      : m_exec(exec),
        m_a(allocate_untouched<view>("kolb::probe.a", n)),
        m_b(allocate_untouched<view>("kolb::probe.b", n)),
        m_c(allocate_untouched<view>("kolb::probe.c", n)) {
    const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>> all(exec, 0, n);
    Kokkos::parallel_for("kolb::ProbeFirstTouch", all, ProbeFill<ExecSpace>{m_a, m_b, m_c});
    exec.fence();
  }

  // Best bandwidth in GB/s of `pattern` over `repeats` timings and the first
  // `elements` doubles of each array (0: all), so a probe can span what the
  // kernel it judges spans (the share of it a large cache keeps between
  // sweeps included). Copy and update: the better of one stream and
  // `streams` concurrent ones (1, 9, 19 or 37: a lattice's Q). A timing
  // covers at least ~2e7 elements (several launches on small arrays), so a
  // cache-sized probe is not a measurement of launch latency.
  double measure(StreamPattern pattern, int repeats, int streams = 1, index_t elements = 0) const {
    const StreamRates r = measure_streams(pattern, repeats, streams, elements);
    return std::max(r.one, r.many);
  }

  // Copy or update over one stream and over `streams` (GB/s each), as above.
  StreamRates measure_streams(StreamPattern pattern, int repeats, int streams,
                              index_t elements = 0) const {
    const index_t all = index_t(m_a.extent(0));
    const index_t n = elements > 0 && elements < all ? elements : all;
    const int launches = int(std::max<index_t>(1, index_t(2e7) / std::max<index_t>(n, 1)));
    switch (pattern) {
      case StreamPattern::copy: {
        double one = over_streams<false>(1, n, launches, repeats);
        double many = over_streams<false>(streams, n, launches, repeats);
        if constexpr (is_host_space_v<ExecSpace>) {
          one = std::max(one, over_streams<false, true, true>(1, n, launches, repeats));
          many = std::max({many, over_streams<false, true>(streams, n, launches, repeats),
                           over_streams<false, true, true>(streams, n, launches, repeats)});
        }
        return {2 * one, 2 * many};
      }
      case StreamPattern::update: {  // s = 1: the values stay put however often it runs
        double one = over_streams<true>(1, n, launches, repeats);
        double many = over_streams<true>(streams, n, launches, repeats);
        if constexpr (is_host_space_v<ExecSpace>) {
          one = std::max(one, over_streams<true, true>(1, n, launches, repeats));
          many = std::max(many, over_streams<true, true>(streams, n, launches, repeats));
        }
        return {2 * one, 2 * many};
      }
      case StreamPattern::triad: {
        const double t = 3 * rate("kolb::StreamTriad", StreamTriad<ExecSpace>{m_a, m_b, m_c, 3.0},
                                  std::size_t(n), n, launches, repeats);
        return {t, t};
      }
    }
    return {};
  }

 private:
  template <bool InPlace, bool Prefetch = false, bool Stream = false>
  double over_streams(int streams, index_t n, int launches, int repeats) const {
    switch (streams) {
      case 1: return segments<1, InPlace, Prefetch, Stream>(n, launches, repeats);
      case 9: return segments<9, InPlace, Prefetch, Stream>(n, launches, repeats);
      case 19: return segments<19, InPlace, Prefetch, Stream>(n, launches, repeats);
      case 37: return segments<37, InPlace, Prefetch, Stream>(n, launches, repeats);
    }
    throw std::invalid_argument("stream probe: no " + std::to_string(streams) + "-stream variant");
  }
  template <int K, bool InPlace, bool Prefetch, bool Stream>
  double segments(index_t n, int launches, int repeats) const {
    // Segments spaced like population arrays; their padding (< a page each)
    // comes out of the n elements (tiny probes: plain segments).
    constexpr index_t page = kPageBytes / index_t(sizeof(double));
    const index_t room = n / K > 2 * page ? page : 0;
    const index_t len = n / K - room;
    const index_t stride = room > 0 ? population_stride(len, K, sizeof(double)) : len;
    const index_t chunk = is_host_space_v<ExecSpace> ? 1024 : 1;
    using Probe = StreamSegments<ExecSpace, K, InPlace, Prefetch, Stream>;
    const Probe f{m_a, m_b, len, stride, chunk, 1.0};
    return rate(InPlace ? "kolb::StreamUpdate" : "kolb::StreamCopy", f,
                std::size_t((len + chunk - 1) / chunk), len * K, launches, repeats);
  }

  // GB/s of one double per element (`elements` of them, in `items` work
  // items): the best of `repeats` timings of `launches` launches (after one
  // untimed warm-up launch).
  template <class F>
  double rate(const char* label, const F& f, std::size_t items, index_t elements, int launches,
              int repeats) const {
    // CUDA: kolb's own launch (kernels/device_launch.hpp).
    const int block = probe_block_size();
    for_each_index(label, m_exec, index_t(items), f, block);
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      m_exec.fence();
      Kokkos::Timer timer;
      for (int k = 0; k < launches; ++k) for_each_index(label, m_exec, index_t(items), f, block);
      m_exec.fence();
      best = std::min(best, timer.seconds() / launches);
    }
    return sizeof(double) * double(elements) / best * 1e-9;
  }

  ExecSpace m_exec;
  view m_a, m_b, m_c;
};

}  // namespace kolb
