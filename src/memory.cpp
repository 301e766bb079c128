// Memory checked before allocation (domain/memory.hpp).

#include <kolb/core/cache_lines.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/domain/spaces.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/lattice/lattices.hpp>
#include <kolb/model/lattice_info.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kolb {

namespace {

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// A number of bytes with an optional K/M/G/T suffix (powers of 1024); NaN
// when the text is not one.
double parse_bytes(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !(v >= 0)) return std::nan("");
  const std::string suffix(end);
  const std::string units = "KMGT";
  if (!suffix.empty()) {
    const auto k = units.find(char(std::toupper(suffix[0])));
    if (k == std::string::npos || (suffix.size() > 1 && suffix.substr(1) != "B" &&
                                   suffix.substr(1) != "iB" && suffix.substr(1) != "b"))
      return std::nan("");
    v *= std::pow(1024.0, double(k + 1));
  }
  return v;
}

// A number from the first line of a file; `kUnlimited` for "max" or a
// missing file.
double read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return kUnlimited;
  const double v = std::strtod(word.c_str(), nullptr);
  return v > 0 ? v : kUnlimited;
}

double host_available() {
  double available = kUnlimited;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    double kib = 0;
    meminfo >> kib;
    if (key == "MemAvailable:") available = kib * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  // A container's limit (cgroup v2, else v1) may be far below the machine's.
  double limit = read_number("/sys/fs/cgroup/memory.max");
  double used = read_number("/sys/fs/cgroup/memory.current");
  if (limit == kUnlimited) {
    limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  if (limit < 1e18 && used != kUnlimited) available = std::min(available, limit - used);
  // An address-space limit (ulimit -v, common on clusters) counts too.
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    double vm = 0;  // the process's address space now, in KiB
    std::ifstream status("/proc/self/status");
    for (std::string key; status >> key;) {
      if (key == "VmSize:") status >> vm;
      status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    available = std::min(available, double(as.rlim_cur) - vm * 1024);
  }
  // Memory the process has freed but keeps (HostMemoryReuse) is free for it.
  return available + kept_host_bytes();
}

// Whether the host has more than one NUMA node online ("0": one; "0-1",
// "0,2": several). Unknown counts as one.
bool several_numa_nodes() {
  std::ifstream in("/sys/devices/system/node/online");
  std::string nodes;
  return (in >> nodes) && nodes.find_first_of(",-") != std::string::npos;
}

double accelerator_free() {
#if defined(KOLB_GPU)
  std::size_t free = 0, total = 0;
  if (KOLB_GPU(MemGetInfo)(&free, &total) == KOLB_GPU(Success)) return double(free);
#endif
  return kUnlimited;
}

}  // namespace

// glibc serves large blocks with their own mappings (returned to the kernel
// when freed) and trims the heap's top: with no mappings and no trimming,
// a freed block stays in the heap for the next allocation.
HostMemoryReuse::HostMemoryReuse() {
#if defined(__GLIBC__)
  if (several_numa_nodes()) return;
  m_active = mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
#endif
}

HostMemoryReuse::~HostMemoryReuse() {
#if defined(__GLIBC__)
  if (!m_active) return;
  mallopt(M_MMAP_MAX, 65536);             // glibc's defaults
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);  // (which also turns its dynamic thresholds off)
  malloc_trim(0);
#endif
}

double kept_host_bytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  return double(mallinfo2().fordblks);
#else
  return 0;
#endif
}

std::string byte_text(double bytes) {
  std::ostringstream s;
  s.precision(bytes < 1024.0 * 1024 * 1024 ? 1 : 2);
  s << std::fixed;
  if (bytes >= 1024.0 * 1024 * 1024)
    s << bytes / (1024.0 * 1024 * 1024) << " GiB";
  else
    s << bytes / (1024.0 * 1024) << " MiB";
  return s.str();
}

namespace {

// Whether a lattice's host rows of `value_bytes` values go by cache lines
// (StreamCollide's LineRowTuning): they are padded then.
bool rows_by_lines(LatticeId lattice, int value_bytes) {
  switch (lattice) {
#define KOLB_LATTICE(name, model) \
  case LatticeId::name:           \
    return LineRowTuning<name>::by_lines(value_bytes);
#include <kolb/core/lattices.def>
#undef KOLB_LATTICE
  }
  return false;
}

}  // namespace

