// The table that maps a case's (lattice, precision, layout) strings to the
// compiled solver variants (one translation unit each, see src/variants/).

#include <kolb/app/simulation.hpp>
#include <kolb/layout/layouts.hpp>
#include <kolb/node/node_simulation.hpp>

namespace kolb {

#define KOLB_VARIANT(L, S, Y)                                    \
  std::unique_ptr<Simulation> make_##L##_##S##_##Y(const Case&); \
  std::unique_ptr<NodeSimulation> make_node_##L##_##S##_##Y(const Case&);
#include "kolb_variants.def"
#undef KOLB_VARIANT

namespace {

struct Variant {
  const char* lattice;
  const char* precision;
  const char* layout;
  int vector_length;
  std::unique_ptr<Simulation> (*make)(const Case&);
  std::unique_ptr<NodeSimulation> (*make_node)(const Case&);

  std::string layout_name() const {
    return vector_length > 1 ? layout + std::to_string(vector_length) : std::string(layout);
  }
  bool matches(const std::string& l, const std::string& p, const std::string& y, int vl) const {
    return l == lattice && p == precision && y == layout && vl == vector_length;
  }
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = {
#define KOLB_VARIANT(L, S, Y) \
  {#L, #S, Y::name, Y::vector_length, &make_##L##_##S##_##Y, &make_node_##L##_##S##_##Y},
#include "kolb_variants.def"
#undef KOLB_VARIANT
  };
  return table;
}

}  // namespace

std::vector<std::string> compiled_variants() {
  std::vector<std::string> names;
  for (const auto& v : variants())
    names.push_back(std::string(v.lattice) + "/" + v.precision + "/" + v.layout_name());
  return names;
}

bool variant_compiled(const std::string& lattice, const std::string& precision,
                      const std::string& layout, int vector_length) {
  for (const auto& v : variants())
    if (v.matches(lattice, precision, layout, vector_length)) return true;
  return false;
}

namespace {

const Variant& find_variant(const Case& c) {
  for (const auto& v : variants())
    if (v.matches(c.lattice, c.precision, c.execution.layout, c.execution.vector_length)) return v;
  std::string list;
  for (const auto& n : compiled_variants()) list += " " + n;
  throw ConfigError(
      c.source + ": lattice/precision/execution.layout",
      c.lattice + "/" + c.precision + "/" + c.execution.layout +
          (c.execution.vector_length > 1 ? std::to_string(c.execution.vector_length) : "") +
          " is not compiled into this build (available:" + list + ")");
}

}  // namespace

std::unique_ptr<Simulation> make_simulation(const Case& c) {
  if (c.execution.host_columns_auto && c.execution.host_columns < 0)
    throw ConfigError(c.source + ": execution.host_columns",
                      "'auto' is resolved by the load balancer (kolb run / kolb tune); "
                      "give a number of columns here");
  if (c.execution.host_columns >= 0) return find_variant(c).make_node(c);
  return find_variant(c).make(c);
}

std::unique_ptr<NodeSimulation> make_node_simulation(const Case& c) {
  if (c.execution.host_columns < 0)
    throw ConfigError(c.source + ": execution.host_columns",
                      "a heterogeneous node needs a number of host columns");
  return find_variant(c).make_node(c);
}

}  // namespace kolb
