// The table of compiled variants: CMake writes one line per (lattice,
// precision, layout, collision) into kolb_variants.def and one translation
// unit per line and memory space (src/variants/part.cpp.in).

#include <kolb/config.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/registry.hpp>
#include <kolb/layout/layouts.hpp>

#include <algorithm>

namespace kolb {

#define KOLB_DECLARE(name)                                                     \
  std::unique_ptr<Part> make_part_##name(const PartSetup&, const NodeSpaces&); \
  StepPlan plan_part_##name(const PartSetup&);
#if KOLB_DEVICE_PARTS
#define KOLB_DEVICE(kind, name) &kind##_part_##name##_device
#define KOLB_DECLARE_DEVICE(name) KOLB_DECLARE(name##_device)
#else
#define KOLB_DEVICE(kind, name) nullptr
#define KOLB_DECLARE_DEVICE(name)
#endif

#define KOLB_VARIANT(L, S, Y, C)           \
  KOLB_DECLARE(L##_##S##_##Y##_##C##_host) \
  KOLB_DECLARE_DEVICE(L##_##S##_##Y##_##C)
#include "kolb_variants.def"
#undef KOLB_VARIANT

namespace {

using Factory = std::unique_ptr<Part> (*)(const PartSetup&, const NodeSpaces&);
using Planner = StepPlan (*)(const PartSetup&);
struct Entry {
  VariantKey key;
  Collision collision;
  Factory host, device;  // device: null in CPU-only builds (one memory space)
  Planner host_plan, device_plan;
};

const std::vector<Entry>& table() {
  static const std::vector<Entry> entries = {
#define KOLB_VARIANT(L, S, Y, C)                                                          \
  {{LatticeId::L, precision_of<S>, layout_id<Y>}, Collision::C,                           \
   &make_part_##L##_##S##_##Y##_##C##_host,       KOLB_DEVICE(make, L##_##S##_##Y##_##C), \
   &plan_part_##L##_##S##_##Y##_##C##_host,       KOLB_DEVICE(plan, L##_##S##_##Y##_##C)},
#include "kolb_variants.def"
#undef KOLB_VARIANT
  };
  return entries;
}

// The case's entry (ConfigError when this build lacks it).
const Entry& entry(const Case& c) {
  for (const Entry& e : table())
    if (e.key == c.variant() && e.collision == c.kernel_collision()) return e;
  std::string list;
  for (const auto& k : compiled_variants()) list.append(" ").append(to_string(k));
  throw ConfigError(c.source + ": lattice/precision/execution.layout",
                    to_string(c.variant()) + " with the " + to_string(c.kernel_collision()) +
                        " collision is not compiled into this build (available:" + list + ")");
}

}  // namespace

std::vector<VariantKey> compiled_variants() {
  std::vector<VariantKey> keys;
  for (const Entry& e : table())
    if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) keys.push_back(e.key);
  return keys;
}

std::vector<Collision> compiled_collisions(const VariantKey& key) {
  std::vector<Collision> out;
  for (const Entry& e : table())
    if (e.key == key) out.push_back(e.collision);
  return out;
}

bool variant_compiled(const VariantKey& key) {
  const auto keys = compiled_variants();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::unique_ptr<Part> make_part(const Case& c, const PartSetup& setup, const NodeSpaces& spaces) {
  const Entry& e = entry(c);
  return (setup.role == PartRole::accelerator && e.device ? e.device : e.host)(setup, spaces);
}

StepPlan plan_part(const Case& c, const PartSetup& setup) {
  const Entry& e = entry(c);
  return (setup.role == PartRole::accelerator && e.device_plan ? e.device_plan
                                                               : e.host_plan)(setup);
}

}  // namespace kolb
