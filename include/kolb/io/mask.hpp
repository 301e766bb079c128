#pragma once
// Mask images (`type: mask`): 2-D obstacles drawn in a PBM/PGM or a text file.

#include <kolb/io/case.hpp>

#include <vector>

namespace kolb {

// A 2-D mask image: solid[y * width + x], y = 0 the bottom row.
struct Mask {
  int width = 0, height = 0;
  std::vector<bool> solid;
};

// Reads the mask file of obstacle `o`: a PBM/PGM (P1, P2, P4, P5; dark =
// solid) or a text mask (one line per row, top row first; '1', '#', 'X',
// '@' solid, '0', '.', ' ' fluid). Throws ConfigError naming the file.
Mask read_mask(const Obstacle& o);

}  // namespace kolb
