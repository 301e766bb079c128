#pragma once
// The names of a lattice's faces in cases, logs and reports.

namespace kolb {

// Face f = 2 axis + side: "x-", "x+", "y-", "y+", "z-", "z+".
inline const char* face_name(int f) {
  static const char* const names[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
  return names[f];
}

}  // namespace kolb
