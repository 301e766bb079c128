// STL obstacles (io/stl.hpp, io/surface_mesh.hpp, build_geometry):
//  - binary and ASCII files give the same triangles; a broken file names
//    its line, an open mesh its first open edge, both through read_case;
//  - voxelised meshes hold the sites their shape holds: a cube placed by
//    scale, rotation and offset is the box; an octahedron whose vertices
//    and edges lie on the sites' lines counts each crossing once; the
//    shipped icosphere differs from the sphere only within its faceting,
//    and so do its links' wall fractions;
//  - a rank's region holds what the whole lattice holds there;
//  - the voxels, found on the run's space, are the host query's;
//  - shapes wrap across periodic faces (a shift by half a period moves the
//    solid sites and the wall fractions along) and are clipped at walls.
#include "support/cases.hpp"

#include <kolb/io/fields.hpp>
#include <kolb/io/stl.hpp>
#include <kolb/io/surface_mesh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using kolb::Point3;
using kolb::Triangle;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kolb_test_stl_" + name;
}

void write_ascii(const std::string& path, const std::vector<Triangle>& ts) {
  std::ofstream out(path);
  out << "solid test\n";
  for (const Triangle& t : ts) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (const Point3& p : t.v)
      out << "      vertex " << p[0] << " " << p[1] << " " << p[2] << "\n";
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid test\n";
}

void write_binary(const std::string& path, const std::vector<Triangle>& ts,
                  const std::string& title = "") {
  std::ofstream out(path, std::ios::binary);
  std::string header(80, ' ');
  header.replace(0, title.size(), title);
  out.write(header.data(), 80);
  const auto n = std::uint32_t(ts.size());
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (const Triangle& t : ts) {
    float rec[12] = {};
    for (int v = 0; v < 3; ++v)
      for (int a = 0; a < 3; ++a) rec[3 + 3 * v + a] = float(t.v[std::size_t(v)][std::size_t(a)]);
    out.write(reinterpret_cast<const char*>(rec), 48);
    out.write("\0\0", 2);
  }
}

// The box [lo, hi] as 12 triangles, each face split along a diagonal.
std::vector<Triangle> cube(const Point3& lo, const Point3& hi) {
  std::vector<Triangle> ts;
  auto corner = [&](int i) {
    return Point3{i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]};
  };
  const int faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (const auto& f : faces) {
    ts.push_back({{corner(f[0]), corner(f[1]), corner(f[2])}});
    ts.push_back({{corner(f[0]), corner(f[2]), corner(f[3])}});
  }
  return ts;
}

// The octahedron |x - c|_1 <= r.
std::vector<Triangle> octahedron(const Point3& c, double r) {
  std::vector<Triangle> ts;
  for (int s = 0; s < 8; ++s) {
    Point3 v[3];
    for (std::size_t a = 0; a < 3; ++a) {
      v[a] = c;
      v[a][a] += (s >> a) & 1 ? r : -r;
    }
    ts.push_back({{v[0], v[1], v[2]}});
  }
  return ts;
}

std::string source_dir() {
  const char* s = std::getenv("KOLB_SOURCE_DIR");
  if (s) return s;
  const std::string here = __FILE__;  // <source>/tests/io/test_stl.cpp
  return here.substr(0, here.rfind("/tests/"));
}

std::string case_yaml(const std::string& boundaries, const std::string& obstacles,
                      const std::string& size = "[20, 18, 16]") {
  return "lattice: D3Q19\nprecision: double\ndomain: {size: " + size +
         "}\nphysics: {tau: 0.8}\nboundaries: {" + boundaries + "}\nobstacles:\n" + obstacles +
         "run: {steps: 0}\noutput: {folder: unused}\n";
}
const std::string kWalls = "x-: wall, x+: wall, y-: wall, y+: wall, z-: wall, z+: wall";

kolb::Geometry geometry_of(const kolb::Case& c, const kolb::SiteRegion& region = {}) {
  return kolb::build_geometry(c, kolb::Extents(c.size, 1, 3), region);
}

