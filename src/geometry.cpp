// Set-up of a case: site materials (walls, obstacles, masks) and the
// initial macroscopic fields, on the host, but for the STL voxeliser's
// passes, which run on the run's execution space. Runs once, before the
// solver's kernels.

#include <kolb/io/fields.hpp>
#include <kolb/io/mask.hpp>
#include <kolb/io/mesh_crossings.hpp>
#include <kolb/io/surface_mesh.hpp>
#include <kolb/model/lattice_info.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <type_traits>

namespace kolb {

material_t MaterialTable::moving_wall(const std::array<double, 3>& u) {
  for (std::size_t m = 1; m < velocity.size(); ++m)
    if (velocity[m] == u) return material_t(m);
  if (int(velocity.size()) >= kMaxMaterials)
    throw std::runtime_error("too many distinct moving walls (at most " +
                             std::to_string(kMaxMaterials - 2) + ")");
  velocity.push_back(u);
  return material_t(velocity.size() - 1);
}

namespace {

[[noreturn]] void mask_error(const Obstacle& o, const std::string& msg) {
  throw ConfigError(o.where, "mask file '" + o.file + "': " + msg);
}

}  // namespace

Mask read_mask(const Obstacle& o) {
  std::ifstream in(o.file, std::ios::binary);
  if (!in) mask_error(o, "cannot be read");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Mask m;
  std::vector<bool> rows_top_first;
  if (content.size() >= 2 && content[0] == 'P' &&
      std::string("1245").find(content[1]) != std::string::npos) {
    const char kind = content[1];
    std::size_t pos = 2;
    auto next_int = [&]() {
      while (pos < content.size()) {
        if (content[pos] == '#') {
          while (pos < content.size() && content[pos] != '\n') ++pos;
        } else if (std::isspace(static_cast<unsigned char>(content[pos]))) {
          ++pos;
        } else {
          break;
        }
      }
      std::size_t end = pos;
      while (end < content.size() && std::isdigit(static_cast<unsigned char>(content[end]))) ++end;
      if (end == pos) mask_error(o, "malformed PBM/PGM header or data");
      const int v = std::stoi(content.substr(pos, end - pos));
      pos = end;
      return v;
    };
    m.width = next_int();
    m.height = next_int();
    const int maxval = (kind == '1' || kind == '4') ? 1 : next_int();
    if (m.width <= 0 || m.height <= 0 || maxval <= 0) mask_error(o, "bad image size");
    const std::size_t count = std::size_t(m.width) * m.height;
    rows_top_first.resize(count);
    if (kind == '1' || kind == '2') {
      for (std::size_t k = 0; k < count; ++k) {
        if (kind == '1') {  // P1 pixels may be packed without spaces
          while (pos < content.size() && std::isspace(static_cast<unsigned char>(content[pos])))
            ++pos;
          if (pos >= content.size()) mask_error(o, "fewer pixels than width x height");
          rows_top_first[k] = content[pos++] == '1';
        } else {
          rows_top_first[k] = next_int() * 2 < maxval;
        }
      }
    } else {
      ++pos;  // single whitespace after the header
      if (kind == '4') {
        const std::size_t row_bytes = (std::size_t(m.width) + 7) / 8;
        if (content.size() < pos + row_bytes * m.height) mask_error(o, "truncated P4 data");
        for (int y = 0; y < m.height; ++y)
          for (int x = 0; x < m.width; ++x)
            rows_top_first[std::size_t(y) * m.width + x] =
                (static_cast<unsigned char>(content[pos + y * row_bytes + x / 8]) >> (7 - x % 8)) &
                1;
      } else {
        if (maxval > 255) mask_error(o, "16-bit PGM is not supported");
        if (content.size() < pos + count) mask_error(o, "truncated P5 data");
        for (std::size_t k = 0; k < count; ++k)
          rows_top_first[k] = static_cast<unsigned char>(content[pos + k]) * 2 < maxval;
      }
    }
  } else {
    std::vector<std::string> lines;
    std::stringstream ss(content);
    for (std::string line; std::getline(ss, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    if (lines.empty()) mask_error(o, "is empty");
    m.height = int(lines.size());
    for (const auto& l : lines) m.width = std::max(m.width, int(l.size()));
    rows_top_first.assign(std::size_t(m.width) * m.height, false);
    for (int y = 0; y < m.height; ++y)
      for (std::size_t x = 0; x < lines[y].size(); ++x) {
        const char ch = lines[y][x];
        if (ch == '1' || ch == '#' || ch == 'X' || ch == '@')
          rows_top_first[std::size_t(y) * m.width + x] = true;
        else if (!(ch == '0' || ch == '.' || ch == ' '))
          mask_error(o, "line " + std::to_string(y + 1) + " column " + std::to_string(x + 1) +
                            ": unexpected character '" + std::string(1, ch) +
                            "' (use 1 # X @ for solid, 0 . space for fluid)");
      }
  }
  // Flip so that y = 0 is the bottom row, as in the lattice.
  m.solid.resize(rows_top_first.size());
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x)
      m.solid[std::size_t(y) * m.width + x] =
          rows_top_first[std::size_t(m.height - 1 - y) * m.width + x];
  return m;
}

bool shape_holds(const Obstacle& o, const std::array<double, 3>& p, int dim) {
  switch (o.kind) {
    case Obstacle::Kind::box:
      for (int a = 0; a < 3; ++a)
        if (p[a] < o.min[a] || p[a] >= o.max[a]) return false;
      return true;
    case Obstacle::Kind::sphere:
    case Obstacle::Kind::cylinder: {
      double r2 = 0;
      for (int a = 0; a < dim; ++a)
        if (!(o.kind == Obstacle::Kind::cylinder && a == o.axis))
          r2 += (p[a] - o.center[a]) * (p[a] - o.center[a]);
      return r2 <= o.radius * o.radius;
    }
    case Obstacle::Kind::mesh: return o.mesh->holds(p);
    default: return false;
  }
}

namespace {

// A box's entry along c from p: the latest entry over the axes' slabs.
double box_entry(const std::array<double, 3>& lo, const std::array<double, 3>& hi,
                 const std::array<double, 3>& p, const int* c, int dim) {
  double t = 0;
  for (int a = 0; a < dim; ++a) {
    const auto k = std::size_t(a);
    if (c[a] > 0 && p[k] < lo[k]) t = std::max(t, (lo[k] - p[k]) / c[a]);
    if (c[a] < 0 && p[k] >= hi[k]) t = std::max(t, (hi[k] - p[k]) / c[a]);
  }
  return t;
}

// Both centres are sites of the staircase, so the crossing lies within
// the link; clamped against round-off, and above 0, which callers take
// for "half-way".
double link_clamp(double t) { return std::min(1.0, std::max(t, 1e-6)); }

std::array<double, 3> shifted(const std::array<double, 3>& p, const std::array<double, 3>& by) {
  return {p[0] + by[0], p[1] + by[1], p[2] + by[2]};
}

// The shifts by whole periods along the case's periodic axes, none first,
// at which shape `o` may hold sites of the lattice (its bounds, moved back
// by the shift, meet it): where a shape reaching across a periodic face
// shows up again (at most one period beyond; read_case checks).
struct Images {
  std::array<std::array<double, 3>, 27> shift{};
  int count = 0;
};
Images periodic_images(const Case& c, const Obstacle& o) {
  std::array<double, 3> lo{}, hi{};
  for (std::size_t a = 0; a < 3; ++a) {
    const bool round = o.kind == Obstacle::Kind::sphere || o.kind == Obstacle::Kind::cylinder;
    if (o.kind == Obstacle::Kind::box)
      lo[a] = o.min[a], hi[a] = o.max[a];
    else if (o.kind == Obstacle::Kind::mesh)
      lo[a] = o.mesh->lo()[a], hi[a] = o.mesh->hi()[a];
    else if (round && !(o.kind == Obstacle::Kind::cylinder && int(a) == o.axis))
      lo[a] = o.center[a] - o.radius, hi[a] = o.center[a] + o.radius;
    else
      lo[a] = -HUGE_VAL, hi[a] = HUGE_VAL;
  }
  Images m;
  const auto periodic = c.periodic();
  const int steps[3] = {0, -1, 1};
  for (int k : steps)
    for (int j : steps)
      for (int i : steps) {
        const int at[3] = {i, j, k};
        const std::array<double, 3> s{double(i) * c.size[0], double(j) * c.size[1],
                                      double(k) * c.size[2]};
        bool meets = true;
        for (std::size_t a = 0; a < 3; ++a)
          meets = meets && (at[a] == 0 || (int(a) < c.dim && periodic[a] &&
                                           lo[a] - s[a] < c.size[a] && hi[a] - s[a] > 0));
        if (meets) m.shift[std::size_t(m.count++)] = s;
      }
  return m;
}

}  // namespace

double wall_fraction(const Obstacle& o, const std::array<double, 3>& solid, const int* c, int dim) {
  // The link runs from the fluid centre p = solid - c (outside) to the
  // solid one (inside): the first t in (0, 1] where p + t c is inside.
  std::array<double, 3> p{0, 0, 0};
  for (int a = 0; a < 3; ++a) p[std::size_t(a)] = solid[std::size_t(a)] - c[a];
  double t = 1;
  if (o.kind == Obstacle::Kind::box) {
    t = box_entry(o.min, o.max, p, c, dim);
  } else if (o.kind == Obstacle::Kind::mesh) {
    t = o.mesh->first_hit(p, solid);
    if (t < 0) return 0.5;  // missed by round-off at an edge: half-way
  } else if (o.kind == Obstacle::Kind::sphere || o.kind == Obstacle::Kind::cylinder) {
    // |p + t c - centre|^2 = r^2 over the axes across the shape: the
    // smaller root, where the link enters.
    double aa = 0, bb = 0, cc = -o.radius * o.radius;
    for (int a = 0; a < dim; ++a) {
      if (o.kind == Obstacle::Kind::cylinder && a == o.axis) continue;
      const auto k = std::size_t(a);
      const double d = p[k] - o.center[k];
      aa += double(c[a]) * c[a], bb += 2 * d * c[a], cc += d * d;
    }
    const double disc = bb * bb - 4 * aa * cc;
    if (aa > 0 && disc >= 0) t = (-bb - std::sqrt(disc)) / (2 * aa);
  } else {
    return 0.5;  // a mask has no surface: half-way
  }
  return link_clamp(t);
}

double link_fraction(const Case& c, const std::array<double, 3>& solid, const int* into) {
  const auto periodic = c.periodic();
  double q = 1;
  for (const Obstacle& o : c.obstacles) {
    if (o.kind == Obstacle::Kind::mask) continue;  // half-way; callers skip its sites
    const Images images = periodic_images(c, o);
    for (int m = 0; m < images.count; ++m) {
      const auto at = shifted(solid, images.shift[std::size_t(m)]);
      if (!shape_holds(o, at, c.dim)) continue;
      if (o.kind != Obstacle::Kind::box) {
        q = std::min(q, wall_fraction(o, at, into, c.dim));
        continue;
      }
      // A box across a whole period has no faces along that axis (the
      // link may cross the period's end).
      std::array<double, 3> lo = o.min, hi = o.max, p{};
      for (std::size_t a = 0; a < 3; ++a) {
        if (periodic[a] && hi[a] - lo[a] >= c.size[a]) lo[a] = -HUGE_VAL, hi[a] = HUGE_VAL;
        p[a] = at[a] - into[a];
      }
      q = std::min(q, link_clamp(box_entry(lo, hi, p, into, c.dim)));
    }
  }
  return q;
}

namespace {

// Per axis, the lattice's layers within `margin` of [begin, end), across
// periodic faces too.
std::array<std::vector<char>, 3> region_layers(const Case& c, const SiteRegion& r) {
  std::array<std::vector<char>, 3> near;
  const auto periodic = c.periodic();
  for (std::size_t a = 0; a < 3; ++a) {
    const int n = c.size[a];
    near[a].assign(std::size_t(n), 0);
    const int b = std::max(0, r.begin[a]), e = std::min(n, r.end[a]);
    for (int x = 0; x < n; ++x)
      for (int period : {0, -n, n}) {
        if (period != 0 && !periodic[a]) continue;
        const int y = x + period;
        const int d = y < b ? b - y : (y >= e ? y - e + 1 : 0);
        if (d <= r.margin) near[a][std::size_t(x)] = 1;
      }
  }
  return near;
}

}  // namespace

namespace impl {

// The voxeliser's passes, on the run's space. A line is a column (y, z)
// of the region at one of the mesh's images across y and z; its crossings
// are counted (Count, into offset(l + 1)), the counts turned into each
// line's start in one list by a scan in place (Offsets), found again and
// sorted there (Fill); then each of the region's sites of the column
// is held where, at one of the images along x, an odd number of its
// line's crossings lie below it (Mark). The host's query (SurfaceMesh::
// holds) answers the same, by the same arithmetic (MeshColumns).
template <class Space>
struct Voxelise {
  using Memory = typename Space::memory_space;
  struct Count {};
  struct Offsets {};
  struct Fill {};
  struct Mark {};

  MeshColumns mesh;  // pointers into Memory
  template <class T>
  using Pairs = Kokkos::View<const T* [2], Kokkos::LayoutRight, Memory, Kokkos::MemoryUnmanaged>;
  Pairs<int> columns;                         // each column's (y, z)
  Pairs<double> across;                       // the images' shifts along y, z
  Kokkos::View<const double*, Memory> along;  // the images' shifts along x
  Kokkos::View<const int*, Memory> xs;        // the region's x layers
  Kokkos::View<double* [2], Memory> line;     // each line's (y, z), settled
  Kokkos::View<std::size_t*, Memory> offset;  // where they start, and the end
  Kokkos::View<double*, Memory> crossing;     // all lines' crossings, sorted per line
  Kokkos::View<std::uint8_t**, Kokkos::LayoutRight, Memory> held;  // (column, x layer)

  KOKKOS_INLINE_FUNCTION void operator()(Count, std::size_t l) const {
    const std::size_t images = across.extent(0), col = l / images, s = l % images;
    double y = columns(col, 0) + 0.5 + across(s, 0), z = columns(col, 1) + 0.5 + across(s, 1);
    offset(l + 1) = std::size_t(mesh.settle(y, z));
    line(l, 0) = y, line(l, 1) = z;
  }
  KOKKOS_INLINE_FUNCTION void operator()(Offsets, std::size_t l, std::size_t& sum,
                                         bool final) const {
    sum += offset(l + 1);  // the count, until this (final) call
    if (final) offset(l + 1) = sum;
  }
  KOKKOS_INLINE_FUNCTION void operator()(Fill, std::size_t l) const {
    double* x = crossing.data() + offset(l);
    std::size_t n = 0;
    const std::size_t room = offset(l + 1) - offset(l);  // Count's (the same bits)
    mesh.for_each(line(l, 0), line(l, 1), [&](double v) {
      if (n == room) return;
      std::size_t i = n++;  // insertion: lines cross a surface a few times
      for (; i > 0 && x[i - 1] > v; --i) x[i] = x[i - 1];
      x[i] = v;
    });
  }
  KOKKOS_INLINE_FUNCTION void operator()(Mark, std::size_t p) const {
    const std::size_t layers = xs.extent(0), col = p / layers, i = p % layers;
    const std::size_t images = across.extent(0);
    for (std::size_t s = 0; s < images; ++s) {
      const std::size_t l = col * images + s, begin = offset(l), end = offset(l + 1);
      for (std::size_t t = 0; t < along.extent(0); ++t) {
        // How many crossings lie below the site's centre (a lower bound).
        const double at = xs(i) + 0.5 + along(t);
        std::size_t lo = begin, hi = end;
        while (lo < hi) {
          const std::size_t mid = lo + (hi - lo) / 2;
          if (crossing(mid) < at)
            lo = mid + 1;
          else
            hi = mid;
        }
        if ((lo - begin) % 2 == 1) held(col, i) = 1;
      }
    }
  }
};

}  // namespace impl

namespace {

// Marks the sites of `region` a mesh holds, at any periodic image, by the
// parity of the crossings along each column's line, voxelised on `Space`
// (the run's: the accelerator's in a device build); the marks are set on
// the host.
template <class Space, class Mark>
void voxelise(const Case& c, const Obstacle& o, const SiteRegion& region, const Mark& mark) {
  using Memory = typename Space::memory_space;
  using Host = Kokkos::HostSpace;
  const SurfaceMesh& mesh = *o.mesh;
  const auto near = region_layers(c, region);
  const Images images = periodic_images(c, o);
  std::vector<int> columns, layers;
  std::vector<double> across, along;
  for (int z = 0; z < c.size[2]; ++z)
    for (int y = 0; y < c.size[1]; ++y)
      if (near[1][std::size_t(y)] && near[2][std::size_t(z)])
        columns.push_back(y), columns.push_back(z);
  for (int x = 0; x < c.size[0]; ++x)
    if (near[0][std::size_t(x)]) layers.push_back(x);
  for (int m = 0; m < images.count; ++m) {
    const auto& s = images.shift[std::size_t(m)];
    if (s[0] == 0) across.push_back(s[1]), across.push_back(s[2]);  // the line's images
    if (s[1] == 0 && s[2] == 0) along.push_back(s[0]);              // its sites' images
  }
  const std::size_t num_columns = columns.size() / 2, num_lines = num_columns * across.size() / 2;
  if (num_lines == 0 || layers.empty() || mesh.triangle_count() == 0) return;

  // The mesh's arrays in the space's memory (no copy where that is the host's).
  const MeshColumns host = mesh.columns();
  const std::size_t bins = std::size_t(host.cols[0]) * std::size_t(host.cols[1]);
  const auto to_space = [](const auto* data, std::size_t n) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(data)>>;
    return Kokkos::create_mirror_view_and_copy(
        Memory(), Kokkos::View<const T*, Host, Kokkos::MemoryUnmanaged>(data, n));
  };
  const auto triangles = to_space(host.triangles, 9 * mesh.triangle_count());
  const auto start = to_space(host.start, bins + 1);
  const auto list = to_space(host.list, host.start[bins]);
  impl::Voxelise<Space> v;
  v.mesh = host;
  v.mesh.triangles = triangles.data(), v.mesh.start = start.data(), v.mesh.list = list.data();
  // (y, z) pairs, as the host's vectors hold them.
  const auto columns_d = to_space(columns.data(), columns.size());
  const auto across_d = to_space(across.data(), across.size());
  v.columns = decltype(v.columns)(columns_d.data(), num_columns);
  v.across = decltype(v.across)(across_d.data(), across.size() / 2);
  const auto along_d = to_space(along.data(), along.size());
  const auto layers_d = to_space(layers.data(), layers.size());
  v.along = along_d, v.xs = layers_d;
  v.line = decltype(v.line)("kolb::voxelise::line", num_lines);
  v.offset = decltype(v.offset)("kolb::voxelise::offset", num_lines + 1);
  v.held = decltype(v.held)("kolb::voxelise::held", num_columns, layers.size());

  const Space space;
  using Impl = impl::Voxelise<Space>;
  const auto over = [&](auto tag, std::size_t n) {
    return Kokkos::RangePolicy<Space, decltype(tag)>(space, 0, n);
  };
  Kokkos::parallel_for("kolb::voxelise::count", over(typename Impl::Count(), num_lines), v);
  Kokkos::parallel_scan("kolb::voxelise::offsets", over(typename Impl::Offsets(), num_lines), v);
  std::size_t total = 0;
  Kokkos::deep_copy(total, Kokkos::subview(v.offset, num_lines));
  v.crossing = decltype(v.crossing)("kolb::voxelise::crossing", total);
  Kokkos::parallel_for("kolb::voxelise::fill", over(typename Impl::Fill(), num_lines), v);
  Kokkos::parallel_for("kolb::voxelise::mark",
                       over(typename Impl::Mark(), num_columns * layers.size()), v);
  const auto held = Kokkos::create_mirror_view_and_copy(Host(), v.held);
  for (std::size_t k = 0; k < num_columns; ++k)
    for (std::size_t i = 0; i < layers.size(); ++i)
      if (held(k, i)) mark(layers[i], columns[2 * k], columns[2 * k + 1]);
}

}  // namespace

Geometry build_geometry(const Case& c, const Extents& e, const SiteRegion& region) {
  Geometry g;
  g.material.assign(e.num_sites(), kFluid);
  g.body.assign(e.num_sites(), 0);
  g.halfway.assign(e.num_sites(), 0);
  // Wall materials of the faces; a moving wall wins over a resting one where
  // faces meet (the lid owns the cavity's top corners), so rank them.
  std::array<material_t, 6> face_material{};
  std::array<int, 6> rank{};
  for (int f = 0; f < 2 * c.dim; ++f) {
    const FaceBoundary& b = c.faces[f];
    if (b.kind == FaceKind::wall) face_material[f] = kSolid, rank[f] = 1;
    if (b.kind == FaceKind::moving_wall)
      face_material[f] = g.table.moving_wall(b.velocity), rank[f] = 2;
  }
  for (int z = -e.halo[2]; z < e.n[2] + e.halo[2]; ++z)
    for (int y = -e.halo[1]; y < e.n[1] + e.halo[1]; ++y)
      for (int x = -e.halo[0]; x < e.n[0] + e.halo[0]; ++x) {
        const int p[3] = {x, y, z};
        int best = 0;
        material_t m = kFluid;
        for (int a = 0; a < c.dim; ++a) {
          const int f = p[a] < 0 ? 2 * a : (p[a] >= e.n[a] ? 2 * a + 1 : -1);
          if (f >= 0 && rank[f] > best) best = rank[f], m = face_material[f];
        }
        g.material[e.site(x, y, z)] = m;
      }
  if (c.obstacles.size() > 255)  // read_case refuses more
    throw std::invalid_argument("build_geometry: at most 255 obstacles (body ids are bytes)");
  for (std::size_t k = 0; k < c.obstacles.size(); ++k) {
    const Obstacle& o = c.obstacles[k];
    const auto solid = [&](index_t s) {
      g.material[s] = kSolid, g.body[s] = std::uint8_t(k + 1);
      if (!o.interpolated) g.halfway[s] = 1;
    };
    if (o.kind == Obstacle::Kind::mask) {
      const Mask mask = read_mask(o);
      if (o.offset[0] < 0 || o.offset[1] < 0 || o.offset[0] + mask.width > c.size[0] ||
          o.offset[1] + mask.height > c.size[1])
        mask_error(o, std::to_string(mask.width) + "x" + std::to_string(mask.height) +
                          " image at offset (" + std::to_string(o.offset[0]) + ", " +
                          std::to_string(o.offset[1]) + ") does not fit in the " +
                          std::to_string(c.size[0]) + "x" + std::to_string(c.size[1]) + " domain");
      for (int z = 0; z < e.n[2]; ++z)  // 3-D: the mask is extruded along z
        for (int y = 0; y < mask.height; ++y)
          for (int x = 0; x < mask.width; ++x)
            if (mask.solid[std::size_t(y) * mask.width + x])
              solid(e.site(x + o.offset[0], y + o.offset[1], z));
      continue;
    }
    if (o.kind == Obstacle::Kind::mesh) {
      voxelise<Kokkos::DefaultExecutionSpace>(c, o, region,
                                              [&](int x, int y, int z) { solid(e.site(x, y, z)); });
      continue;
    }
    const Images images = periodic_images(c, o);
    for (int z = 0; z < e.n[2]; ++z)
      for (int y = 0; y < e.n[1]; ++y)
        for (int x = 0; x < e.n[0]; ++x)
          for (int m = 0; m < images.count; ++m)
            if (shape_holds(o, shifted({x + 0.5, y + 0.5, z + 0.5}, images.shift[std::size_t(m)]),
                            c.dim)) {
              solid(e.site(x, y, z));
              break;
            }
  }
  // Periodic halos: the sites one period away.
  const auto periodic = c.periodic();
  for (int z = -e.halo[2]; z < e.n[2] + e.halo[2]; ++z)
    for (int y = -e.halo[1]; y < e.n[1] + e.halo[1]; ++y)
      for (int x = -e.halo[0]; x < e.n[0] + e.halo[0]; ++x) {
        int p[3] = {x, y, z};
        bool halo = false;
        for (int a = 0; a < c.dim; ++a)
          if (periodic[a] && (p[a] < 0 || p[a] >= e.n[a]))
            p[a] = (p[a] + e.n[a]) % e.n[a], halo = true;
        if (!halo) continue;
        const index_t from = e.site(p[0], p[1], p[2]), to = e.site(x, y, z);
        g.material[to] = g.material[from], g.body[to] = g.body[from];
        g.halfway[to] = g.halfway[from];
      }
  return g;
}

namespace {

// Rayleigh-Taylor and Rayleigh-Benard (D2Q37, model units): a temperature
// profile per column in discrete hydrostatic balance (docs/reference/d2q37.md §10).
void convection_fields(const Case& c, HostFields& f) {
  const InitialCondition& ic = c.initial;
  const auto& n = f.n;
  const double pi = std::acos(-1.0), g = std::abs(c.body_force[1]);
  const double tb = ic.temperature_bottom, tt = ic.temperature_top;
  const int modes = n[0] / 2;
  std::vector<double> phase(std::size_t(modes + 1), 0.0);
  std::mt19937_64 rng(ic.seed);
  auto draw = [&] {
    for (auto& p : phase) p = double(rng() >> 11) * 0x1p-53;  // uniform [0, 1)
  };
  draw();
  for (int x = 0; x < n[0]; ++x) {
    // Interface height (RT): n[0]/2 random-phase cosine modes; the authors'
    // code draws new phases in every column (a rough interface).
    if (ic.phase_per_column && x > 0) draw();
    double yc = 0.5 * n[1];
    for (int k = 1; k <= modes; ++k)
      yc += ic.amplitude / std::sqrt(double(modes)) *
            std::cos(2 * pi * k * x / n[0] + 2 * pi * phase[std::size_t(k)]);
    for (int y = 0; y < n[1]; ++y) {
      // RB: the conductive profile between the wall temperatures imposed on
      // rows 2 and n-3, plus a small convection-seeding perturbation.
      const double h = n[1] - 5.0, yy = y - 2.0;
      f.temperature[f.index(x, y, 0)] =
          ic.kind == InitialKind::rayleigh_taylor
              ? tb + (tt - tb) * 0.5 * (1 + std::tanh((y - yc) / ic.interface_width))
              : tb + (tt - tb) * yy / h +
                    ic.amplitude * std::cos(2 * pi * x / n[0]) * std::sin(pi * yy / h);
    }
    // Discrete hydrostatic balance p(y) - p(y-1) = -g rho(y-1), p = rho T.
    f.rho[f.index(x, 0, 0)] = std::exp(g * n[1] / (2 * tb));
    for (int y = 1; y < n[1]; ++y)
      f.rho[f.index(x, y, 0)] = f.rho[f.index(x, y - 1, 0)] *
                                (f.temperature[f.index(x, y - 1, 0)] - g) /
                                f.temperature[f.index(x, y, 0)];
  }
}

}  // namespace

HostFields initial_fields(const Case& c) {
  const LatticeInfo& info = lattice_info(c.lattice);
  const InitialCondition& ic = c.initial;
  HostFields f;
  f.n = c.size;
  f.rho.assign(f.size(), ic.density);
  f.u.assign(3 * f.size(), 0.0);
  if (info.has_temperature) f.temperature.assign(f.size(), ic.temperature);
  if (ic.kind == InitialKind::rayleigh_taylor || ic.kind == InitialKind::rayleigh_benard) {
    convection_fields(c, f);
    return f;
  }
  const auto& n = f.n;
  const double pi = std::acos(-1.0);
  for (int z = 0; z < n[2]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[0]; ++x) {
        const std::size_t k = f.index(x, y, z);
        const int p[3] = {x, y, z};
        const double wave = std::sin(2 * pi / n[ic.wave_axis] * p[ic.wave_axis]);
        switch (ic.kind) {
          case InitialKind::uniform:
            for (int a = 0; a < 3; ++a) f.u[3 * k + a] = ic.velocity[a];
            break;
          case InitialKind::taylor_green: {
            // Exact decaying 2-D Taylor-Green vortex in plane (a, b); the
            // density carries its pressure so no acoustic wave is launched.
            const int a = ic.plane[0], b = ic.plane[1];
            const double ka = 2 * pi / n[a], kb = 2 * pi / n[b];
            const double xa = p[a], xb = p[b];
            f.u[3 * k + a] =
                -ic.amplitude * std::sqrt(kb / ka) * std::cos(ka * xa) * std::sin(kb * xb);
            f.u[3 * k + b] =
                ic.amplitude * std::sqrt(ka / kb) * std::sin(ka * xa) * std::cos(kb * xb);
            const double dp = -ic.density * ic.amplitude * ic.amplitude / 4 *
                              (kb / ka * std::cos(2 * ka * xa) + ka / kb * std::cos(2 * kb * xb));
            f.rho[k] = ic.density + dp / info.cs2;
            break;
          }
          case InitialKind::taylor_green_3d: {
            // Classical triply periodic Taylor-Green field (not an exact
            // solution; the transition-to-turbulence benchmark).
            const double kx = 2 * pi / n[0], ky = 2 * pi / n[1], kz = 2 * pi / n[2];
            f.u[3 * k + 0] = ic.amplitude * std::sin(kx * x) * std::cos(ky * y) * std::cos(kz * z);
            f.u[3 * k + 1] = -ic.amplitude * std::cos(kx * x) * std::sin(ky * y) * std::cos(kz * z);
            const double dp = ic.density * ic.amplitude * ic.amplitude / 16 *
                              (std::cos(2 * kx * x) + std::cos(2 * ky * y)) *
                              (std::cos(2 * kz * z) + 2);
            f.rho[k] = ic.density + dp / info.cs2;
            break;
          }
          case InitialKind::shear_wave: f.u[3 * k + ic.flow_axis] = ic.amplitude * wave; break;
          case InitialKind::temperature_wave:  // isobaric: rho T constant
            f.temperature[k] = ic.temperature * (1 + ic.amplitude * wave);
            f.rho[k] = ic.density / (1 + ic.amplitude * wave);
            break;
          case InitialKind::sound_wave: f.u[3 * k + ic.wave_axis] = ic.amplitude * wave; break;
          default: break;  // the convection states above
        }
      }
  return f;
}

}  // namespace kolb
