#pragma once
// VTK XML image data (.vti) with raw appended binary arrays, which ParaView
// and VisIt read directly: density, velocity and the solid mask on points at
// the site centres. read_vti() reads back what write_vti() writes.

#include <kolb/io/fields.hpp>

#include <string>
#include <utility>
#include <vector>

namespace kolb {

// `single` writes Float32 arrays (for float runs), else Float64.
void write_vti(const std::string& path, const HostFields& fields, bool single = false);
HostFields read_vti(const std::string& path);

// ParaView collection listing (step, file) pairs as a time series.
void write_pvd(const std::string& path,
               const std::vector<std::pair<std::int64_t, std::string>>& entries);

}  // namespace kolb
