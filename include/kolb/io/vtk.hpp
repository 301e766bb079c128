#pragma once
// VTK XML image data (.vti) with raw appended binary arrays, which ParaView
// and VisIt read directly: density, velocity and the solid mask on points at
// the site centres.

#include <kolb/io/fields.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

// `single` writes Float32 arrays (for float runs), else Float64. Fields of a
// tile (origin != 0) are written as a piece with its place in the lattice.
void write_vti(const std::string& path, const HostFields& fields, bool single = false);

// One rank's piece of a parallel image (.pvti): its box of points and file.
struct VtiPiece {
  std::array<int, 3> origin{0, 0, 0}, n{1, 1, 1};
  std::string file;  // relative to the .pvti
};
// The .pvti index of the pieces of a lattice of n sites, which ParaView
// opens as one dataset.
void write_pvti(const std::string& path, const std::array<int, 3>& n,
                const std::vector<VtiPiece>& pieces, bool single, bool thermal);

// ParaView collection listing (step, file) pairs as a time series.
void write_pvd(const std::string& path,
               const std::vector<std::pair<std::int64_t, std::string>>& entries);

}  // namespace kolb
