// The table of compiled variants: CMake writes one line per (lattice,
// precision, layout, collision) into kolb_variants.def and one translation
// unit per line and memory space (src/variants/part.cpp.in).

#include <kolb/config.hpp>
#include <kolb/domain/domain.hpp>
#include <kolb/domain/registry.hpp>
#include <kolb/layout/layouts.hpp>

#include <algorithm>

namespace kolb {

#if KOLB_DEVICE_PARTS
#define KOLB_DEVICE_FACTORY(name) &name##_device
#define KOLB_DECLARE_DEVICE(name) \
  std::unique_ptr<Part> name##_device(const PartSetup&, const NodeSpaces&);
#else
#define KOLB_DEVICE_FACTORY(name) nullptr
#define KOLB_DECLARE_DEVICE(name)
#endif

#define KOLB_VARIANT(L, S, Y, C)                                                   \
  std::unique_ptr<Part> make_part_##L##_##S##_##Y##_##C##_host(const PartSetup&,   \
                                                               const NodeSpaces&); \
  KOLB_DECLARE_DEVICE(make_part_##L##_##S##_##Y##_##C)
#include "kolb_variants.def"
#undef KOLB_VARIANT

namespace {

using Factory = std::unique_ptr<Part> (*)(const PartSetup&, const NodeSpaces&);
struct Entry {
  VariantKey key;
  Collision collision;
  Factory host, device;  // device: null in CPU-only builds (one memory space)
};

const std::vector<Entry>& table() {
  static const std::vector<Entry> entries = {
#define KOLB_VARIANT(L, S, Y, C)                  \
  {{LatticeId::L, precision_of<S>, layout_id<Y>}, \
   Collision::C,                                  \
   &make_part_##L##_##S##_##Y##_##C##_host,       \
   KOLB_DEVICE_FACTORY(make_part_##L##_##S##_##Y##_##C)},
#include "kolb_variants.def"
#undef KOLB_VARIANT
  };
  return entries;
}

}  // namespace

std::vector<VariantKey> compiled_variants() {
  std::vector<VariantKey> keys;
  for (const Entry& e : table())
    if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) keys.push_back(e.key);
  return keys;
}

bool variant_compiled(const VariantKey& key) {
  const auto keys = compiled_variants();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::unique_ptr<Part> make_part(const Case& c, const PartSetup& setup, const NodeSpaces& spaces) {
  for (const Entry& e : table())
    if (e.key == c.variant() && e.collision == c.collision)
      return (setup.role == PartRole::accelerator && e.device ? e.device : e.host)(setup, spaces);
  std::string list;
  for (const auto& k : compiled_variants()) list.append(" ").append(to_string(k));
  throw ConfigError(c.source + ": lattice/precision/execution.layout",
                    to_string(c.variant()) + " with the " + to_string(c.collision) +
                        " collision is not compiled into this build (available:" + list + ")");
}

}  // namespace kolb
