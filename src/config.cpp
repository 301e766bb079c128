// read_case(): YAML -> validated Case. Every problem is a ConfigError that
// names the file, line and column (or the --set override) and the key path.

#include <kolb/app/input.hpp>
#include <kolb/app/schema.hpp>
#include <kolb/io/face_names.hpp>
#include <kolb/io/inflow_table.hpp>
#include <kolb/io/surface_mesh.hpp>
#include <kolb/model/lattice_info.hpp>

#include <yaml-cpp/yaml.h>

#include "config_sections.hpp"
#include "yaml_map.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kolb {

namespace {

using yaml::join;
using yaml::Map;
using yaml::Reader;
using yaml::yaml_text;

// Largest Mach number (|u| / cs) a case may ask for: beyond it BGK's O(Ma^2)
// compressibility error is large and the lattice is close to instability.
constexpr double kMaxMach = 0.4;

int axis_index(const Map& m, const std::string& key, int dim) {
  const std::string v = m.text(key);
  for (int a = 0; a < dim; ++a)
    if (v == axis_name(a)) return a;
  m.fail(key, yaml::quoted(v) + " is not an axis of this " + std::to_string(dim) + "-D lattice");
}

// `cs`: the lattice's sound speed in its velocity units (LatticeInfo).
// `what` names the speed checked.
void check_mach(const Map& m, const std::string& key, double speed, double cs,
                const std::string& what = "speed") {
  const double mach = speed / cs;
  if (mach > kMaxMach) {
    std::ostringstream s;
    s << what << " " << speed << " is Mach " << mach << " on this lattice (cs = " << cs
      << "); the limit is Mach " << kMaxMach << " (|u| <= " << kMaxMach * cs
      << "): lower the velocity and raise the resolution or viscosity instead";
    m.fail(key, s.str());
  }
}

// x as a stream writes it (6 significant digits).
std::string short_text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

std::array<double, 3> vec3(const std::vector<double>& v) {
  std::array<double, 3> a{0, 0, 0};
  for (std::size_t i = 0; i < v.size() && i < 3; ++i) a[i] = v[i];
  return a;
}

// physics.collision, one of the lattice's (LatticeInfo::collisions).
void read_collision(const Map& p, Case& c, const LatticeInfo& info) {
  if (!p.has("collision")) return;
  std::vector<std::string> known;
  for (const Collision k : info.collisions) known.push_back(to_string(k));
  c.collision = *parse<Collision>(p.choice("collision", known));
}

// D2Q37: collision (bgk | regularized), its relaxation times, gravity.
void read_thermal_physics(const Map& top, Case& c, const LatticeInfo& info) {
  const Map p(top.reader(), top.get("physics"), "physics", schema_keys("physics (D2Q37)"));
  ThermalSettings& t = c.thermal;
  read_collision(p, c, info);
  auto above_half = [&](const std::string& key, double v) {
    if (!(v > 0.5))
      p.fail(key, "tau = " + std::to_string(v) +
                      " must be > 0.5 (positive transport "
                      "coefficients)");
  };
  if (c.collision == Collision::bgk) {
    if (p.has("relaxation_constants"))
      p.fail("relaxation_constants", "relaxation_constants go with collision: regularized");
    c.tau = p.number("tau");
    above_half("tau", c.tau);
    t.tau_const = {c.tau, c.tau, c.tau};
  } else {
    if (p.has("tau") == p.has("relaxation_constants"))
      top.reader().fail(p.node(), "physics",
                        "collision: regularized needs exactly one of 'tau: [tau1, tau2, tau3]' "
                        "(constant per Hermite order) or 'relaxation_constants: [C1, C2, C3]' "
                        "(tau = 1/2 + C1/(rho T), 1/2 + C2/(rho T), 1/2 + C3)");
    if (p.has("tau")) {
      const auto v = p.numbers("tau", 3);
      for (double x : v) above_half("tau", x);
      t.tau_const = {v[0], v[1], v[2]};
    } else {
      const auto v = p.numbers("relaxation_constants", 3);
      for (double x : v)
        if (!(x > 0)) p.fail("relaxation_constants", "relaxation constants must be > 0");
      t.tau_const = {0.5, 0.5, 0.5 + v[2]};
      t.tau_per_pressure = {v[0], v[1], 0};
    }
    c.tau = t.tau_const[0] + t.tau_per_pressure[0];  // at rho T = 1
  }
  if (p.has("gravity")) c.body_force = vec3(p.numbers("gravity", 2));
}

void read_physics(const Map& top, Case& c, const LatticeInfo& info) {
  if (info.has_temperature) return read_thermal_physics(top, c, info);
  const Map p(top.reader(), top.get("physics"), "physics", schema_keys("physics"));
  read_collision(p, c, info);
  // The collision's own keys (model/relaxation.hpp), positive numbers.
  const auto own = collision_parameters(c.collision);
  for (const auto& parameter : own)
    c.collision_parameters.push_back(p.has(parameter.key) ? p.positive(parameter.key)
                                                          : parameter.fallback);
  for (const Collision k : info.collisions)
    for (const auto& parameter : collision_parameters(k))
      if (k != c.collision && p.has(parameter.key) &&
          std::none_of(own.begin(), own.end(),
                       [&](const auto& o) { return o.key == parameter.key; }))
        p.fail(parameter.key, "'" + parameter.key + "' goes with collision: " + to_string(k));
  const int given = int(p.has("tau")) + int(p.has("viscosity")) + int(p.has("reynolds"));
  if (given != 1)
    top.reader().fail(p.node(), "physics",
                      "give exactly one of 'tau', 'viscosity' or 'reynolds' (with "
                      "'reference_velocity' and 'reference_length'); found " +
                          std::to_string(given));
  if (!p.has("reynolds"))
    for (const char* k : {"reference_velocity", "reference_length"})
      if (p.has(k)) p.fail(k, std::string("'") + k + "' only goes with 'reynolds'");
  if (p.has("tau")) {
    c.tau = p.number("tau");
    if (!(c.tau > 0.5))
      p.fail("tau", "tau = " + p.text("tau") +
                        " must be > 0.5 (the viscosity cs^2 (tau - 1/2) must be positive)");
  } else {
    double nu = 0;
    if (p.has("viscosity")) {
      nu = p.positive("viscosity");
    } else {
      const double re = p.positive("reynolds");
      const double u = p.positive("reference_velocity");
      const double l = p.positive("reference_length", " (in lattice sites)");
      check_mach(p, "reference_velocity", u, info.sound_speed());
      nu = u * l / re;
      c.forces.velocity = u, c.forces.length = l;
    }
    c.tau = nu / info.cs2 + 0.5;
  }
  if (p.has("body_force")) c.body_force = vec3(p.numbers("body_force", c.dim));
  if (p.has("smagorinsky")) {
    c.smagorinsky = p.number("smagorinsky");
    if (!(c.smagorinsky >= 0 && std::isfinite(c.smagorinsky)))
      p.fail("smagorinsky", "Smagorinsky's constant C_s = " + p.text("smagorinsky") +
                                " must be >= 0 (0.1 to 0.2 is usual; 0: no LES)");
  }
}

// An inlet needs an outlet; open faces may not meet (whose condition would
// own the edge?), nor an outlet a moving wall; a parabolic profile needs
// walls across the inlet to vanish at.
void check_open_faces(const Map& b, const Case& c) {
  bool outlet = false;
  for (int f = 0; f < 2 * c.dim; ++f) outlet = outlet || c.outlet(f);
  for (int f = 0; f < 2 * c.dim; ++f) {
    if (c.faces[f].kind == FaceKind::velocity_inlet && !outlet)
      b.fail(face_name(f),
             "a velocity_inlet needs a pressure_outlet or an outflow for the fluid to leave by "
             "(its mass would grow without bound)");
    if (!c.open(f)) continue;
    for (int g = 0; g < f; ++g)
      if (c.open(g) && g / 2 != f / 2)
        b.fail(face_name(f), std::string("open faces ") + face_name(g) + " and " + face_name(f) +
                                 " meet at an edge: make one of the two axes walls or periodic");
    for (int g = 0; g < 2 * c.dim; ++g)
      if (c.outlet(f) && g / 2 != f / 2 && c.faces[g].kind == FaceKind::moving_wall)
        b.fail(face_name(f), "an outlet (" + std::string(to_string(c.faces[f].kind)) +
                                 ") may not meet a moving wall (" + face_name(g) +
                                 " is one), in either streaming scheme: at their edge "
                                 "in-place streaming could not give the two-buffer values");
    if (c.faces[f].profile != InletProfile::parabolic) continue;
    bool walls = false;
    for (int a = 0; a < c.dim; ++a)
      walls = walls || (a != f / 2 && c.faces[2 * a].kind != FaceKind::periodic);
    if (!walls)
      b.fail(face_name(f), "a parabolic profile vanishes at walls across the inlet, and " +
                               std::string(face_name(f)) + " has none (use profile: uniform)");
  }
}

// `profile: file`: the inlet's velocities from a table (io/inflow_table.hpp),
// each pointing into the domain or along the face, below the Mach limit.
void read_inflow_table(const Map& m, Case& c, int f, const std::string& base_dir,
                       const LatticeInfo& info) {
  FaceBoundary& fb = c.faces[std::size_t(f)];
  if (m.has("velocity")) m.fail("velocity", "with profile: file the velocities come from the file");
  std::string path = m.text("file");
  if (!path.empty() && path[0] != '/') path = base_dir + path;
  const int normal = f / 2;
  try {
    fb.table = std::make_shared<const InflowTable>(InflowTable::read(path, normal, c.dim));
  } catch (const InflowTableError& e) {
    m.fail("file", "profile file '" + path + "'" +
                       (e.line > 0 ? " line " + std::to_string(e.line) : std::string()) + ": " +
                       e.what());
  }
  const InflowTable& t = *fb.table;
  const bool low = f % 2 == 0;  // x-, y-, z-: the inflow runs along +axis
  if (const int line = t.against(normal, low ? 1 : -1); line > 0)
    m.fail("file", "profile file '" + path + "' line " + std::to_string(line) +
                       ": the velocity points out of the domain (its " + axis_name(normal) +
                       " component must be " + (low ? ">= 0" : "<= 0") + " on " + face_name(f) +
                       ")");
  const auto [fastest, line] = t.max_speed();
  check_mach(m, "file", fastest * (1 + fb.amplitude), info.sound_speed(),
             "profile file '" + path + "' line " + std::to_string(line) + ": the speed" +
                 std::string(fb.amplitude > 0 ? " (times 1 + amplitude)" : ""));
}

void read_boundaries(const Map& top, Case& c, const LatticeInfo& info,
                     const std::string& base_dir) {
  const bool thermal = info.has_temperature;
  const std::string lattice = to_string(c.lattice);
  std::vector<std::string> faces;
  for (int f = 0; f < 2 * c.dim; ++f) faces.emplace_back(face_name(f));
  const Map b(top.reader(), top.get("boundaries"), "boundaries", faces);
  for (int f = 0; f < 2 * c.dim; ++f) {
    const std::string key = faces[f];
    const YAML::Node n = b.get(key);
    FaceBoundary& fb = c.faces[f];
    std::string type;
    if (thermal) {
      const YAML::Node t = n.IsMap() ? n["type"] : n;
      const auto k = t && t.IsScalar() ? parse<FaceKind>(t.Scalar()) : std::nullopt;
      if (k && *k != FaceKind::periodic && *k != FaceKind::wall)
        top.reader().fail(t, b.path(key),
                          lattice +
                              " has resting thermal walls only (type: wall, optional "
                              "temperature); open faces are for D2Q9, D3Q19 and D3Q27");
    }
    if (n.IsScalar()) {
      type = n.Scalar();
      if (type == "moving_wall" || type == "velocity_inlet")
        top.reader().fail(n, b.path(key),
                          "a " + type + " needs a velocity: {type: " + type + ", velocity: [...]}");
    } else if (thermal) {
      const Map m(top.reader(), n, b.path(key), {"type", "temperature", "temperature_of"});
      type = m.text("type");
      for (const char* k : {"temperature", "temperature_of"})
        if (m.has(k) && type != "wall") m.fail(k, std::string("only a wall has a ") + k);
      if (m.has("temperature"))
        fb.temperature = m.positive("temperature", " (T0 = 1 in the model's units)");
      if (m.has("temperature_of"))
        fb.raw_temperature = m.choice("temperature_of", {"raw", "half_step"}) == "raw";
    } else {
      const Map m(
          top.reader(), n, b.path(key),
          {"type", "velocity", "profile", "file", "ramp_steps", "amplitude", "period", "density"});
      type = m.text("type");
      const bool moving = type == "moving_wall", inlet = type == "velocity_inlet";
      if (inlet && m.has("profile")) fb.profile = m.choice<InletProfile>("profile");
      if (m.has("file") && fb.profile != InletProfile::file)
        m.fail("file", "only a velocity_inlet with profile: file reads a file");
      if (inlet && (m.has("amplitude") || m.has("period"))) {
        // Both or neither: a pulsating inflow u (1 + a sin(2π t / T)) that
        // never turns back (a <= 1).
        fb.amplitude = m.positive("amplitude");
        if (fb.amplitude > 1)
          m.fail("amplitude", "amplitude must be <= 1 (the inflow would turn back)");
        fb.period = m.positive("period", " (in steps)");
      }
      if (inlet && fb.profile == InletProfile::file) {
        read_inflow_table(m, c, f, base_dir, info);
      } else if (moving || inlet) {
        const auto v = m.numbers("velocity", c.dim);
        check_mach(m, "velocity", norm(v) * (1 + fb.amplitude), info.sound_speed(),
                   fb.amplitude > 0 ? "peak speed (1 + amplitude) |u|" : "speed");
        fb.velocity = vec3(v);
        const int normal = f / 2;
        const std::string axis = axis_name(normal);
        if (moving && fb.velocity[normal] != 0)
          m.fail("velocity", "a moving wall must move along its own plane (the " + axis +
                                 " component must be 0)");
        if (inlet && !((f % 2 == 0 ? 1 : -1) * fb.velocity[normal] > 0))
          m.fail("velocity", "an inlet's velocity must point into the domain (on " + key + " the " +
                                 axis + " component must be " + (f % 2 == 0 ? "> 0)" : "< 0)"));
      } else if (m.has("velocity")) {
        m.fail("velocity", "only a moving_wall or a velocity_inlet has a velocity");
      }
      for (const char* k : {"profile", "ramp_steps", "amplitude", "period"})
        if (m.has(k) && !inlet) m.fail(k, std::string("only a velocity_inlet has ") + k);
      fb.ramp_steps = m.at_least("ramp_steps", 0, 0);
      if (m.has("density") && type != "pressure_outlet")
        m.fail("density", "only a pressure_outlet has a density");
      if (m.has("density")) fb.density = m.positive("density", " (the reference density is 1)");
    }
    const auto kind = parse<FaceKind>(type);
    if (!kind)
      top.reader().fail(
          n, b.path(key),
          yaml::quoted(type) + " is not a boundary type (" + join(names<FaceKind>()) + ")");
    fb.kind = *kind;
  }
  for (int a = 0; a < c.dim; ++a) {
    const bool lo = c.faces[2 * a].kind == FaceKind::periodic;
    const bool hi = c.faces[2 * a + 1].kind == FaceKind::periodic;
    if (lo != hi)
      b.fail(faces[2 * a + (lo ? 1 : 0)], std::string("periodic boundaries come in pairs: ") +
                                              face_name(2 * a) + " and " + face_name(2 * a + 1) +
                                              " must both be periodic");
  }
  check_open_faces(b, c);
  if (thermal) {
    // The authors' scheme: periodic x, thermal walls in y (moving ones were
    // refused above), each owning the model's wall rows.
    if (c.faces[0].kind != FaceKind::periodic)
      b.fail("x-", lattice + " is periodic in x (walls go on y- and y+)");
    const int rows = 2 * info.wall_rows + 2;
    if (c.faces[2].kind == FaceKind::wall && c.size[1] < rows)
      b.fail("y-", lattice + " walls need at least " + std::to_string(rows) + " rows along y (" +
                       std::to_string(info.wall_rows) +
                       " wall rows each plus the row next to them), the domain has " +
                       std::to_string(c.size[1]));
  }
}

// `forces` given: U, L (defaults from physics' Reynolds number), ρ and, in
// 3-D, A.
void read_force_reference(const Map& top, Case& c) {
  const Map f(top.reader(), top.get("forces"), "forces", schema_keys("forces"));
  if (c.obstacles.empty())
    top.reader().fail(top.get("forces"), "forces",
                      "forces are those on obstacles, and the case has none");
  // Given with the Reynolds number, U and L are defaults; else required.
  const auto reference = [&](const char* key, double fallback) {
    return fallback > 0 ? f.positive(key, fallback) : f.positive(key);
  };
  c.forces.velocity = reference("reference_velocity", c.forces.velocity);
  c.forces.length = reference("reference_length", c.forces.length);
  c.forces.density = f.positive("reference_density", 1.0);
  if (c.dim == 3)
    c.forces.area =
        f.positive("reference_area", " (in sites^2, e.g. D H for a cylinder spanning a duct)");
  else if (f.has("reference_area"))
    f.fail("reference_area", "2-D forces are per site of depth: A is reference_length");
}

// `forces`: the reference of the obstacles' force coefficients (after
// physics, whose Reynolds number's U and L are the defaults).
void read_forces(const Map& top, Case& c) {
  if (top.has("forces")) read_force_reference(top, c);
  if (c.dim == 2) c.forces.area = c.forces.length;  // forces per site of depth
}

void read_obstacles(const Map& top, Case& c, const std::string& base_dir) {
  if (!top.has("obstacles")) return;
  const YAML::Node list = top.get("obstacles");
  if (lattice_info(c.lattice).has_temperature)
    top.reader().fail(list, "obstacles",
                      to_string(c.lattice) + " runs without obstacles (thermal walls on y only)");
  if (!list.IsSequence())
    top.reader().fail(list, "obstacles", "expected a list of obstacles, got " + yaml_text(list));
  if (list.size() > 255)  // Geometry::body numbers them in a byte
    top.reader().fail(list, "obstacles",
                      "at most 255 obstacles, got " + std::to_string(list.size()));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "obstacles[" + std::to_string(i) + "]";
    const YAML::Node n = list[i];
    if (!n.IsMap() || !n["type"])
      top.reader().fail(n, path,
                        "expected a mapping with a 'type' (box, sphere, cylinder, mask, stl)");
    const Map any(top.reader(), n, path,
                  {"type", "min", "max", "center", "radius", "axis", "file", "offset", "wall",
                   "scale", "rotate"});
    const std::string type = any.text("type");
    Obstacle o;
    if (any.has("wall")) {
      const std::string w = any.text("wall");
      if (w != "halfway" && w != "bouzidi")
        any.fail("wall", yaml::quoted(w) + " is not a wall treatment (halfway, bouzidi)");
      o.interpolated = w == "bouzidi";
    }
    o.where = top.reader().where(n, path);
    // Shapes are clipped at the lattice's faces and wrap across periodic
    // ones, up to a period (the images build_geometry looks at).
    const auto periodic = c.periodic();
    auto outside = [&](const Map& m, const std::string& key, double lo, double hi, int a) {
      const double n = c.size[std::size_t(a)];
      const std::string span = "[" + short_text(lo) + ", " + short_text(hi) + "]";
      if (periodic[std::size_t(a)] && (lo < -n || hi > 2 * n))
        m.fail(key, "obstacle reaches more than one period beyond the periodic domain along " +
                        std::string(axis_name(a)) + " (" + span + " is not inside [-" +
                        short_text(n) + ", " + short_text(2 * n) + "])");
      if (!periodic[std::size_t(a)] && (hi <= 0 || lo >= n))
        m.fail(key, "obstacle lies outside the domain along " + std::string(axis_name(a)) + " (" +
                        span + " does not meet [0, " + short_text(n) + "])");
    };
    if (type == "box") {
      const Map m(top.reader(), n, path, {"type", "min", "max", "wall"});
      o.kind = Obstacle::Kind::box;
      o.min = vec3(m.numbers("min", c.dim));
      o.max = vec3(m.numbers("max", c.dim));
      for (int a = 0; a < c.dim; ++a) {
        if (!(o.max[a] > o.min[a])) m.fail("max", "max must be greater than min on every axis");
        outside(m, "max", o.min[a], o.max[a], a);
      }
      if (c.dim == 2) o.min[2] = 0, o.max[2] = 1;
    } else if (type == "sphere" || type == "cylinder") {
      const bool cyl = type == "cylinder";
      const Map m(top.reader(), n, path,
                  cyl ? std::vector<std::string>{"type", "center", "radius", "axis", "wall"}
                      : std::vector<std::string>{"type", "center", "radius", "wall"});
      o.kind = cyl ? Obstacle::Kind::cylinder : Obstacle::Kind::sphere;
      o.radius = m.positive("radius");
      if (cyl) {
        o.axis = c.dim == 2 ? 2 : axis_index(m, "axis", 3);
        if (c.dim == 2 && m.has("axis") && m.text("axis") != "z")
          m.fail("axis", "a 2-D cylinder's axis is z");
      }
      o.center = vec3(m.numbers("center", c.dim));
      for (int a = 0; a < c.dim; ++a)
        if (!(cyl && a == o.axis))
          outside(m, "center", o.center[a] - o.radius, o.center[a] + o.radius, a);
    } else if (type == "mask") {
      const Map m(top.reader(), n, path, {"type", "file", "offset", "wall"});
      if (o.interpolated)
        m.fail("wall", "a mask's walls are half-way (it has no surface to interpolate)");
      o.kind = Obstacle::Kind::mask;
      o.file = m.text("file");
      if (!o.file.empty() && o.file[0] != '/') o.file = base_dir + o.file;
      if (m.has("offset")) {
        const auto off = m.numbers("offset", c.dim);
        for (int a = 0; a < c.dim; ++a) o.offset[a] = int(off[a]);
      }
      std::ifstream probe(o.file);
      if (!probe) m.fail("file", "cannot read mask file '" + o.file + "': " + std::strerror(errno));
      o.where = top.reader().where(m.get("file"), m.path("file"));
    } else if (type == "stl") {
      const Map m(top.reader(), n, path, {"type", "file", "scale", "rotate", "offset", "wall"});
      if (c.dim != 3) m.fail("type", "an STL obstacle needs a 3-D lattice");
      o.kind = Obstacle::Kind::mesh;
      o.file = m.text("file");
      if (!o.file.empty() && o.file[0] != '/') o.file = base_dir + o.file;
      MeshPlacement place;
      if (m.has("scale")) {
        const YAML::Node sc = m.get("scale");
        place.scale =
            sc.IsSequence() ? vec3(m.numbers("scale", 3)) : Point3{m.positive("scale"), 0, 0};
        if (!sc.IsSequence()) place.scale[1] = place.scale[2] = place.scale[0];
        for (double v : place.scale)
          if (!(v > 0)) m.fail("scale", "scale factors must be positive");
      }
      if (m.has("rotate")) place.rotate = vec3(m.numbers("rotate", 3));
      if (m.has("offset")) place.offset = vec3(m.numbers("offset", 3));
      std::vector<Triangle> triangles;
      try {
        triangles = read_stl(o.file);
      } catch (const StlError& e) {
        m.fail("file", "STL file '" + o.file + "'" +
                           (e.line > 0 ? " line " + std::to_string(e.line) : std::string()) + ": " +
                           e.what());
      }
      if (const std::string open = stl_open_edges(triangles); !open.empty())
        m.fail("file", "STL file '" + o.file + "': " + open +
                           " (inside and outside are undefined; close it in a mesh tool)");
      auto mesh = std::make_shared<SurfaceMesh>(triangles, place);
      const std::string placed = m.has("offset") ? "offset" : m.has("scale") ? "scale" : "file";
      Point3 lo{}, hi{};
      for (std::size_t a = 0; a < 3; ++a) {
        if (!std::isfinite(mesh->lo()[a]) || !std::isfinite(mesh->hi()[a]))
          m.fail(placed, "the placed mesh's coordinates are not finite numbers");
        outside(m, placed, mesh->lo()[a], mesh->hi()[a], int(a));
        // The lattice (and its images across periodic faces) and two layers.
        const double n = c.size[a];
        lo[a] = periodic[a] ? -n - 2 : -2.0, hi[a] = periodic[a] ? 2 * n + 2 : n + 2;
      }
      mesh->bin(lo, hi);
      o.mesh = std::move(mesh);
      o.where = top.reader().where(m.get("file"), m.path("file"));
    } else {
      top.reader().fail(
          n["type"], path + ".type",
          yaml::quoted(type) + " is not an obstacle type (box, sphere, cylinder, mask, stl)");
    }
    c.obstacles.push_back(o);
  }
}

