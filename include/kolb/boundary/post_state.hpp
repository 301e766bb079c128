#pragma once
// Where the post-collision populations f*_k(x) of the last step lie, for
// the passes that read them between steps (open faces, interpolated walls,
// forces on bodies).

#include <cstdint>

namespace kolb {

enum class PostState : std::uint8_t {
  stored,   // two buffers: in x's slot k
  swapped,  // in place, before a pull: in x's slot opposite(k)
  pushed    // in place, after a pull: in slot k of x + c_k (x's own slot
            // opposite(k) where x + c_k is solid: the pull bounced it there)
};

}  // namespace kolb
