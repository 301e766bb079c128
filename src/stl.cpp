// The STL reader and its closedness check (io/stl.hpp).

#include <kolb/io/stl.hpp>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <utility>

namespace kolb {

namespace {

std::string point_text(const Point3& p) {
  std::ostringstream s;
  s << "(" << p[0] << ", " << p[1] << ", " << p[2] << ")";
  return s.str();
}

// A word as messages quote it.
std::string shown(const std::string& w) {
  return w.empty() ? std::string("the end of the file") : "'" + w + "'";
}

std::vector<Triangle> read_binary(const std::string& bytes, std::uint32_t count) {
  std::vector<Triangle> out(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const char* rec = bytes.data() + 84 + 50 * std::size_t(k) + 12;  // after the normal
    for (int v = 0; v < 3; ++v)
      for (int a = 0; a < 3; ++a) {
        float x;
        std::memcpy(&x, rec + 12 * v + 4 * a, 4);
        if (!std::isfinite(x))
          throw StlError("triangle " + std::to_string(k + 1) +
                             " has a coordinate that is not a "
                             "finite number",
                         0);
        out[k].v[std::size_t(v)][std::size_t(a)] = x;
      }
  }
  return out;
}

// ASCII STL: solid [name] (facet normal n n n outer loop (vertex x y z){3}
// endloop endfacet)* endsolid [name], several solids in a row allowed.
struct AsciiReader {
  const std::string& text;
  std::size_t pos = 0;
  int line = 1;

  // The next word, and the line it starts on ("" at the end).
  std::string word() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      if (text[pos++] == '\n') ++line;
    const std::size_t begin = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    return text.substr(begin, pos - begin);
  }
  [[noreturn]] void fail(const std::string& what) const { throw StlError(what, line); }
  void expect(const char* want) {
    const std::string w = word();
    if (w != want) fail("expected '" + std::string(want) + "', got " + shown(w));
  }
  double number() {
    const std::string w = word();
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(w, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (w.empty() || used != w.size() || !std::isfinite(x))
      fail("expected a number, got " + shown(w));
    return x;
  }
  void rest_of_line() {
    while (pos < text.size() && text[pos] != '\n') ++pos;
  }

  std::vector<Triangle> read() {
    std::vector<Triangle> out;
    std::string w = word();
    if (w != "solid") fail("an STL file begins with 'solid' (ASCII) or is binary; got '" + w + "'");
    while (true) {
      rest_of_line();  // the solid's name
      while (true) {
        w = word();
        if (w == "endsolid") break;
        if (w != "facet") fail("expected 'facet' or 'endsolid', got " + shown(w));
        expect("normal");
        for (int a = 0; a < 3; ++a)  // not read (some writers put nan there)
          if (word().empty()) fail("expected a normal's three components");
        expect("outer");
        expect("loop");
        Triangle t;
        for (auto& v : t.v) {
          expect("vertex");
          for (auto& x : v) x = number();
        }
        expect("endloop");
        expect("endfacet");
        out.push_back(t);
      }
      rest_of_line();
      w = word();
      if (w.empty()) return out;
      if (w != "solid") fail("expected 'solid' or the end of the file, got '" + w + "'");
    }
  }
};

}  // namespace

std::vector<Triangle> read_stl(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StlError("cannot be read: " + std::string(std::strerror(errno)), 0);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() >= 84) {
    std::uint32_t count;
    std::memcpy(&count, bytes.data() + 80, 4);  // little-endian, as the format and our hosts
    if (bytes.size() == 84 + 50 * std::size_t(count)) {
      if (count == 0) throw StlError("a binary STL without triangles", 0);
      return read_binary(bytes, count);
    }
  }
  if (bytes.compare(0, 5, "solid") != 0) {
    if (bytes.size() >= 84)
      throw StlError("neither ASCII (it does not begin with 'solid') nor binary (" +
                         std::to_string(bytes.size()) + " bytes, not 84 + 50 x the " +
                         "header's triangle count)",
                     0);
    throw StlError("too short for an STL file (" + std::to_string(bytes.size()) + " bytes)", 0);
  }
  auto triangles = AsciiReader{bytes}.read();
  if (triangles.empty()) throw StlError("an ASCII STL without facets", 0);
  return triangles;
}

std::string stl_open_edges(const std::vector<Triangle>& triangles) {
  // Vertices welded where their coordinates are equal bit for bit, as
  // STL writers repeat them; then each undirected edge's use count.
  std::map<Point3, int> ids;
  std::vector<Point3> points;
  auto id = [&](const Point3& p) {
    const auto [it, added] = ids.emplace(p, int(points.size()));
    if (added) points.push_back(p);
    return it->second;
  };
  std::map<std::pair<int, int>, int> uses;
  for (const Triangle& t : triangles) {
    const int v[3] = {id(t.v[0]), id(t.v[1]), id(t.v[2])};
    if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) continue;
    for (int e = 0; e < 3; ++e) {
      const int a = v[e], b = v[(e + 1) % 3];
      ++uses[{std::min(a, b), std::max(a, b)}];
    }
  }
  int odd = 0;
  std::pair<int, int> first{-1, -1};
  for (const auto& [edge, n] : uses)
    if (n % 2) {
      if (odd++ == 0) first = edge;
    }
  if (odd == 0) return {};
  return "the mesh is not closed: " + std::to_string(odd) + " of its " +
         std::to_string(uses.size()) + " edges border an odd number of triangles, the first from " +
         point_text(points[std::size_t(first.first)]) + " to " +
         point_text(points[std::size_t(first.second)]);
}

}  // namespace kolb
