#pragma once
// HostFields: physical fields of the interior on the host, compact index
// x + nx (y + ny z): what VTK files hold and what initial states are.

#include <kolb/block/materials.hpp>

#include <array>
#include <vector>

namespace kolb {

struct HostFields {
  std::array<int, 3> n{1, 1, 1};
  std::vector<double> rho;          // 0 on solid sites
  std::vector<double> u;            // 3 values per site
  std::vector<double> temperature;  // models with a temperature (D2Q37: T^H); else empty
  std::vector<material_t> material;
  std::size_t index(int x, int y, int z) const {
    return std::size_t(x) + std::size_t(n[0]) * (std::size_t(y) + std::size_t(n[1]) * z);
  }
  std::size_t size() const { return std::size_t(n[0]) * n[1] * n[2]; }
};

}  // namespace kolb
