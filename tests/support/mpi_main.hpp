#pragma once
// The main of the MPI tests: Kokkos and MPI around RUN_ALL_TESTS on every
// rank, with rank 0's report only.

#include <kolb/comm/communicator.hpp>
#include <kolb/core/wait_policy.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

namespace kolb::test {

// Runs the tests on every rank; the exit status fails where any rank failed.
inline int run_mpi_tests(int argc, char** argv) {
  kolb::choose_wait_policy(argv);
  kolb::comm::Session mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  // One report: rank 0's (every rank's failures still fail the job).
  if (!kolb::comm::root()) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    rc = RUN_ALL_TESTS();
  }
  // Any rank's failure fails every rank's exit status.
  return kolb::comm::all(rc == 0) ? 0 : 1;
}

}  // namespace kolb::test
