#pragma once
// StreamTriad: a[i] = b[i] + s c[i], the STREAM triad, run on the same
// execution space as the LBM kernels so "% of the stream bound" compares
// like with like. Counted as 3 x sizeof(double) bytes per element (the
// write-allocate read of a is not counted, as in STREAM).

#include <kolb/kernels/policy.hpp>

namespace kolb {

template <class ExecSpace>
struct StreamTriad {
  using view = Kokkos::View<double*, typename ExecSpace::memory_space>;
  view m_a, m_b, m_c;
  double m_s;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const { m_a(i) = m_b(i) + m_s * m_c(i); }

  // Best triad bandwidth in GB/s over `repeats` runs on arrays of n doubles.
  static double measure(const ExecSpace& exec, index_t n, int repeats) {
    view a("kolb::triad.a", n), b("kolb::triad.b", n), c("kolb::triad.c", n);
    Kokkos::deep_copy(exec, b, 1.0);
    Kokkos::deep_copy(exec, c, 2.0);
    const double best = best_time("kolb::StreamTriad", exec, n, StreamTriad{a, b, c, 3.0}, repeats);
    return 3.0 * sizeof(double) * double(n) / best * 1e-9;
  }
};

}  // namespace kolb
