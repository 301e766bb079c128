#pragma once
// Every lattice descriptor (core/lattices.def lists them).

#include <kolb/lattice/d2q37.hpp>
#include <kolb/lattice/d2q9.hpp>
#include <kolb/lattice/d3q19.hpp>
#include <kolb/lattice/d3q27.hpp>
