// GoogleTest main for kolb: Kokkos lives for the whole test program. With
// KOLB_TEST_THREADS=node (tests of heterogeneous nodes) and no
// OMP_NUM_THREADS, OpenMP gets the threads `kolb run` gives a node: all
// cores but the one its host thread takes.
#include <kolb/core/wait_policy.hpp>
#include <kolb/domain/domain.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  kolb::choose_wait_policy(argv);
  ::testing::InitGoogleTest(&argc, argv);
  std::vector<char*> args(argv, argv + argc);
  std::string threads;
  const char* mode = std::getenv("KOLB_TEST_THREADS");
  if (mode && std::strcmp(mode, "node") == 0 && !std::getenv("OMP_NUM_THREADS")) {
#if KOKKOS_VERSION >= 40000
    threads = "--kokkos-num-threads=" + std::to_string(kolb::node_default_threads());
#else
    threads = "--kokkos-threads=" + std::to_string(kolb::node_default_threads());
#endif
    args.push_back(threads.data());
  }
  int n = int(args.size());
  Kokkos::ScopeGuard kokkos(n, args.data());
  return RUN_ALL_TESTS();
}
