// Reading and interpolating an inlet's profile file (io/inflow_table.hpp).

#include <kolb/io/inflow_table.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace kolb {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) out.push_back(trim(cell));
  return out;
}

// Index of the bracket [k, k + 1] of x in ascending `c`, and the weight of
// k + 1 (clamped to the ends).
std::pair<std::size_t, double> bracket(const std::vector<double>& c, double x) {
  if (c.size() == 1 || x <= c.front()) return {0, 0.0};
  if (x >= c.back()) return {c.size() - 2, 1.0};
  const auto k = std::size_t(std::upper_bound(c.begin(), c.end(), x) - c.begin()) - 1;
  return {k, (x - c[k]) / (c[k + 1] - c[k])};
}

}  // namespace

InflowTable InflowTable::read(const std::string& path, int normal, int dim) {
  std::ifstream in(path);
  if (!in) throw InflowTableError("cannot be read: " + std::string(std::strerror(errno)), 0);
  const char* names = "xyz";
  InflowTable t;
  std::array<int, 3> velocity_column{-1, -1, -1};
  std::array<int, 2> coord_column{-1, -1};
  std::size_t columns = 0;
  std::vector<std::pair<std::array<double, 2>, std::array<double, 3>>> rows;
  std::vector<int> row_line;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line_no == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // a BOM
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const auto cells = split(line);
    if (columns == 0) {  // the header
      columns = cells.size();
      int coords = 0;
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const std::string& name = cells[k];
        const char* axis = name.size() == 1 ? std::strchr(names, name[0]) : nullptr;
        const char* comp =
            name.size() == 2 && name[0] == 'u' ? std::strchr(names, name[1]) : nullptr;
        const bool again = axis && *axis && (t.m_axes[0] == axis - names);
        if (axis && *axis && axis - names < dim && axis - names != normal && coords < 2 && !again) {
          t.m_axes[std::size_t(coords)] = int(axis - names);
          coord_column[std::size_t(coords++)] = int(k);
        } else if (comp && *comp && comp - names < dim &&
                   velocity_column[std::size_t(comp - names)] < 0) {
          velocity_column[std::size_t(comp - names)] = int(k);
        } else {
          std::string across;
          for (int a = 0; a < dim; ++a)
            if (a != normal) across += std::string(across.empty() ? "" : ", ") + names[a];
          throw InflowTableError("column '" + name + "' is neither a coordinate across the face (" +
                                     across + ", each once) nor a velocity component (" +
                                     (dim == 2 ? "ux, uy" : "ux, uy, uz") + ", each once)",
                                 line_no);
        }
      }
      for (int a = 0; a < dim; ++a)
        if (velocity_column[std::size_t(a)] < 0)
          throw InflowTableError("the header has no column u" + std::string(1, names[a]), line_no);
      if (t.m_axes[1] >= 0 && t.m_axes[1] < t.m_axes[0]) {
        std::swap(t.m_axes[0], t.m_axes[1]);
        std::swap(coord_column[0], coord_column[1]);
      }
      continue;
    }
    if (cells.size() != columns)
      throw InflowTableError(
          "expected " + std::to_string(columns) + " values, got " + std::to_string(cells.size()),
          line_no);
    std::vector<double> v(columns);
    for (std::size_t k = 0; k < columns; ++k) {
      std::size_t used = 0;
      try {
        v[k] = std::stod(cells[k], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (cells[k].empty() || used != cells[k].size() || !std::isfinite(v[k]))
        throw InflowTableError("'" + cells[k] + "' is not a number", line_no);
    }
    std::array<double, 2> at{0, 0};
    std::array<double, 3> u{0, 0, 0};
    for (std::size_t g = 0; g < 2; ++g)
      if (coord_column[g] >= 0) at[g] = v[std::size_t(coord_column[g])];
    for (std::size_t a = 0; a < 3; ++a)
      if (velocity_column[a] >= 0) u[a] = v[std::size_t(velocity_column[a])];
    rows.push_back({at, u});
    row_line.push_back(line_no);
  }
  if (rows.empty()) throw InflowTableError("no rows of values", 0);
  // The grid: the sorted distinct values of each coordinate.
  for (std::size_t g = 0; g < 2; ++g) {
    if (t.m_axes[g] < 0) {
      t.m_coords[g] = {0.0};
      continue;
    }
    for (const auto& r : rows) t.m_coords[g].push_back(r.first[g]);
    std::sort(t.m_coords[g].begin(), t.m_coords[g].end());
    t.m_coords[g].erase(std::unique(t.m_coords[g].begin(), t.m_coords[g].end()),
                        t.m_coords[g].end());
  }
  // Points given twice, then the count, before any allocation by the
  // grid's size (scattered points would span a grid of N^2).
  std::vector<std::size_t> order(rows.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  const auto key = [&](std::size_t k) {
    return std::make_pair(rows[k].first[1], rows[k].first[0]);
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  for (std::size_t k = 1; k < order.size(); ++k)
    if (key(order[k]) == key(order[k - 1]))
      throw InflowTableError("a grid point given twice (also on line " +
                                 std::to_string(row_line[std::min(order[k], order[k - 1])]) + ")",
                             row_line[std::max(order[k], order[k - 1])]);
  const std::size_t n0 = t.m_coords[0].size(), n1 = t.m_coords[1].size();
  if (rows.size() != n0 * n1)
    throw InflowTableError(std::to_string(rows.size()) + " rows do not make the " +
                               std::to_string(n0) + " x " + std::to_string(n1) +
                               " grid their coordinates span (each point once)",
                           0);
  t.m_values.assign(n0 * n1, {0, 0, 0});
  t.m_lines.assign(n0 * n1, 0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto j0 =
        std::size_t(std::lower_bound(t.m_coords[0].begin(), t.m_coords[0].end(), rows[k].first[0]) -
                    t.m_coords[0].begin());
    const auto j1 =
        std::size_t(std::lower_bound(t.m_coords[1].begin(), t.m_coords[1].end(), rows[k].first[1]) -
                    t.m_coords[1].begin());
    const std::size_t at = j1 * n0 + j0;
    t.m_lines[at] = row_line[k];
    t.m_values[at] = rows[k].second;
  }
  return t;
}

std::array<double, 3> InflowTable::at(const std::array<double, 3>& p) const {
  const auto along = [&](std::size_t g) {
    return m_axes[g] < 0 ? std::pair<std::size_t, double>{0, 0.0}
                         : bracket(m_coords[g], p[std::size_t(m_axes[g])]);
  };
  const auto [k0, w0] = along(0);
  const auto [k1, w1] = along(1);
  const std::size_t n0 = m_coords[0].size();
  std::array<double, 3> u{0, 0, 0};
  // Weights of 0 skip the point beyond the last (which may not exist) and
  // give the grid's values exactly at its points.
  for (std::size_t d1 = 0; d1 < 2; ++d1)
    for (std::size_t d0 = 0; d0 < 2; ++d0) {
      const double w = (d0 ? w0 : 1 - w0) * (d1 ? w1 : 1 - w1);
      if (w == 0) continue;
      const auto& v = m_values[(k1 + d1) * n0 + k0 + d0];
      for (std::size_t a = 0; a < 3; ++a) u[a] += w * v[a];
    }
  return u;
}

std::pair<double, int> InflowTable::max_speed() const {
  std::pair<double, int> m{0, 0};
  for (std::size_t k = 0; k < m_values.size(); ++k) {
    const auto& v = m_values[k];
    const double s = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (s > m.first) m = {s, m_lines[k]};
  }
  return m;
}

int InflowTable::against(int axis, double sign) const {
  for (std::size_t k = 0; k < m_values.size(); ++k)
    if (sign * m_values[k][std::size_t(axis)] < 0) return m_lines[k];
  return 0;
}

}  // namespace kolb