// D2Q37 initial states (model units: T0 = 1, velocities in units of r).
void read_thermal_initial(const Map& top, Case& c, double cs) {
  InitialCondition& ic = c.initial;
  const YAML::Node n = top.get("initial");
  const std::vector<std::string> types = {"uniform",    "shear_wave",      "temperature_wave",
                                          "sound_wave", "rayleigh_taylor", "rayleigh_benard"};
  const std::string type =
      Map(top.reader(), n, "initial",
          {"type", "density", "velocity", "temperature", "amplitude", "flow", "wave",
           "temperature_bottom", "temperature_top", "interface_width", "seed", "phases"})
          .choice("type", types);
  std::vector<std::string> keys = {"type"};
  if (type == "uniform") keys = {"type", "density", "velocity", "temperature"};
  if (type == "shear_wave") keys = {"type", "density", "temperature", "amplitude", "flow", "wave"};
  if (type == "temperature_wave" || type == "sound_wave")
    keys = {"type", "density", "temperature", "amplitude", "wave"};
  if (type == "rayleigh_taylor")
    keys = {
        "type",  "temperature_bottom", "temperature_top", "interface_width", "amplitude", "seed",
        "phases"};
  if (type == "rayleigh_benard")
    keys = {"type", "temperature_bottom", "temperature_top", "amplitude"};
  const Map m(top.reader(), n, "initial", keys);
  ic.kind = *parse<InitialKind>(type);
  ic.density = m.positive("density", ic.density);
  ic.temperature = m.positive("temperature", ic.temperature);
  if (m.has("velocity")) {
    const auto v = m.numbers("velocity", 2);
    check_mach(m, "velocity", norm(v), cs);
    ic.velocity = vec3(v);
  }
  if (type == "shear_wave" || type == "temperature_wave" || type == "sound_wave") {
    ic.amplitude = m.number("amplitude");
    ic.wave_axis = axis_index(m, "wave", 2);
    if (type == "shear_wave") {
      ic.flow_axis = axis_index(m, "flow", 2);
      if (ic.flow_axis == ic.wave_axis)
        m.fail("wave", "a shear wave varies across the flow: wave must differ from flow");
    }
    if (type == "temperature_wave" && !(std::abs(ic.amplitude) < 0.5))
      m.fail("amplitude", "a temperature wave's relative amplitude must be below 0.5");
    if (type != "temperature_wave") check_mach(m, "amplitude", std::abs(ic.amplitude), cs);
    if (c.faces[2 * ic.wave_axis].kind != FaceKind::periodic)
      m.fail("type", type + " needs periodic boundaries along " + axis_name(ic.wave_axis));
  }
  if (type == "rayleigh_taylor" || type == "rayleigh_benard") {
    if (c.faces[2].kind != FaceKind::wall) m.fail("type", type + " needs walls on y- and y+");
    ic.temperature_bottom = m.positive("temperature_bottom", 1.05);
    ic.temperature_top = m.positive("temperature_top", 0.95);
  }
  if (type == "rayleigh_taylor") {
    ic.interface_width = m.positive("interface_width", 10.0);
    ic.amplitude = m.number("amplitude", 2 * ic.interface_width);
    ic.seed = std::uint64_t(m.integer("seed", 1));
    if (m.has("phases"))
      ic.phase_per_column = m.choice("phases", {"per_mode", "per_column"}) == "per_column";
  }
  if (type == "rayleigh_benard") ic.amplitude = m.number("amplitude", 1e-3);
}

