#pragma once
// make_part(): the part of a compiled variant, from the table CMake
// generates (src/registry.cpp, one translation unit per variant, collision
// and memory space in src/variants/).

#include <kolb/domain/part.hpp>
#include <kolb/domain/spaces.hpp>

#include <memory>

namespace kolb {

// Throws ConfigError naming execution.layout when this build lacks the variant.
std::unique_ptr<Part> make_part(const Case& c, const PartSetup& setup, const NodeSpaces& spaces);
// The step plan such a part would follow, without building it.
StepPlan plan_part(const Case& c, const PartSetup& setup);

}  // namespace kolb