// Materials of the lattice's inner sites.
std::vector<kolb::material_t> inner(const kolb::Case& c, const kolb::Geometry& g) {
  const kolb::Extents e(c.size, 1, 3);
  std::vector<kolb::material_t> out;
  for (int z = 0; z < c.size[2]; ++z)
    for (int y = 0; y < c.size[1]; ++y)
      for (int x = 0; x < c.size[0]; ++x) out.push_back(g.material[e.site(x, y, z)]);
  return out;
}

// The index of inner site (x, y, z) in inner()'s list.
std::size_t cell(const kolb::Extents& e, int x, int y, int z) {
  return (std::size_t(z) * std::size_t(e.n[1]) + std::size_t(y)) * std::size_t(e.n[0]) +
         std::size_t(x);
}

int solid_count(const std::vector<kolb::material_t>& m) {
  int n = 0;
  for (auto v : m) n += v != kolb::kFluid;
  return n;
}

TEST(StlReader, AsciiAndBinaryReadTheSameTriangles) {
  const auto ts = cube({1, 2, 3}, {4.5, 6.25, 7});
  write_ascii(temp_path("cube_a.stl"), ts);
  write_binary(temp_path("cube_b.stl"), ts);
  const auto a = kolb::read_stl(temp_path("cube_a.stl"));
  const auto b = kolb::read_stl(temp_path("cube_b.stl"));
  ASSERT_EQ(a.size(), 12u);
  ASSERT_EQ(b.size(), 12u);
  for (std::size_t k = 0; k < 12; ++k) {
    EXPECT_EQ(a[k].v, ts[k].v);
    EXPECT_EQ(b[k].v, ts[k].v);
  }
  EXPECT_EQ(kolb::stl_open_edges(a), "");
  // A binary header may begin with "solid" too; an ASCII file may hold
  // several solids (and nan normals).
  write_binary(temp_path("cube_s.stl"), ts, "solid cube, binary");
  EXPECT_EQ(kolb::read_stl(temp_path("cube_s.stl")).size(), 12u);
  {
    std::ofstream out(temp_path("two.stl"));
    for (int k = 0; k < 2; ++k) {
      out << "solid part" << k << "\n";
      for (std::size_t t = 6 * std::size_t(k); t < 6 * std::size_t(k) + 6; ++t) {
        out << "facet normal nan nan nan\nouter loop\n";
        for (const Point3& p : ts[t].v)
          out << "vertex " << p[0] << " " << p[1] << " " << p[2] << "\n";
        out << "endloop\nendfacet\n";
      }
      out << "endsolid part" << k << "\n";
    }
  }
  const auto two = kolb::read_stl(temp_path("two.stl"));
  ASSERT_EQ(two.size(), 12u);
  EXPECT_EQ(two[11].v, ts[11].v);
  std::ofstream(temp_path("empty.stl")).flush();
  EXPECT_THROW(kolb::read_stl(temp_path("empty.stl")), kolb::StlError);
  auto open = a;
  open.pop_back();
  const std::string why = kolb::stl_open_edges(open);
  EXPECT_NE(why.find("not closed: 3 of its 18 edges"), std::string::npos) << why;
}