void read_initial(const Map& top, Case& c, const LatticeInfo& info) {
  InitialCondition& ic = c.initial;
  if (!top.has("initial")) return;
  const double cs = info.sound_speed();
  if (info.has_temperature) return read_thermal_initial(top, c, cs);
  const YAML::Node n = top.get("initial");
  const Map any(top.reader(), n, "initial",
                {"type", "density", "velocity", "amplitude", "plane", "flow", "wave"});
  const std::string type = any.choice(
      "type", c.dim == 3 ? std::vector<std::string>{"uniform", "taylor_green", "taylor_green_3d",
                                                    "shear_wave"}
                         : std::vector<std::string>{"uniform", "taylor_green", "shear_wave"});
  ic.kind = *parse<InitialKind>(type);
  if (type == "uniform") {
    const Map m(top.reader(), n, "initial", {"type", "density", "velocity"});
    if (m.has("velocity")) {
      const auto v = m.numbers("velocity", c.dim);
      check_mach(m, "velocity", norm(v), cs);
      ic.velocity = vec3(v);
    }
  } else {
    const bool tg = type == "taylor_green";
    const bool tg3 = type == "taylor_green_3d";
    const Map m(top.reader(), n, "initial",
                tg    ? std::vector<std::string>{"type", "density", "amplitude", "plane"}
                : tg3 ? std::vector<std::string>{"type", "density", "amplitude"}
                      : std::vector<std::string>{"type", "density", "amplitude", "flow", "wave"});
    ic.amplitude = m.number("amplitude");
    check_mach(m, "amplitude", std::abs(ic.amplitude), cs);
    if (tg && m.has("plane")) {
      const std::string p =
          m.choice("plane", c.dim == 3 ? std::vector<std::string>{"xy", "xz", "yz"}
                                       : std::vector<std::string>{"xy"});
      ic.plane = {p[0] - 'x', p[1] - 'x'};
    }
    if (!tg && !tg3) {
      ic.flow_axis = axis_index(m, "flow", c.dim);
      ic.wave_axis = axis_index(m, "wave", c.dim);
      if (ic.flow_axis == ic.wave_axis)
        m.fail("wave", "a shear wave varies across the flow: wave must differ from flow");
    }
    // These fields are periodic: they need periodic boundaries on their axes.
    for (int a : tg    ? std::vector<int>{ic.plane[0], ic.plane[1]}
                 : tg3 ? std::vector<int>{0, 1, 2}
                       : std::vector<int>{ic.wave_axis})
      if (c.faces[2 * a].kind != FaceKind::periodic)
        m.fail("type", type + " needs periodic boundaries along " + axis_name(a));
  }
  ic.density = any.positive("density", 1.0);
}