MemoryNeed memory_need(const Case& c, const Tile& tile) {
  const LatticeInfo& info = lattice_info(c.lattice);
  const double value = stored_bytes(c.precision);
  // Two population buffers, or AA's one plus the scratch copy its outputs
  // use, and a material byte.
  const double per_site = info.q * value * 2 + 1;
  // A part is `width` layers across the split axis s.
  const int s = c.execution.host_columns >= 0 ? node_split_axis(c, tile.ranks) : 0;
  // Clustered layouts pad their x rows to whole clusters, and host parts
  // to whole cache lines as well (pads_rows), counted whatever the size:
  // near the cache the few bytes it adds do not matter.
  const bool by_lines = rows_by_lines(c.lattice, int(value));
  const double line_values = host::kLineBytes / value;
  auto sites_with_halo = [&](int width, bool on_host = false) {
    double n = 1;
    for (int a = 0; a < info.dim; ++a) {
      const int interior = a == s ? width : tile.size[a];
      double e = interior + 2.0 * info.halo;
      if (a == 0) {
        const double unit =
            row_align_sites(on_host && pads_rows(c.execution, by_lines, interior, line_values),
                            int(line_values), c.execution.layout.vector_length);
        e = std::ceil(e / unit) * unit;
      }
      n *= e;
    }
    return n;
  };
  const int lx = tile.size[s], m = std::max(c.execution.host_columns, 0);
  // AA's push-back maps: at most one (from, to) index pair per crossing
  // population of every halo site (kernels/aa.hpp).
  auto push_maps = [&](int width) {
    if (c.execution.streaming != Streaming::aa) return 0.0;
    double interior = width;
    for (int a = 0; a < info.dim; ++a)
      if (a != s) interior *= tile.size[a];
    return (sites_with_halo(width) - interior) * info.crossing * 2 * 8;
  };
  MemoryNeed need;
  double accelerator =
      lx - 2 * m > 0
          ? per_site * sites_with_halo(lx - 2 * m, node_accelerator_on_host) + push_maps(lx - 2 * m)
          : 0;
  need.host = m > 0 ? 2 * per_site * sites_with_halo(m, true) : 0;
  // Host set-up: the lattice's materials (every rank builds them) and initial
  // fields (rho, u, T), the tile's copy of them, and its gathered outputs.
  const double lattice = double(c.size[0]) * c.size[1] * c.size[2];
  const double tile_sites = double(tile.size[0]) * tile.size[1] * tile.size[2];
  need.host += lattice * (1 + 5 * 8) + tile_sites * 2 * (5 * 8 + 1);
  if (node_accelerator_on_host)
    need.host += accelerator;
  else
    need.accelerator = accelerator;
  return need;
}

double free_memory(bool accelerator) {
  double free = accelerator ? accelerator_free() : host_available();
  if (const char* limit = std::getenv("KOLB_MEMORY_LIMIT")) {
    if (std::string(limit) == "none") return kUnlimited;
    const double cap = parse_bytes(limit);
    if (std::isnan(cap))
      throw ConfigError("KOLB_MEMORY_LIMIT",
                        "'" + std::string(limit) +
                            "' is not a number of bytes (e.g. 512M, 16G) or 'none' (no check)");
    free = std::min(free, cap);
  }
  return free;
}

std::string memory_problem(const Case& c, const Tile& tile) {
  const MemoryNeed need = memory_need(c, tile);
  // The next smaller precision, where there is one (fp16: isothermal lattices).
  const char* smaller =
      c.precision == Precision::float64 ? "precision: float, "
      : c.precision == Precision::float32 && !lattice_info(c.lattice).has_temperature
          ? "precision: fp16 (16-bit storage), "
          : "";
  std::ostringstream s;
  auto check = [&](double bytes, bool accelerator, const char* space) {
    const double free = free_memory(accelerator);
    if (bytes <= free || !s.str().empty()) return;
    s << "the case needs about " << byte_text(bytes) << " of " << space << " memory ("
      << to_string(c.lattice) << " " << to_string(c.precision) << ", " << tile.size[0] << "x"
      << tile.size[1] << (c.dim == 3 ? "x" + std::to_string(tile.size[2]) : "") << " sites"
      << (tile.size != c.size ? " on this rank" : "") << ") but " << byte_text(free) << " is free"
      << (std::getenv("KOLB_MEMORY_LIMIT") ? " (KOLB_MEMORY_LIMIT)" : "") << ": use fewer sites, "
      << smaller << "more ranks or a larger machine";
  };
  check(need.accelerator, true, node_accelerator_on_host ? "host" : "accelerator");
  check(need.host, false, "host");
  return s.str();
}

}  // namespace kolb

namespace kolb::host {

std::size_t last_level_cache_bytes(std::size_t cap) {
  // KOLB_LLC_BYTES overrides, cap included (tests: 0 takes every D2Q37 row
  // by lines).
  if (const char* forced = std::getenv("KOLB_LLC_BYTES")) {
    const double b = parse_bytes(forced);
    if (b >= 0) return std::size_t(b);
  }
  static const std::size_t bytes = [] {
    double best = 0;
    int best_level = 0;
    for (int k = 0; k < 8; ++k) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(k) + "/";
      std::ifstream level_file(dir + "level"), size_file(dir + "size");
      int level = 0;
      std::string size;
      if (!(level_file >> level) || !(size_file >> size)) continue;
      const double b = parse_bytes(size);
      if (level >= best_level && b > 0) best_level = level, best = b;
    }
    return best > 0 ? std::size_t(best) : std::size_t(32) << 20;
  }();
  return std::min(bytes, cap);
}

}  // namespace kolb::host
