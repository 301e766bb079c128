#pragma once
// The entry points of a variant's translation unit (src/variants/
// part.cpp.in): a BlockPart of the variant for a part's role, and the plan
// it would follow.

#include <kolb/domain/block_part.hpp>

#include <memory>
#include <stdexcept>
#include <type_traits>

namespace kolb {

// A part of a variant on the role's execution space; this memory space's
// translation unit builds the roles whose space lives in it.
template <class Model, class Layout, class MemorySpace>
std::unique_ptr<Part> make_block_part(const PartSetup& s, const NodeSpaces& spaces) {
  Model model;
  configure(model, s.c);
  if constexpr (std::is_same<NodeAccelerator::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::accelerator)
      return std::make_unique<BlockPart<Model, Layout, NodeAccelerator>>(
          s, model, spaces.accelerator, spaces.accelerator_halos);
  }
  if constexpr (std::is_same<NodeHost::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::host)
      return std::make_unique<BlockPart<Model, Layout, NodeHost>>(s, model, spaces.host,
                                                                  spaces.host);
  }
  throw std::logic_error("kolb: no part of this role in this memory space");
}

// The plan of the part make_block_part would build.
template <class Model, class Layout, class MemorySpace>
StepPlan block_part_plan(const PartSetup& s) {
  if constexpr (std::is_same<NodeAccelerator::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::accelerator)
      return BlockPart<Model, Layout, NodeAccelerator>::plan_of(s, NodeAccelerator());
  }
  if constexpr (std::is_same<NodeHost::memory_space, MemorySpace>::value) {
    if (s.role == PartRole::host) return BlockPart<Model, Layout, NodeHost>::plan_of(s, NodeHost());
  }
  throw std::logic_error("kolb: no part of this role in this memory space");
}

}  // namespace kolb
