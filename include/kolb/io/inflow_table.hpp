#pragma once
// A velocity inlet's profile from a file (`profile: file`): velocities on
// a grid over one or two axes across the face, in lattice coordinates.

#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kolb {

// What is wrong with a profile file, and the line it concerns (0: the
// file as a whole).
struct InflowTableError : std::runtime_error {
  int line = 0;
  InflowTableError(const std::string& what, int at) : std::runtime_error(what), line(at) {}
};

class InflowTable {
 public:
  // Reads the CSV file at `path` for the inlet on the face across axis
  // `normal` of a `dim`-D lattice. Its header names the columns: one or
  // two coordinates across the face (x, y, z; site i's centre at i + 1/2)
  // and the velocity (ux, uy and, in 3-D, uz); '#' starts a comment. The
  // rows, in any order, hold every point of the grid the coordinates'
  // values span, once. Throws InflowTableError.
  static InflowTable read(const std::string& path, int normal, int dim);

  // The velocity at lattice coordinates p: linear between the grid's
  // points along each of its axes (bilinear over two), the nearest end's
  // beyond them (also across a periodic axis: not wrapped); the other
  // coordinates are not read.
  std::array<double, 3> at(const std::array<double, 3>& p) const;
  // The largest speed in the table and its row's line; the line of the
  // first row with sign * u[axis] < 0 (0: none; the inflow's direction).
  std::pair<double, int> max_speed() const;
  int against(int axis, double sign) const;
  // The lattice axes the grid spans (-1: none).
  const std::array<int, 2>& axes() const { return m_axes; }

 private:
  std::array<int, 2> m_axes{-1, -1};
  std::array<std::vector<double>, 2> m_coords;  // ascending, per grid axis
  std::vector<std::array<double, 3>> m_values;  // [j1 * n0 + j0]
  std::vector<int> m_lines;                     // the file's line of each point
};

}  // namespace kolb