TEST(StlReader, BrokenFilesNameTheirLineThroughTheCase) {
  const std::string path = temp_path("broken.stl");
  {
    std::ofstream out(path);
    out << "solid x\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertx 1 0 0\n";
  }
  try {
    kolb::read_stl(path);
    FAIL() << "no error";
  } catch (const kolb::StlError& e) {
    EXPECT_EQ(e.line, 5);
    EXPECT_NE(std::string(e.what()).find("expected 'vertex', got 'vertx'"), std::string::npos)
        << e.what();
  }
  auto error_of = [&](const std::string& obstacles, const std::string& size = "[20, 18, 16]") {
    try {
      kolb::test::make_case(case_yaml(kWalls, obstacles, size));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string e = error_of("  - {type: stl, file: " + path + "}\n");
  EXPECT_NE(e.find("obstacles[0].file"), std::string::npos) << e;
  EXPECT_NE(e.find("line 5: expected 'vertex'"), std::string::npos) << e;
  auto open = cube({1, 1, 1}, {5, 5, 5});
  open.erase(open.begin() + 3);
  write_binary(temp_path("open.stl"), open);
  e = error_of("  - {type: stl, file: " + temp_path("open.stl") + "}\n");
  EXPECT_NE(e.find("obstacles[0].file"), std::string::npos) << e;
  EXPECT_NE(e.find("the mesh is not closed"), std::string::npos) << e;
  write_binary(temp_path("cube.stl"), cube({0, 0, 0}, {1, 1, 1}));
  e = error_of("  - {type: stl, file: " + temp_path("cube.stl") + ", offset: [30, 2, 2]}\n");
  EXPECT_NE(e.find("obstacles[0].offset: obstacle lies outside the domain along x"),
            std::string::npos)
      << e;
  e = error_of("  - {type: stl, file: " + temp_path("cube.stl") + ", scale: [1, 0, 1]}\n");
  EXPECT_NE(e.find("obstacles[0].scale"), std::string::npos) << e;
  try {
    kolb::test::make_case(
        "lattice: D2Q9\ndomain: {size: [20, 18]}\nphysics: {tau: 0.8}\n"
        "boundaries: {x-: wall, x+: wall, y-: wall, y+: wall}\n"
        "obstacles: [{type: stl, file: " +
        temp_path("cube.stl") + "}]\nrun: {steps: 0}\noutput: {folder: unused}\n");
    FAIL() << "no error";
  } catch (const std::exception& x) {
    EXPECT_NE(std::string(x.what()).find("obstacles[0].type: an STL obstacle needs a 3-D lattice"),
              std::string::npos)
        << x.what();
  }
  e = error_of("  - {type: sphere, center: [-22, 5, 5], radius: 3}\n");
  EXPECT_NE(e.find("obstacles[0].center: obstacle lies outside the domain along x"),
            std::string::npos)
      << e;
  try {
    kolb::test::make_case(
        case_yaml("x-: periodic, x+: periodic, y-: wall, y+: wall, z-: wall, z+: wall",
                  "  - {type: sphere, center: [-19, 5, 5], radius: 3}\n"));
    FAIL() << "no error";
  } catch (const std::exception& x) {
    EXPECT_NE(std::string(x.what()).find("more than one period beyond"), std::string::npos)
        << x.what();
  }
}

TEST(StlVoxels, PlacedCubeIsTheBox) {
  const auto box = kolb::test::make_case(
      case_yaml(kWalls, "  - {type: box, min: [3, 2, 4], max: [7, 5, 13]}\n"));
  const auto want = inner(box, geometry_of(box));
  ASSERT_EQ(solid_count(want), 4 * 3 * 9);
  write_binary(temp_path("unit.stl"), cube({0, 0, 0}, {1, 1, 1}));
  write_ascii(temp_path("centred.stl"), cube({-4.5, -2, -1.5}, {4.5, 2, 1.5}));
  for (const std::string& o :
       {"{type: stl, file: " + temp_path("unit.stl") + ", scale: [4, 3, 9], offset: [3, 2, 4]}",
        // about y: (x, z) -> (z, -x); then about z: (x, y) -> (-y, x)
        "{type: stl, file: " + temp_path("centred.stl") +
            ", rotate: [0, 90, 90], offset: [5, 3.5, 8.5]}",
        // [0, 3] x [0, 4] x [0, 9] turned about z alone (right-handed:
        // (x, y) -> (-y, x)) is [-4, 0] x [0, 3] x [0, 9]; turned the other
        // way it would miss the box
        "{type: stl, file: " + temp_path("unit.stl") +
            ", scale: [3, 4, 9], rotate: [0, 0, 90], offset: [7, 2, 4]}"}) {
    const auto c = kolb::test::make_case(case_yaml(kWalls, "  - " + o + "\n"));
    EXPECT_EQ(inner(c, geometry_of(c)), want) << o;
  }
  // Its faces are the box's: the same wall fractions on every link.
  const auto c = kolb::test::make_case(
      case_yaml(kWalls, "  - {type: stl, file: " + temp_path("unit.stl") +
                            ", scale: [4.4, 3.3, 9], offset: [2.7, 1.9, 4.25]}\n"));
  const auto b = kolb::test::make_case(
      case_yaml(kWalls, "  - {type: box, min: [2.7, 1.9, 4.25], max: [7.1, 5.2, 13.25]}\n"));
  const auto gc = inner(c, geometry_of(c));
  EXPECT_EQ(gc, inner(b, geometry_of(b)));
  int links = 0;
  const kolb::Extents e(c.size, 1, 3);
  for (int z = 0; z < c.size[2]; ++z)
    for (int y = 0; y < c.size[1]; ++y)
      for (int x = 0; x < c.size[0]; ++x) {
        if (gc[cell(e, x, y, z)] == kolb::kFluid) continue;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int into[3] = {dx, dy, dz};
              const int q2 = dx * dx + dy * dy + dz * dz;
              if (q2 == 0 || q2 == 3) continue;  // D3Q19's links, diagonals too
              if (x - dx < 0 || y - dy < 0 || z - dz < 0 || x - dx >= c.size[0] ||
                  y - dy >= c.size[1] || z - dz >= c.size[2] ||
                  gc[cell(e, x - dx, y - dy, z - dz)] != kolb::kFluid)
                continue;  // links from fluid sites only
              const Point3 s{x + 0.5, y + 0.5, z + 0.5};
              EXPECT_NEAR(kolb::link_fraction(c, s, into), kolb::link_fraction(b, s, into), 1e-12);
              ++links;
            }
      }
  EXPECT_GT(links, 300);
}

TEST(StlVoxels, LinesThroughEdgesAndVerticesCountOnce) {
  // Centred on a site with r = 3.25: the lines through site centres pass
  // through its six vertices and along its edges, and no site lies on it.
  write_binary(temp_path("octahedron.stl"), octahedron({0, 0, 0}, 1));
  for (const char* rotate : {"[0, 0, 0]", "[90, 0, 0]", "[0, 90, 270]", "[180, 90, 90]"}) {
    const auto c = kolb::test::make_case(
        case_yaml(kWalls, "  - {type: stl, file: " + temp_path("octahedron.stl") +
                              ", scale: 3.25, offset: [9.5, 8.5, 7.5], rotate: " + rotate + "}\n"));
    const auto m = inner(c, geometry_of(c));
    const kolb::Extents e(c.size, 1, 3);
    int wrong = 0, solid = 0;
    for (int z = 0; z < c.size[2]; ++z)
      for (int y = 0; y < c.size[1]; ++y)
        for (int x = 0; x < c.size[0]; ++x) {
          const bool in = std::abs(x - 9) + std::abs(y - 8) + std::abs(z - 7) < 3.25;
          solid += in;
          wrong += in != (m[cell(e, x, y, z)] != kolb::kFluid);
        }
    EXPECT_EQ(wrong, 0) << "rotate " << rotate;
    EXPECT_EQ(solid, 63);
  }
  // A cube with integer faces: lines along the diagonals that split them.
  write_binary(temp_path("diag.stl"), cube({1, 1, 1}, {7, 7, 7}));
  const auto c = kolb::test::make_case(
      case_yaml(kWalls, "  - {type: stl, file: " + temp_path("diag.stl") + "}\n"));
  EXPECT_EQ(solid_count(inner(c, geometry_of(c))), 6 * 6 * 6);
}

TEST(StlVoxels, IcosphereIsTheSphereWithinItsFaceting) {
  const std::string stl = source_dir() + "/inputs/geometry/sphere.stl";
  const double r = 6.3;
  const Point3 centre{10.2, 9.7, 7.9};
  const auto mesh = kolb::test::make_case(case_yaml(
      kWalls, "  - {type: stl, file: " + stl + ", scale: 6.3, offset: [10.2, 9.7, 7.9]}\n"));
  const auto ball = kolb::test::make_case(
      case_yaml(kWalls, "  - {type: sphere, center: [10.2, 9.7, 7.9], radius: 6.3}\n"));
  const auto gm = inner(mesh, geometry_of(mesh)), gb = inner(ball, geometry_of(ball));
  // The faces lie at least 0.995 r from the centre (the file's generator),
  // so do the mesh's crossings; only sites that close to the surface may
  // differ. (The wall fractions differ by up to that over the cosine of
  // the angle between link and surface: much more on grazing links.)
  const double facet = 0.005 * r;
  const kolb::Extents e(mesh.size, 1, 3);
  int differ = 0, links = 0;
  double worst = 0;
  for (int z = 0; z < mesh.size[2]; ++z)
    for (int y = 0; y < mesh.size[1]; ++y)
      for (int x = 0; x < mesh.size[0]; ++x) {
        const Point3 s{x + 0.5, y + 0.5, z + 0.5};
        const double d = std::hypot(s[0] - centre[0], s[1] - centre[1], s[2] - centre[2]);
        const std::size_t k = cell(e, x, y, z);
        if (gm[k] != gb[k]) {
          ++differ;
          EXPECT_LT(std::abs(d - r), facet) << x << " " << y << " " << z;
        }
        if (gm[k] == kolb::kFluid || gb[k] == kolb::kFluid) continue;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int into[3] = {dx, dy, dz}, q2 = dx * dx + dy * dy + dz * dz;
              if (q2 == 0 || q2 == 3) continue;  // D3Q19's links
              const std::size_t from = cell(e, x - dx, y - dy, z - dz);
              if (gm[from] != kolb::kFluid || gb[from] != kolb::kFluid) continue;
              const double qm = kolb::link_fraction(mesh, s, into);
              const double qb = kolb::link_fraction(ball, s, into);
              worst = std::max(worst, std::abs(qm - qb) * std::sqrt(double(q2)));
              ++links;
              Point3 hit{};
              for (std::size_t a = 0; a < 3; ++a) hit[a] = s[a] - (1 - qm) * into[a] - centre[a];
              const double d_hit = std::hypot(hit[0], hit[1], hit[2]);
              EXPECT_GT(d_hit, r - facet);
              EXPECT_LT(d_hit, r + 1e-9);
            }
      }
  std::printf(
      "icosphere r = %.1f: %d of %d solid sites differ; wall distances of %d links "
      "differ by up to %.4f\n",
      r, differ, solid_count(gb), links, worst);
  EXPECT_LT(differ, solid_count(gb) / 100 + 1);
  EXPECT_GT(links, 500);
}

