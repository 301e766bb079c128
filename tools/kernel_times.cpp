// A Kokkos Tools library that times every kernel launch and deep copy by
// name on the host clock: a timeline's totals for machines without Nsight
// Systems (the lent GPU machines have none).
//
//   KOKKOS_PROFILE_LIBRARY=build/lib/libkolb_kernel_times.so build/bin/kolb run CASE
//
// At exit it prints, per name, the records, their total milliseconds and
// their mean and longest microseconds, the longest total first, to the file
// KOLB_KERNEL_TIMES names (else stderr). A host space's launch returns when
// its work is done, so its row times the work; a GPU launch returns at
// once, so its row times the launch only. Fences are recorded too where
// Kokkos reports them (newer releases do; 3.4 calls no fence hook). Divide by
// the steps for per-step figures.
//
// It uses the C interface of Kokkos Tools only (no Kokkos header), so one
// build of it serves every kolb build; the kolb_kernel_times target builds
// it into build/lib/.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Tally {
  long count = 0;
  double total = 0, longest = 0;  // seconds
};

struct Open {
  std::string name;
  Clock::time_point start;
};

// Kernels of a CPU-only node launch from two threads (the helper thread
// runs the host side), so every record goes through one lock.
std::mutex lock;
std::map<std::string, Tally> tallies;
std::map<uint64_t, Open> in_flight;  // launches and fences under way, by handle
uint64_t next_handle = 1;
Clock::time_point loaded;
thread_local std::vector<Open> copies;  // deep copies have no handle: a stack per thread

void begin(const std::string& name, uint64_t* handle) {
  const auto now = Clock::now();
  std::lock_guard<std::mutex> guard(lock);
  *handle = next_handle++;
  in_flight[*handle] = {name, now};
}

// Adds one record of `seconds` to name's tally (the lock held).
void add(const std::string& name, double seconds) {
  Tally& t = tallies[name];
  t.count += 1;
  t.total += seconds;
  if (seconds > t.longest) t.longest = seconds;
}

double seconds(Clock::time_point start, Clock::time_point stop) {
  return std::chrono::duration<double>(stop - start).count();
}
double since(Clock::time_point start) { return seconds(start, Clock::now()); }

void end(uint64_t handle) {
  const auto now = Clock::now();
  std::lock_guard<std::mutex> guard(lock);
  auto it = in_flight.find(handle);
  if (it == in_flight.end()) return;
  add(it->second.name, seconds(it->second.start, now));  // `now` taken before the lock
  in_flight.erase(it);
}

}  // namespace

// The handles Kokkos passes to deep-copy callbacks (Kokkos_Profiling_C_Interface.h).
struct Kokkos_Profiling_SpaceHandle {
  char name[64];
};

extern "C" {

void kokkosp_init_library(const int, const uint64_t, const uint32_t, void*) {
  loaded = Clock::now();
}

void kokkosp_finalize_library() {
  const double run = since(loaded);
  std::vector<std::pair<std::string, Tally>> rows(tallies.begin(), tallies.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  long launches = 0;
  for (const auto& r : rows) launches += r.second.count;
  const char* path = std::getenv("KOLB_KERNEL_TIMES");
  std::FILE* out = path && *path ? std::fopen(path, "w") : nullptr;
  if (!out) out = stderr;
  std::fprintf(out, "kolb kernel times (host clock): %ld records over %.3f s\n", launches, run);
  std::fprintf(out, "%10s %12s %10s %10s  %s\n", "count", "total ms", "mean us", "max us", "name");
  for (const auto& [name, t] : rows)
    std::fprintf(out, "%10ld %12.3f %10.2f %10.2f  %s\n", t.count, 1e3 * t.total,
                 1e6 * t.total / t.count, 1e6 * t.longest, name.c_str());
  if (out != stderr) std::fclose(out);
}

void kokkosp_begin_parallel_for(const char* name, const uint32_t, uint64_t* handle) {
  begin(name, handle);
}
void kokkosp_end_parallel_for(const uint64_t handle) { end(handle); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t, uint64_t* handle) {
  begin(name, handle);
}
void kokkosp_end_parallel_reduce(const uint64_t handle) { end(handle); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t, uint64_t* handle) {
  begin(name, handle);
}
void kokkosp_end_parallel_scan(const uint64_t handle) { end(handle); }
void kokkosp_begin_fence(const char* name, const uint32_t, uint64_t* handle) {
  begin(std::string("fence: ") + name, handle);
}
void kokkosp_end_fence(const uint64_t handle) { end(handle); }

void kokkosp_begin_deep_copy(Kokkos_Profiling_SpaceHandle dst, const char*, const void*,
                             Kokkos_Profiling_SpaceHandle src, const char*, const void*, uint64_t) {
  copies.push_back({std::string("deep_copy ") + src.name + " -> " + dst.name, Clock::now()});
}
void kokkosp_end_deep_copy() {
  if (copies.empty()) return;
  const Open c = copies.back();
  copies.pop_back();
  const double seconds = since(c.start);
  std::lock_guard<std::mutex> guard(lock);
  add(c.name, seconds);
}

}  // extern "C"
