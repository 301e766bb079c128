// The table that maps a case's (lattice, precision, layout) strings to the
// compiled solver variants (one translation unit each, see src/variants/).

#include <kolb/app/simulation.hpp>

#include <algorithm>
#include <cctype>

namespace kolb {

#define KOLB_VARIANT(L, S, Y) std::unique_ptr<Simulation> make_##L##_##S##_##Y(const Case&);
#include "kolb_variants.def"
#undef KOLB_VARIANT

namespace {

struct Variant {
  const char* lattice;
  const char* precision;
  const char* layout;
  std::unique_ptr<Simulation> (*make)(const Case&);
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
#define KOLB_VARIANT(L, S, Y) {#L, #S, #Y, &make_##L##_##S##_##Y},
#include "kolb_variants.def"
#undef KOLB_VARIANT
  };
  return table;
}

}  // namespace

std::vector<std::string> compiled_variants() {
  std::vector<std::string> names;
  for (const auto& v : variants())
    names.push_back(std::string(v.lattice) + "/" + v.precision + "/" + lower(v.layout));
  return names;
}

std::unique_ptr<Simulation> make_simulation(const Case& c) {
  for (const auto& v : variants())
    if (c.lattice == v.lattice && c.precision == v.precision &&
        c.execution.layout == lower(v.layout))
      return v.make(c);
  std::string list;
  for (const auto& n : compiled_variants()) list += " " + n;
  throw ConfigError(c.source + ": lattice/precision/execution.layout",
                    c.lattice + "/" + c.precision + "/" + c.execution.layout +
                        " is not compiled into this build (available:" + list + ")");
}

}  // namespace kolb
