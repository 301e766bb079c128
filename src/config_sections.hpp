#pragma once
// The parts of read_case (src/config.cpp) that need the compiled variants
// and the tilings: the execution section and the check that the build
// holds what the case asks for (src/config_execution.cpp).

#include <kolb/io/case.hpp>
#include <kolb/model/lattice_info.hpp>

#include "yaml_map.hpp"

namespace kolb {

// Reads the `execution` section into c (layout, kernel, streaming, threads,
// decomposition, host/accelerator split).
void read_execution(const yaml::Map& e, Case& c, const LatticeInfo& info);

// Fails unless this build compiles c's variant and collision, at the key to
// change: the lattice when no variant of it is compiled, the precision when
// none in it is, else execution.layout (or its vector_length); a missing
// collision at physics.collision.
void check_compiled(const yaml::Map& top, const Case& c);

}  // namespace kolb
