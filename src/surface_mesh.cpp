// Placing and querying a closed triangle surface (io/surface_mesh.hpp).

#include <kolb/io/surface_mesh.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace kolb {

namespace {

// cos and sin of an angle in degrees, exact at multiples of 90.
std::array<double, 2> cos_sin(double degrees) {
  const double quarter = degrees / 90;
  if (quarter == std::round(quarter)) {
    const long k = ((long(std::round(quarter)) % 4) + 4) % 4;
    const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
    return {c[k], s[k]};
  }
  const double r = degrees * std::acos(-1.0) / 180;
  return {std::cos(r), std::sin(r)};
}

// Rotates p about axis a by the angle whose cos, sin are cs.
void rotate(Point3& p, int a, const std::array<double, 2>& cs) {
  const auto i = std::size_t((a + 1) % 3), j = std::size_t((a + 2) % 3);
  const double pi = p[i], pj = p[j];
  p[i] = cs[0] * pi - cs[1] * pj;
  p[j] = cs[1] * pi + cs[0] * pj;
}

Point3 sub(const Point3& a, const Point3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point3 cross(const Point3& a, const Point3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Point3& a, const Point3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Fills a binning as offsets into one list: `bins(t, f)` calls f(bin) for
// each bin triangle t lies in.
template <class Bins>
void fill_bins(std::size_t count, std::size_t triangles, const Bins& bins,
               std::vector<std::size_t>& start, std::vector<std::uint32_t>& list) {
  start.assign(count + 1, 0);
  for (std::size_t t = 0; t < triangles; ++t) bins(t, [&](std::size_t b) { ++start[b + 1]; });
  for (std::size_t b = 0; b < count; ++b) start[b + 1] += start[b];
  list.resize(start[count]);
  std::vector<std::size_t> at(start.begin(), start.end() - 1);
  for (std::size_t t = 0; t < triangles; ++t)
    bins(t, [&](std::size_t b) { list[at[b]++] = std::uint32_t(t); });
}

}  // namespace

SurfaceMesh::SurfaceMesh(const std::vector<Triangle>& triangles, const MeshPlacement& place)
    : m_triangles(triangles) {
  const std::array<std::array<double, 2>, 3> cs{cos_sin(place.rotate[0]), cos_sin(place.rotate[1]),
                                                cos_sin(place.rotate[2])};
  m_lo.fill(HUGE_VAL), m_hi.fill(-HUGE_VAL);
  for (Triangle& t : m_triangles)
    for (Point3& p : t.v) {
      for (std::size_t a = 0; a < 3; ++a) p[a] *= place.scale[a];
      for (int a = 0; a < 3; ++a) rotate(p, a, cs[std::size_t(a)]);
      for (std::size_t a = 0; a < 3; ++a) {
        p[a] += place.offset[a];
        // A NaN fails both comparisons: the bounds then say so.
        if (!(p[a] >= m_lo[a])) m_lo[a] = std::isnan(p[a]) ? p[a] : std::min(m_lo[a], p[a]);
        if (!(p[a] <= m_hi[a])) m_hi[a] = std::isnan(p[a]) ? p[a] : std::max(m_hi[a], p[a]);
      }
    }
}

void SurfaceMesh::bin(const Point3& region_lo, const Point3& region_hi) {
  // Each bin range: the triangle's (or mesh's) bounds clipped to the region.
  const auto range = [&](double lo, double hi, std::size_t a, double cell) {
    lo = std::max(lo, region_lo[a]), hi = std::min(hi, region_hi[a]);
    return lo > hi ? std::array<int, 2>{0, -1}
                   : std::array<int, 2>{int(std::floor(lo / cell)), int(std::floor(hi / cell))};
  };
  const auto bounds = [&](std::size_t t, std::size_t a, double cell) {
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (const Point3& p : m_triangles[t].v) lo = std::min(lo, p[a]), hi = std::max(hi, p[a]);
    return range(lo, hi, a, cell);
  };
  for (std::size_t a = 0; a < 2; ++a) {
    const auto r = range(m_lo[a + 1], m_hi[a + 1], a + 1, 1);
    m_col_lo[a] = r[0], m_cols[a] = r[1] - r[0] + 1;
  }
  fill_bins(
      std::size_t(m_cols[0]) * std::size_t(m_cols[1]), m_triangles.size(),
      [&](std::size_t t, auto&& f) {
        const auto y = bounds(t, 1, 1), z = bounds(t, 2, 1);
        for (int k = z[0]; k <= z[1]; ++k)
          for (int j = y[0]; j <= y[1]; ++j)
            f(std::size_t(k - m_col_lo[1]) * std::size_t(m_cols[0]) + std::size_t(j - m_col_lo[0]));
      },
      m_col_start, m_col_list);
  for (std::size_t a = 0; a < 3; ++a) {
    const auto r = range(m_lo[a], m_hi[a], a, kCell);
    m_cell_lo[a] = r[0], m_cells[a] = r[1] - r[0] + 1;
  }
  fill_bins(
      std::size_t(m_cells[0]) * std::size_t(m_cells[1]) * std::size_t(m_cells[2]),
      m_triangles.size(),
      [&](std::size_t t, auto&& f) {
        const auto x = bounds(t, 0, kCell), y = bounds(t, 1, kCell), z = bounds(t, 2, kCell);
        for (int k = z[0]; k <= z[1]; ++k)
          for (int j = y[0]; j <= y[1]; ++j)
            for (int i = x[0]; i <= x[1]; ++i)
              f((std::size_t(k - m_cell_lo[2]) * std::size_t(m_cells[1]) +
                 std::size_t(j - m_cell_lo[1])) *
                    std::size_t(m_cells[0]) +
                std::size_t(i - m_cell_lo[0]));
      },
      m_cell_start, m_cell_list);
}

const double* SurfaceMesh::coordinates() const {
  // A Triangle is nine doubles in a row (standard layout, no padding).
  static_assert(sizeof(Triangle) == 9 * sizeof(double) && std::is_standard_layout_v<Triangle>);
  return m_triangles.empty() ? nullptr : reinterpret_cast<const double*>(m_triangles.data());
}

MeshColumns SurfaceMesh::columns() const {
  MeshColumns m;
  m.triangles = coordinates();
  m.start = m_col_start.data(), m.list = m_col_list.data();
  for (std::size_t a = 0; a < 2; ++a) m.lo[a] = m_col_lo[a], m.cols[a] = m_cols[a];
  return m;
}

void SurfaceMesh::crossings(double y, double z, std::vector<double>& xs) const {
  const MeshColumns m = columns();
  m.settle(y, z);
  xs.clear();
  m.for_each(y, z, [&](double x) { xs.push_back(x); });
  std::sort(xs.begin(), xs.end());
}

bool SurfaceMesh::holds(const Point3& p) const {
  for (std::size_t a = 0; a < 3; ++a)
    if (!(p[a] >= m_lo[a] && p[a] <= m_hi[a])) return false;  // cheap: most images
  thread_local std::vector<double> xs;
  crossings(p[1], p[2], xs);
  return (std::lower_bound(xs.begin(), xs.end(), p[0]) - xs.begin()) % 2 == 1;
}

double SurfaceMesh::first_hit(const Point3& from, const Point3& to) const {
  const Point3 d = sub(to, from);
  std::array<int, 3> lo{}, hi{};
  for (std::size_t a = 0; a < 3; ++a) {
    lo[a] = std::max(0, int(std::floor(std::min(from[a], to[a]) / kCell)) - m_cell_lo[a]);
    hi[a] =
        std::min(m_cells[a] - 1, int(std::floor(std::max(from[a], to[a]) / kCell)) - m_cell_lo[a]);
    if (lo[a] > hi[a]) return -1;
  }
  constexpr double eps = 1e-12;
  double best = HUGE_VAL;
  for (int k = lo[2]; k <= hi[2]; ++k)
    for (int j = lo[1]; j <= hi[1]; ++j)
      for (int i = lo[0]; i <= hi[0]; ++i) {
        const std::size_t cell =
            (std::size_t(k) * std::size_t(m_cells[1]) + std::size_t(j)) * std::size_t(m_cells[0]) +
            std::size_t(i);
        for (std::size_t n = m_cell_start[cell]; n < m_cell_start[cell + 1]; ++n) {
          // Moller and Trumbore (1997).
          const auto& v = m_triangles[m_cell_list[n]].v;
          const Point3 e1 = sub(v[1], v[0]), e2 = sub(v[2], v[0]);
          const Point3 p = cross(d, e2);
          const double det = dot(e1, p);
          if (det == 0) continue;  // parallel to the triangle's plane
          const Point3 s = sub(from, v[0]);
          const double u = dot(s, p) / det;
          if (u < -eps || u > 1 + eps) continue;
          const Point3 q = cross(s, e1);
          const double w = dot(d, q) / det;
          if (w < -eps || u + w > 1 + eps) continue;
          const double t = dot(e2, q) / det;
          if (t >= -eps && t <= 1 + eps) best = std::min(best, std::clamp(t, 0.0, 1.0));
        }
      }
  return best == HUGE_VAL ? -1 : best;
}

}  // namespace kolb
