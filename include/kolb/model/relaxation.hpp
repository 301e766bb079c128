#pragma once
// What every relaxation policy of IsothermalCollision (bgk.hpp, trt.hpp)
// provides:
//  - two_rates, even(), odd(): the rates of the even and odd parts of each
//    population pair (isothermal_collision.hpp);
//  - parameters(): its YAML keys under `physics` beyond tau, each with its
//    default (read by src/config.cpp into Case::collision_parameters);
//  - set(tau, values): the rates from tau and those keys' values, in order;
//  - local_rates: whether the rates vary per site; if so, site(rho, pi2,
//    even, odd) gives a site's rates (pi2: its |Pi|^2, smagorinsky.hpp) and
//    smagorinsky(C_s, cs2) turns on the eddy viscosity.
// RatesOf<Collision::name>::type<Scalar> names the policy of a collision.

#include <kolb/core/macros.hpp>
#include <kolb/core/variant.hpp>

#include <vector>

namespace kolb {

template <Collision C>
struct RatesOf;

}  // namespace kolb