Case read_document(YAML::Node root, const std::string& name, const std::string& base_dir,
                   const std::vector<std::string>& overrides) {
  const std::map<std::string, std::string> overridden = yaml::apply_overrides(root, overrides);
  // The relaxation is given one way only: overriding it one way replaces the
  // file's other way (--set physics.tau=0.6 on a case that gives reynolds).
  const std::vector<std::string> relaxation = {"tau", "viscosity", "reynolds"};
  for (const auto& chosen : relaxation) {
    if (!overridden.count("physics." + chosen) || !root["physics"].IsMap()) continue;
    YAML::Node physics = root["physics"];
    for (const auto& other : relaxation)
      if (other != chosen && !overridden.count("physics." + other)) physics.remove(other);
    if (chosen != "reynolds")
      for (const char* k : {"reference_velocity", "reference_length"})
        if (!overridden.count(std::string("physics.") + k)) physics.remove(k);
  }
  const Reader reader(name, overridden);
  const Map top(reader, root, "", schema_keys("top level"));
  Case c;
  c.source = name;
  c.lattice = top.choice<LatticeId>("lattice");
  const LatticeInfo& info = lattice_info(c.lattice);
  c.dim = info.dim;
  if (top.has("precision")) c.precision = top.choice<Precision>("precision");
  if (c.precision == Precision::fp16 && info.has_temperature)
    reader.fail(top.get("precision"), "precision",
                "fp16 storage is for the isothermal lattices; " + to_string(c.lattice) +
                    " runs in double or float");

  {
    const Map d(reader, top.get("domain"), "domain", schema_keys("domain"));
    const YAML::Node s = d.get("size");
    if (!s.IsSequence() || int(s.size()) != c.dim)
      reader.fail(s, d.path("size"),
                  "expected " + std::to_string(c.dim) + " sizes for the " + std::to_string(c.dim) +
                      "-D lattice " + to_string(c.lattice) + ", got " + yaml_text(s) +
                      (s.IsSequence() ? " of " + std::to_string(s.size()) : ""));
    for (int a = 0; a < c.dim; ++a) {
      const std::string p = d.path("size") + "[" + std::to_string(a) + "]";
      const std::int64_t v = d.as_integer(s[a], p);
      if (v < 1)
        reader.fail(s[a], p, "size must be a positive number of sites, got " + std::to_string(v));
      if (v > (1 << 20)) reader.fail(s[a], p, "size " + std::to_string(v) + " is too large");
      c.size[a] = int(v);
    }
  }
  read_physics(top, c, info);
  read_boundaries(top, c, info, base_dir);
  read_obstacles(top, c, base_dir);
  read_forces(top, c);
  read_initial(top, c, info);

  {
    const Map r(reader, top.get("run"), "run", schema_keys("run"));
    c.steps = r.at_least("steps", 0);
    if (r.has("until_steady")) {
      const Map s(reader, r.get("until_steady"), r.path("until_steady"),
                  schema_keys("run.until_steady"));
      c.steady.tolerance = s.positive("tolerance");
      c.steady.every = s.at_least("every", 1, 500);
    }
  }
  {
    const Map o(reader, top.get("output"), "output", schema_keys("output"));
    c.output.folder = o.text("folder");
    if (c.output.folder.empty()) o.fail("folder", "folder must not be empty");
    // Relative output folders are relative to the working directory, as in
    // any command-line tool; mask files are relative to the case file.
    c.output.vtk_every = o.at_least("vtk_every", 0, 0);
    c.output.observables_every = o.at_least("observables_every", 0, 0);
    c.output.forces_every = o.at_least("forces_every", 0, c.output.observables_every);
    c.output.progress_seconds = o.number("progress_seconds", 2.0);
    if (o.has("checkpoint")) {
      const Map k(reader, o.get("checkpoint"), o.path("checkpoint"),
                  schema_keys("output.checkpoint"));
      c.output.checkpoint_every = k.at_least("every", 0);
      c.output.checkpoints_kept = int(k.at_least("keep", 1, 2));
    }
  }
  if (top.has("execution"))
    read_execution(Map(reader, top.get("execution"), "execution", schema_keys("execution")), c,
                   info);
  check_compiled(top, c);
  if (c.execution.streaming == Streaming::aa && info.in_place_streaming &&
      c.output.checkpoint_every % 2 != 0)
    throw ConfigError(reader.where(top.get("output")["checkpoint"], "output.checkpoint.every"),
                      "with streaming: aa checkpoints are taken after even steps only (AA's "
                      "state is exact between pairs of steps): make every even");
  YAML::Emitter out;
  out << root;
  c.yaml = out.c_str();
  return c;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// The checks above name what they meet; a YAML shape none of them expects
// still ends as a ConfigError at its position, never as another exception.
Case read_checked(const YAML::Node& root, const std::string& name, const std::string& dir,
                  const std::vector<std::string>& overrides) {
  try {
    return read_document(root, name, dir, overrides);
  } catch (const YAML::Exception& e) {
    const std::string at = e.mark.is_null() ? name
                                            : name + ":" + std::to_string(e.mark.line + 1) + ":" +
                                                  std::to_string(e.mark.column + 1);
    throw ConfigError(at, "unexpected YAML here: " + e.msg);
  }
}

}  // namespace

Case read_case_string(const std::string& yaml, const std::string& name,
                      const std::vector<std::string>& overrides) {
  return read_checked(yaml::parse(yaml, name), name, "", overrides);
}

Case read_case(const std::string& path, const std::vector<std::string>& overrides) {
  return read_checked(yaml::load_file(path, "case"), path, directory_of(path), overrides);
}

}  // namespace kolb