TEST(StlVoxels, RankRegionHoldsWhatTheLatticeHoldsThere) {
  const std::string stl = source_dir() + "/inputs/geometry/sphere.stl";
  const auto c = kolb::test::make_case(
      case_yaml("x-: periodic, x+: periodic, y-: wall, y+: wall, z-: periodic, z+: periodic",
                "  - {type: stl, file: " + stl + ", scale: 5, offset: [2, 9, 14]}\n"));
  const auto whole = geometry_of(c);
  // The sphere wraps across x and z (x -3 ... 7, z 9 ... 19). Tiles of a
  // split along x, and of one along y and z whose margin wraps across z.
  for (const kolb::SiteRegion& region : {kolb::SiteRegion{{10, 0, 0}, {20, 18, 16}, 2},
                                         kolb::SiteRegion{{0, 9, 0}, {20, 18, 4}, 2}}) {
    const auto part = geometry_of(c, region);
    const kolb::Extents e(c.size, 1, 3);
    // Within `margin` of [begin, end) along axis a, across periodic x and z.
    const auto near = [&](int a, int x) {
      const int n = c.size[std::size_t(a)];
      for (const int shift : {0, -n, n}) {
        if (shift != 0 && a == 1) continue;
        const int p = x + shift, b = region.begin[std::size_t(a)], f = region.end[std::size_t(a)];
        if (p >= b - region.margin && p < f + region.margin) return true;
      }
      return false;
    };
    int held = 0, left = 0;
    for (int z = 0; z < c.size[2]; ++z)
      for (int y = 0; y < c.size[1]; ++y)
        for (int x = 0; x < c.size[0]; ++x) {
          const auto k = e.site(x, y, z);
          if (near(0, x) && near(1, y) && near(2, z)) {
            EXPECT_EQ(part.material[k], whole.material[k]) << x << " " << y << " " << z;
            held += whole.material[k] != kolb::kFluid;
          } else {
            left += whole.material[k] != part.material[k];
          }
        }
    EXPECT_GT(held, 60);
    EXPECT_GT(left, 60);  // sites the rank does not read are left out
  }
}

