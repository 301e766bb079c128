#pragma once
// run.until_steady (internal to src/): the relative L2 change of the
// velocity field between two checks, ||u - u_prev|| / ||u||, computed with
// Kokkos Kernels' BLAS-1 (axpby, nrm2) on the host copy of the fields and
// summed over the MPI ranks. Off the hot path: once every `every` steps.

#include <kolb/domain/domain.hpp>

#include <Kokkos_Core.hpp>

namespace kolb {

class SteadyCheck {
 public:
  // The change since the previous call (every rank together); infinite at
  // the first call.
  double change(Domain& domain);

 private:
  Kokkos::View<double*, Kokkos::HostSpace> m_prev;
  HostFields m_fields;  // the last check's, kept for its memory
};

}  // namespace kolb
