#pragma once
// STREAM-like bandwidth probes, run on the same execution space as the LBM
// kernels, one per access pattern a kernel row is judged against
// (docs/performance.md, "Bounds"):
//   copy      b[i] = a[i]        two-buffer kernels (read one array, write another)
//   update    a[i] = s a[i]      in-place kernels (AA, Collide): read and write one array
//   triad     a[i] = b[i] + s c[i]   the familiar STREAM reference
// Bytes are counted as STREAM does (2, 2 and 3 doubles per element; a
// write-allocate read is not counted), like the kernels' 2 Q sizeof(scalar)
// per site update, so a kernel and its probe are counted alike.

#include <kolb/core/allocate.hpp>
#include <kolb/kernels/policy.hpp>

#include <algorithm>

namespace kolb {

enum class StreamPattern { copy, update, triad };

template <class ExecSpace>
struct StreamTriad {
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a, m_b, m_c;
  double m_s;
  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const { m_a(i) = m_b(i) + m_s * m_c(i); }
};

template <class ExecSpace>
struct StreamCopy {
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a, m_b;
  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const { m_b(i) = m_a(i); }
};

template <class ExecSpace>
struct StreamUpdate {
  Kokkos::View<double*, typename ExecSpace::memory_space> m_a;
  double m_s;
  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const { m_a(i) = m_s * m_a(i); }
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

  // Best bandwidth in GB/s of `pattern` over `repeats` timings. A timing
  // covers at least ~2e7 elements (several launches on small arrays), so a
  // cache-sized probe is not a measurement of launch latency.
  double measure(StreamPattern pattern, int repeats) const {
    const index_t n = index_t(m_a.extent(0));
    const int launches = int(std::max<index_t>(1, index_t(2e7) / std::max<index_t>(n, 1)));
    switch (pattern) {
      case StreamPattern::copy:
        return 2 * rate("kolb::StreamCopy", StreamCopy<ExecSpace>{m_a, m_b}, launches, repeats);
      case StreamPattern::update:  // s = 1: the values stay put however often it runs
        return 2 * rate("kolb::StreamUpdate", StreamUpdate<ExecSpace>{m_a, 1.0}, launches, repeats);
      case StreamPattern::triad:
        return 3 * rate("kolb::StreamTriad", StreamTriad<ExecSpace>{m_a, m_b, m_c, 3.0}, launches,
                        repeats);
    }
    return 0;
  }

 private:
  // GB/s of one double per element: the best of `repeats` timings of
  // `launches` launches (after one untimed warm-up launch).
  template <class F>
  double rate(const char* label, const F& f, int launches, int repeats) const {
    const index_t n = index_t(m_a.extent(0));
    const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_t>> policy(m_exec, 0, n);
    Kokkos::parallel_for(label, policy, f);
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      m_exec.fence();
      Kokkos::Timer timer;
      for (int k = 0; k < launches; ++k) Kokkos::parallel_for(label, policy, f);
      m_exec.fence();
      best = std::min(best, timer.seconds() / launches);
    }
    return sizeof(double) * double(n) / best * 1e-9;
  }

  ExecSpace m_exec;
  view m_a, m_b, m_c;
};

}  // namespace kolb
