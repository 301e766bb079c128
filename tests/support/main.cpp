// GoogleTest main for kolb: Kokkos lives for the whole test program. Unless
// OMP_NUM_THREADS is set, KOLB_TEST_THREADS chooses OpenMP's threads: `node`
// (tests of heterogeneous nodes) the threads `kolb run` gives a node, all
// cores but the one its host thread takes; a number, that many.
#include <kolb/core/wait_policy.hpp>
#include <kolb/domain/domain.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
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
  if (mode && !std::getenv("OMP_NUM_THREADS")) {
    const bool node = std::strcmp(mode, "node") == 0;
    const int count = node ? kolb::node_default_threads() : std::atoi(mode);
    if (count < 1 || (!node && std::to_string(count) != mode)) {
      std::fprintf(stderr, "KOLB_TEST_THREADS=%s: expected `node` or a number of threads >= 1\n",
                   mode);
      return 2;
    }
    const std::string n = std::to_string(count);
#if KOKKOS_VERSION >= 40000
    threads = "--kokkos-num-threads=" + n;
#else
    threads = "--kokkos-threads=" + n;
#endif
    args.push_back(threads.data());
  }
  int n = int(args.size());
  Kokkos::ScopeGuard kokkos(n, args.data());
  return RUN_ALL_TESTS();
}
