#pragma once
// read_vti(): reads back what write_vti() (kolb/io/vtk.hpp) writes, so the
// tests can check snapshots against the fields they came from.

#include <kolb/io/fields.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace kolb::test {

inline HostFields read_vti(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto data_start = s.find("<AppendedData");
  const auto underscore = s.find('_', data_start);
  if (data_start == std::string::npos || underscore == std::string::npos)
    throw std::runtime_error(path + ": no appended data");
  const std::string header = s.substr(0, data_start);
  HostFields f;
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("WholeExtent=\"0 (\\d+) 0 (\\d+) 0 (\\d+)\"")))
    throw std::runtime_error(path + ": no WholeExtent");
  for (int a = 0; a < 3; ++a) f.n[a] = std::stoi(m[a + 1]) + 1;
  const std::size_t n = std::size_t(f.n[0]) * f.n[1] * f.n[2];
  auto array = [&](const std::string& name, std::size_t count) {
    std::smatch a;
    const std::regex re("<DataArray type=\"(\\w+)\" Name=\"" + name + "\"[^>]*offset=\"(\\d+)\"");
    if (!std::regex_search(header, a, re)) throw std::runtime_error(path + ": no array " + name);
    const std::string type = a[1];
    const std::size_t pos = underscore + 1 + std::stoull(a[2]);
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, s.data() + pos, sizeof bytes);
    const std::size_t size = type == "Float64" ? 8 : (type == "Float32" ? 4 : 1);
    if (bytes != count * size || pos + 8 + bytes > s.size())
      throw std::runtime_error(path + ": array " + name + " has the wrong size");
    std::vector<double> v(count);
    const char* p = s.data() + pos + 8;
    for (std::size_t k = 0; k < count; ++k) {
      if (size == 8) {
        double d;
        std::memcpy(&d, p + 8 * k, 8);
        v[k] = d;
      } else if (size == 4) {
        float d;
        std::memcpy(&d, p + 4 * k, 4);
        v[k] = d;
      } else {
        v[k] = static_cast<unsigned char>(p[k]);
      }
    }
    return v;
  };
  f.rho = array("density", n);
  f.u = array("velocity", 3 * n);
  const auto solid = array("solid", n);
  f.material.resize(n);
  for (std::size_t k = 0; k < n; ++k) f.material[k] = solid[k] != 0 ? kSolid : kFluid;
  if (header.find("Name=\"temperature\"") != std::string::npos)
    f.temperature = array("temperature", n);
  return f;
}

}  // namespace kolb::test
