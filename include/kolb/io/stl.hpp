#pragma once
// STL surface meshes, binary and ASCII: their triangles. Normals are not
// read; inside and outside follow from the surface alone (io/surface_mesh.hpp).

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace kolb {

using Point3 = std::array<double, 3>;
struct Triangle {
  std::array<Point3, 3> v;
};

// What is wrong with an STL file: the message, and the line of an ASCII
// file it concerns (0 for a binary file or the file as a whole).
struct StlError : std::runtime_error {
  int line = 0;
  StlError(const std::string& what, int at) : std::runtime_error(what), line(at) {}
};

// The triangles of the STL file at `path`. A file whose length is that of
// a binary STL with the triangle count in its header is read as binary
// (some binary headers begin with "solid" too), any other as ASCII.
// Throws StlError naming what is wrong and, in ASCII, the line.
std::vector<Triangle> read_stl(const std::string& path);

// What keeps `triangles` from bounding a volume (empty: nothing): an edge
// used by an odd number of triangles, so that a ray could leave the
// surface through a hole. Triangles with a repeated vertex are skipped.
std::string stl_open_edges(const std::vector<Triangle>& triangles);

}  // namespace kolb