TEST(StlVoxels, ShapesWrapAcrossPeriodicFacesAndClipAtWalls) {
  const std::string stl = source_dir() + "/inputs/geometry/sphere.stl";
  const std::string faces =
      "x-: periodic, x+: periodic, y-: periodic, y+: periodic, z-: wall, "
      "z+: wall";
  for (const std::string& shape :
       {std::string("{type: sphere, radius: 4.2, wall: bouzidi, center: "),
        "{type: stl, file: " + stl + ", scale: 4.2, wall: bouzidi, offset: "}) {
    // Across x- and y+ (wrapped) and z- (clipped), and half a period along.
    const auto a = kolb::test::make_case(case_yaml(faces, "  - " + shape + "[1.3, 16.4, 2.1]}\n"));
    const auto b = kolb::test::make_case(case_yaml(faces, "  - " + shape + "[11.3, 7.4, 2.1]}\n"));
    const auto ga = inner(a, geometry_of(a)), gb = inner(b, geometry_of(b));
    const kolb::Extents e(a.size, 1, 3);
    int solid = 0;
    double worst = 0;
    for (int z = 0; z < 16; ++z)
      for (int y = 0; y < 18; ++y)
        for (int x = 0; x < 20; ++x) {
          const int xb = (x + 10) % 20, yb = (y + 9) % 18;
          const auto ka = cell(e, x, y, z), kb = cell(e, xb, yb, z);
          ASSERT_EQ(ga[ka], gb[kb]) << shape << " at " << x << " " << y << " " << z;
          if (ga[ka] == kolb::kFluid) continue;
          ++solid;
          for (int l = 0; l < 27; ++l) {
            const int into[3] = {l % 3 - 1, l / 3 % 3 - 1, l / 9 - 1};
            const int q2 = into[0] * into[0] + into[1] * into[1] + into[2] * into[2];
            if (q2 == 0 || q2 == 3) continue;  // D3Q19's links, diagonals across the corner too
            const double qa = kolb::link_fraction(a, {x + 0.5, y + 0.5, z + 0.5}, into);
            const double qb = kolb::link_fraction(b, {xb + 0.5, yb + 0.5, z + 0.5}, into);
            worst = std::max(worst, std::abs(qa - qb));
          }
        }
    // Clipped at z = 0: the cap below the wall is gone.
    EXPECT_GT(solid, 150) << shape;
    EXPECT_LT(solid, 4.0 / 3 * M_PI * 4.2 * 4.2 * 4.2 * 0.9) << shape;
    EXPECT_LT(worst, 1e-9) << shape;
  }
}

