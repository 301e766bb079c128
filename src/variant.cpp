// Variant names (parse/print) and the run-time lattice table.

#include <kolb/kernels/stream_collide.hpp>
#include <kolb/lattice/lattices.hpp>
#include <kolb/model/lattice_info.hpp>
#include <kolb/model/models.hpp>

#include <stdexcept>

namespace kolb {

std::string to_string(const LayoutId& layout) {
  return to_string(layout.kind) +
         (layout.vector_length > 1 ? std::to_string(layout.vector_length) : std::string());
}

std::string to_string(const VariantKey& key) {
  return to_string(key.lattice) + "/" + to_string(key.precision) + "/" + to_string(key.layout);
}

std::optional<LayoutId> parse_layout(const std::string& text) {
  const auto digit = text.find_first_of("0123456789");
  const auto kind = parse<LayoutKind>(text.substr(0, digit));
  if (!kind) return std::nullopt;
  const bool clustered = *kind == LayoutKind::csoa || *kind == LayoutKind::caosoa;
  if (clustered == (digit == std::string::npos)) return std::nullopt;
  const std::string vl = clustered ? text.substr(digit) : "1";
  if (vl.find_first_not_of("0123456789") != std::string::npos || vl.size() > 4) return std::nullopt;
  return LayoutId{*kind, std::stoi(vl)};
}

std::optional<VariantKey> parse_variant(const std::string& text) {
  const auto a = text.find('/'), b = text.find('/', a + 1);
  if (b == std::string::npos) return std::nullopt;
  const auto lattice = parse<LatticeId>(text.substr(0, a));
  const auto precision = parse<Precision>(text.substr(a + 1, b - a - 1));
  const auto layout = parse_layout(text.substr(b + 1));
  if (!lattice || !precision || !layout) return std::nullopt;
  return VariantKey{*lattice, *precision, *layout};
}

namespace {

template <class Lattice>
int crossing() {
  int n = 0;
  for (int i = 0; i < Lattice::q; ++i) n += Lattice::c(i, 0) > 0;
  return n;
}

// The collisions of a lattice whose model is isothermal or thermal.
std::vector<Collision> collisions_of(bool thermal) {
  std::vector<Collision> out;
#define KOLB_COLLISION(name, isothermal, thermal_model) \
  if (thermal ? thermal_model : isothermal) out.push_back(Collision::name);
#include <kolb/core/collisions.def>
#undef KOLB_COLLISION
  return out;
}

template <class Lattice>
LatticeInfo row(LatticeId id, bool thermal) {
  using Model = model_t<Lattice, double, Collision::bgk>;
  if (Model::has_temperature != thermal)
    throw std::logic_error(std::string(Lattice::name) + ": core/lattices.def names another model");
  return {id,
          Lattice::dim,
          Lattice::q,
          Lattice::halo,
          crossing<Lattice>(),
          Lattice::cs2(),
          Lattice::unit(),
          Model::has_temperature,
          Model::in_place_streaming,
          Model::max_wall_rows,
          LineRowTuning<Lattice>::by_lines(2)   ? 2
          : LineRowTuning<Lattice>::by_lines(4) ? 4
                                                : 8,
          collisions_of(thermal)};
}

template <Collision C, bool Isothermal>
std::vector<CollisionParameter> parameters_of() {
  if constexpr (Isothermal)
    return RatesOf<C>::template type<double>::parameters();
  else
    return {};
}

}  // namespace

const LatticeInfo& lattice_info(LatticeId lattice) {
  static const LatticeInfo table[] = {
#define KOLB_LATTICE(name, model) row<name>(LatticeId::name, std::string(#model) == "thermal"),
#include <kolb/core/lattices.def>
#undef KOLB_LATTICE
  };
  return table[int(lattice)];
}

std::vector<CollisionParameter> collision_parameters(Collision collision) {
  switch (collision) {
#define KOLB_COLLISION(name, isothermal, thermal) \
  case Collision::name:                           \
    return parameters_of<Collision::name, isothermal>();
#include <kolb/core/collisions.def>
#undef KOLB_COLLISION
  }
  return {};
}

}  // namespace kolb
