// Host memory kept for reuse between Domains (HostMemoryReuse): a freed
// block serves the next allocation without the kernel clearing its pages
// again, counts as free in the memory check, and goes back on leaving.

#include <kolb/domain/memory.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <fstream>

#include <sys/resource.h>
#include <unistd.h>

namespace {

constexpr std::size_t kValues = std::size_t(256) << 17;  // 256 MiB of doubles

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

double resident_bytes() {
  std::ifstream in("/proc/self/statm");
  double pages = 0, resident = 0;
  in >> pages >> resident;
  return resident * double(sysconf(_SC_PAGESIZE));
}

// Page faults taken while a fresh block of kValues doubles is allocated and
// filled (plain Kokkos allocation: 4 KiB pages unless kept memory serves it).
long faults_of_one_block() {
  const long before = minor_faults();
  Kokkos::View<double*, Kokkos::HostSpace> v("kolb::test.block", kValues);
  Kokkos::deep_copy(v, 1.0);
  Kokkos::fence();
  return minor_faults() - before;
}

TEST(HostMemoryReuse, FreedBlockServesTheNextWithoutNewPages) {
  const kolb::HostMemoryReuse reuse;
  if (!reuse.active()) GTEST_SKIP() << "not glibc, or several NUMA nodes: reuse is off";
  const long first = faults_of_one_block();
  const long second = faults_of_one_block();
  // 256 MiB in 4 KiB pages is 65536 faults; reused, almost none.
  EXPECT_GT(first, 10000);
  EXPECT_LT(second, first / 10);
}

TEST(HostMemoryReuse, KeptMemoryCountsAsFreeAndGoesBackOnLeaving) {
  const double bytes = double(kValues) * sizeof(double);
  double resident_kept = 0;
  {
    const kolb::HostMemoryReuse reuse;
    if (!reuse.active()) GTEST_SKIP() << "not glibc, or several NUMA nodes: reuse is off";
    faults_of_one_block();
    // The kept block is counted as free for the process (free_memory adds
    // it to what the kernel reports; the kernel's own figure lags by up to
    // seconds on this VM, so that sum is not compared here).
    EXPECT_GE(kolb::kept_host_bytes(), bytes);
    resident_kept = resident_bytes();
  }
  // Leaving gives it back.
  EXPECT_LT(resident_bytes(), resident_kept - 3 * bytes / 4);
}

}  // namespace
