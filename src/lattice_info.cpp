// The run-time lattice table (model/lattice_info.hpp), generated from the
// descriptors, the model types and the tables of core/lattices.def and
// core/collisions.def.

#include <kolb/lattice/lattices.hpp>
#include <kolb/model/lattice_info.hpp>
#include <kolb/model/models.hpp>

#include <stdexcept>

namespace kolb {

namespace {

template <class Lattice>
int crossing() {
  int n = 0;
  for (int i = 0; i < Lattice::q; ++i) n += Lattice::c(i, 0) > 0;
  return n;
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

std::vector<Collision> collisions_of(bool thermal) {
  std::vector<Collision> out;
#define KOLB_COLLISION(name, isothermal, thermal_model) \
  if (thermal ? thermal_model : isothermal) out.push_back(Collision::name);
#include <kolb/core/collisions.def>
#undef KOLB_COLLISION
  return out;
}

}  // namespace kolb
