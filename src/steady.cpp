// run.until_steady: the velocity field's relative change (steady.hpp).

#include "steady.hpp"

#include <kolb/comm/communicator.hpp>

#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_nrm2.hpp>

#include <cmath>
#include <limits>

namespace kolb {

double SteadyCheck::change(Domain& domain) {
  domain.fields(m_fields);
  using host_view = Kokkos::View<double*, Kokkos::HostSpace>;
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> u(
      m_fields.u.data(), m_fields.u.size());
  const bool first = m_prev.size() != u.size();
  double sums[2] = {0, 0};  // |u - u_prev|^2, |u|^2 of this rank's tile
  if (!first) {
    KokkosBlas::axpby(1.0, u, -1.0, m_prev);  // m_prev <- u - m_prev
    const double d = KokkosBlas::nrm2(m_prev), n = KokkosBlas::nrm2(u);
    sums[0] = d * d, sums[1] = n * n;
  } else {
    m_prev = host_view(Kokkos::ViewAllocateWithoutInitializing("kolb::u_prev"), u.size());
  }
  Kokkos::deep_copy(m_prev, u);
  comm::sum(sums, 2);
  if (first) return std::numeric_limits<double>::infinity();
  return sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : std::sqrt(sums[0]);
}

}  // namespace kolb
