#include <kolb/io/vtk.hpp>

#include "output_files.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace kolb {

namespace {

// One appended array: its byte count, then the values converted to T, in
// chunks through a small buffer (a snapshot's arrays are tens of MB: no
// second copy of them in memory, no page faults for one).
template <class T, class Get>
void write_array(std::ostream& out, std::size_t count, const Get& value) {
  const std::uint64_t bytes = count * sizeof(T);
  out.write(reinterpret_cast<const char*>(&bytes), sizeof bytes);
  constexpr std::size_t chunk = 1 << 15;
  std::vector<T> buffer(std::min(count, chunk));
  for (std::size_t k0 = 0; k0 < count; k0 += chunk) {
    const std::size_t k1 = std::min(count, k0 + chunk);
    for (std::size_t k = k0; k < k1; ++k) buffer[k - k0] = T(value(k));
    out.write(reinterpret_cast<const char*>(buffer.data()), std::streamsize((k1 - k0) * sizeof(T)));
  }
}

// "x0 x1 y0 y1 z0 z1" of the points of a box of sites.
std::string extent_text(const std::array<int, 3>& origin, const std::array<int, 3>& n) {
  std::string e;
  for (int a = 0; a < 3; ++a)
    e += (a ? " " : "") + std::to_string(origin[a]) + " " + std::to_string(origin[a] + n[a] - 1);
  return e;
}

}  // namespace

void write_vti(const std::string& path, const HostFields& f, bool single) {
  const std::size_t n = f.size();
  const bool thermal = !f.temperature.empty();
  const std::size_t real_bytes = single ? 4 : 8, header = sizeof(std::uint64_t);
  // Offsets of the arrays in the appended data: density, velocity, solid, T.
  std::vector<std::size_t> offsets{0};
  offsets.push_back(offsets.back() + header + n * real_bytes);
  offsets.push_back(offsets.back() + header + 3 * n * real_bytes);
  offsets.push_back(offsets.back() + header + n);
  const char* real = single ? "Float32" : "Float64";

  std::ostringstream x;
  const std::string extent = extent_text(f.origin, f.n);
  x << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
       "header_type=\"UInt64\">\n"
    << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"0.5 0.5 "
    << (f.n[2] > 1 ? "0.5" : "0") << "\" Spacing=\"1 1 1\">\n"
    << "    <Piece Extent=\"" << extent << "\">\n"
    << "      <PointData Scalars=\"density\" Vectors=\"velocity\">\n"
    << "        <DataArray type=\"" << real << "\" Name=\"density\" format=\"appended\" offset=\""
    << offsets[0] << "\"/>\n"
    << "        <DataArray type=\"" << real
    << "\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"appended\" offset=\"" << offsets[1]
    << "\"/>\n"
    << "        <DataArray type=\"UInt8\" Name=\"solid\" format=\"appended\" offset=\""
    << offsets[2] << "\"/>\n";
  if (thermal)
    x << "        <DataArray type=\"" << real
      << "\" Name=\"temperature\" format=\"appended\" offset=\"" << offsets[3] << "\"/>\n";
  x << "      </PointData>\n"
    << "    </Piece>\n"
    << "  </ImageData>\n"
    << "  <AppendedData encoding=\"raw\">\n   _";
  const std::string head = x.str();
  // Through a temporary name and a rename: a reader never sees half a file
  // and an interrupted run leaves the previous files intact.
  write_atomically_with(path, [&](std::ofstream& out) {
    out << head;
    auto reals = [&](const std::vector<double>& v) {
      const auto get = [&](std::size_t k) { return v[k]; };
      single ? write_array<float>(out, v.size(), get) : write_array<double>(out, v.size(), get);
    };
    reals(f.rho);
    reals(f.u);
    write_array<std::uint8_t>(out, n, [&](std::size_t k) { return f.material[k] != kFluid; });
    if (thermal) reals(f.temperature);
    out << "\n  </AppendedData>\n</VTKFile>\n";
  });
}

void write_pvd(const std::string& path,
               const std::vector<std::pair<std::int64_t, std::string>>& entries) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  "
         "<Collection>\n";
  for (const auto& [step, file] : entries)
    out << "    <DataSet timestep=\"" << step << "\" file=\"" << file << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  write_atomically(path, out.str());
}

void write_pvti(const std::string& path, const std::array<int, 3>& n,
                const std::vector<VtiPiece>& pieces, bool single, bool thermal) {
  const char* real = single ? "Float32" : "Float64";
  std::ostringstream x;
  x << "<?xml version=\"1.0\"?>\n"
    << "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
       "header_type=\"UInt64\">\n"
    << "  <PImageData WholeExtent=\"" << extent_text({0, 0, 0}, n) << "\" GhostLevel=\"0\" "
    << "Origin=\"0.5 0.5 " << (n[2] > 1 ? "0.5" : "0") << "\" Spacing=\"1 1 1\">\n"
    << "    <PPointData Scalars=\"density\" Vectors=\"velocity\">\n"
    << "      <PDataArray type=\"" << real << "\" Name=\"density\"/>\n"
    << "      <PDataArray type=\"" << real << "\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n"
    << "      <PDataArray type=\"UInt8\" Name=\"solid\"/>\n";
  if (thermal) x << "      <PDataArray type=\"" << real << "\" Name=\"temperature\"/>\n";
  x << "    </PPointData>\n";
  for (const VtiPiece& p : pieces)
    x << "    <Piece Extent=\"" << extent_text(p.origin, p.n) << "\" Source=\"" << p.file
      << "\"/>\n";
  x << "  </PImageData>\n</VTKFile>\n";
  write_atomically(path, x.str());
}

}  // namespace kolb