// The voxeliser runs on the run's space (the accelerator's in a device
// build); each site it holds is one the host's query holds, at one of the
// shape's periodic images: bit for bit, ties on edges and vertices too.
TEST(StlVoxels, VoxelsOnTheRunSpaceAreTheHostQuery) {
  const std::string sphere = source_dir() + "/inputs/geometry/sphere.stl";
  write_binary(temp_path("octahedron.stl"), octahedron({0, 0, 0}, 1));
  const std::string faces =
      "x-: periodic, x+: periodic, y-: wall, y+: wall, z-: periodic, z+: periodic";
  for (const std::string& mesh :
       {"{type: stl, file: " + sphere +
            ", scale: 9, rotate: [17, 33, 71], offset: [3.3, 17.9, 29.4]}",
        "{type: stl, file: " + temp_path("octahedron.stl") +
            ", scale: 5.25, rotate: [0, 90, 270], offset: [38.5, 12.5, 20.5]}"}) {
    const auto c = kolb::test::make_case(case_yaml(faces, "  - " + mesh + "\n", "[40, 36, 32]"));
    const auto m = inner(c, geometry_of(c));
    const kolb::SurfaceMesh& shape = *c.obstacles.at(0).mesh;
    const kolb::Extents e(c.size, 1, 3);
    int solid = 0, wrong = 0, wrapped = 0;
    for (int z = 0; z < 32; ++z)
      for (int y = 0; y < 36; ++y)
        for (int x = 0; x < 40; ++x) {
          bool held = false;
          for (const int i : {0, -40, 40})
            for (const int k : {0, -32, 32}) {
              const bool here = shape.holds({x + 0.5 + i, y + 0.5, z + 0.5 + k});
              held = held || here;
              wrapped += here && (i != 0 || k != 0);
            }
          solid += held;
          wrong += held != (m[cell(e, x, y, z)] != kolb::kFluid);
        }
    EXPECT_EQ(wrong, 0) << mesh;
    EXPECT_GT(solid, 200) << mesh;
    EXPECT_GT(wrapped, 40) << mesh;  // it reaches across a periodic face
  }
}

}  // namespace
