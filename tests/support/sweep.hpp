#pragma once
// The configuration sweep: seeded, generated cases (periodic along none to
// all axes, resting and moving walls, inlets and outlets, obstacles touching
// walls and periodic faces or reaching across them, STL meshes in 3-D,
// forced and unforced, uniform and sheared initial
// fields) and the configurations that must give the reference path's
// populations bit for bit at even steps (layouts, kernel paths, streaming
// schemes, host splits and schedules; tests/mpi adds the tilings). A failure prints the seed,
// the case as YAML and the configuration's --set list, which reproduce it.

#include "support/cases.hpp"

#include <kolb/domain/domain.hpp>
#include <kolb/io/face_names.hpp>
#include <kolb/model/lattice_info.hpp>

#include <stdlib.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace kolb::test::sweep {

// splitmix64: the same numbers on every compiler (std distributions differ).
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int uniform(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }  // [lo, hi]
  double real(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1p-53; }
  bool chance(double p) { return real(0, 1) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[std::size_t(uniform(0, int(v.size()) - 1))];
  }
};

// The first seed, from KOLB_SWEEP_SEED (a failure's seed reruns it), and the
// number of cases per lattice and precision, from KOLB_SWEEP_CASES.
inline std::uint64_t base_seed() {
  const char* s = std::getenv("KOLB_SWEEP_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261201;
}
inline int case_count(int fallback) {
  const char* s = std::getenv("KOLB_SWEEP_CASES");
  return s ? std::max(1, std::atoi(s)) : fallback;
}

struct GeneratedCase {
  std::uint64_t seed = 0;
  std::string yaml;
  Case c;
  bool sheared = false;  // initial state: a shear layer with noise (set_fields)
  bool moving_walls = false, obstacles = false, forced = false, open = false;
  bool curved = false;  // an obstacle with interpolated walls
  bool mesh = false;    // an STL obstacle
  int steps = 0;        // even
  // Mass is conserved to round-off without moving walls, open faces or
  // interpolated walls (resting bounce-back and periodic wraps move mass,
  // never make it); momentum too without force, walls or obstacles.
  bool conserves_mass() const { return !moving_walls && !open && !curved; }
  // "periodic xz, forced, obstacles": the shape, for summaries.
  std::string shape() const {
    std::string s = "periodic ";
    const auto p = c.periodic();
    for (int a = 0; a < c.dim; ++a)
      if (p[a]) s += axis_name(a);
    if (s == "periodic ") s = "closed";
    return s + ", " + to_string(c.collision) + (c.smagorinsky > 0 ? " LES" : "") +
           (forced ? ", forced" : ", unforced") + (obstacles ? ", obstacles" : "") +
           (moving_walls ? ", moving walls" : "") + (open ? ", inlet and outlet" : "") +
           (curved ? ", curved walls" : "") + (mesh ? ", STL" : "");
  }
  bool conserves_momentum() const {
    const auto p = c.periodic();
    return !forced && !obstacles && p[0] && p[1] && p[2];
  }
};

inline std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}
inline std::string vector_text(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + number(v[k]);
  return s + "]";
}

// Case shapes: which axes are periodic (bit a), whether a body force acts
// (bit dim) and whether obstacles stand in the flow (bit dim + 1), so that
// every combination comes up in turn.
inline int shapes(int dim) { return 4 << dim; }

// Isothermal case `k` (D2Q9 or D3Q19) of a sweep from `seed`: its shape is
// k mod shapes(dim), the rest is drawn.
inline GeneratedCase generate_isothermal(std::uint64_t seed, int k, const std::string& lattice,
                                         const std::string& precision) {
  Rng rng{seed};
  GeneratedCase g;
  g.seed = seed;
  const int dim = dim_of(lattice);
  std::vector<int> n(dim);
  for (int a = 0; a < dim; ++a) n[a] = dim == 2 ? rng.uniform(5, 20) : rng.uniform(4, 13);
  // Rows of whole cache lines (16 sites: two FP64 lines, one FP32 line) in
  // some cases: the line paths that wrap x or bounce in the lanes need them.
  if (rng.chance(0.35)) n[0] = 16;
  // Faces: periodic pairs, resting walls, tangentially moving walls; in
  // some cases the first closed axis is an inlet and an outlet (uniform or
  // parabolic where another axis is closed).
  std::string faces;
  std::vector<bool> periodic(dim);
  const int shape = k % shapes(dim);
  int closed = 0;
  for (int a = 0; a < dim; ++a) closed += !((shape >> a) & 1);
  const int open_axis = rng.chance(0.4) ? [&] {
    for (int a = 0; a < dim; ++a)
      if (!((shape >> a) & 1)) return a;
    return -1;
  }() : -1;
  const int inlet_side = rng.uniform(0, 1);
  for (int a = 0; a < dim; ++a) {
    periodic[a] = (shape >> a) & 1;
    for (int side = 0; side < 2; ++side) {
      std::string face;
      if (periodic[a]) {
        face = "periodic";
      } else if (a == open_axis && side == inlet_side) {
        std::vector<double> u(dim);
        for (int b = 0; b < dim; ++b)
          u[b] = b == a ? (side == 0 ? 1 : -1) * rng.real(0.005, 0.05) : rng.real(-0.02, 0.02);
        face = "{type: velocity_inlet, velocity: " + vector_text(u) +
               (closed > 1 && rng.chance(0.5) ? ", profile: parabolic" : "") +
               (rng.chance(0.5) ? ", ramp_steps: " + std::to_string(rng.uniform(1, 12)) : "") +
               (rng.chance(0.3) ? ", amplitude: 0.5, period: " + std::to_string(rng.uniform(3, 9))
                                : "") +
               "}";
        g.open = true;
      } else if (a == open_axis) {
        face = rng.chance(0.5)
                   ? "outflow"
                   : "{type: pressure_outlet, density: " + number(rng.real(0.99, 1.01)) + "}";
      } else if (open_axis < 0 && rng.chance(0.35)) {  // (an outlet meets no moving wall)
        std::vector<double> u(dim);
        for (int b = 0; b < dim; ++b) u[b] = b == a ? 0.0 : rng.real(-0.06, 0.06);
        face = "{type: moving_wall, velocity: " + vector_text(u) + "}";
        g.moving_walls = true;
      } else {
        face = "wall";
      }
      faces += std::string(faces.empty() ? "" : ", ") + kolb::face_name(2 * a + side) + ": " + face;
    }
  }
  // Obstacles: boxes that often reach a face (a wall, a periodic face, or
  // across the whole axis), spheres anywhere they fit; 40 % with
  // interpolated walls (a box's inner faces then between sites). Some
  // reach across faces: clipped at walls and open faces, wrapped across
  // periodic ones. In 3-D, sometimes the shipped STL sphere, stretched,
  // turned and placed anywhere.
  std::string obstacles;
  const int count = (shape >> (dim + 1)) & 1 ? rng.uniform(1, 3) : 0;
  Rng walls{seed ^ 0xb0021d1ULL};  // a stream of its own: the other draws keep their seeds' cases
  Rng reach{seed ^ 0x5ea0ULL}, meshes{seed ^ 0x57100ULL};  // so are these
  for (int k = 0; k < count; ++k) {
    std::string o;
    const bool curved = walls.chance(0.4);
    if (rng.chance(0.65)) {
      std::vector<double> lo(dim), hi(dim);
      for (int a = 0; a < dim; ++a) {
        const double r = rng.real(0, 1);
        if (r < 0.25) {
          lo[a] = 0, hi[a] = rng.uniform(1, std::max(1, n[a] / 3));  // at the low face
        } else if (r < 0.5) {
          lo[a] = n[a] - rng.uniform(1, std::max(1, n[a] / 3)), hi[a] = n[a];  // at the high face
        } else if (r < 0.6) {
          lo[a] = 0, hi[a] = n[a];  // across the whole axis
        } else {
          lo[a] = rng.uniform(0, n[a] - 1);
          hi[a] = std::min<double>(n[a], lo[a] + rng.uniform(1, std::max(1, n[a] / 2)));
        }
      }
      // Never a box over the whole lattice.
      bool all = true;
      for (int a = 0; a < dim; ++a) all = all && lo[a] == 0 && hi[a] == n[a];
      if (all) hi[0] = std::max(1.0, double(n[0] / 2));
      for (int a = 0; curved && a < dim; ++a) {
        if (lo[a] > 0) lo[a] += 0.3;
        if (hi[a] < n[a] && hi[a] - 0.2 > lo[a]) hi[a] -= 0.2;
      }
      for (int a = 0; a < dim; ++a)
        if (periodic[a] && hi[a] - lo[a] < n[a] && reach.chance(0.3)) {
          const double by = reach.uniform(1, std::max(1, n[a] / 2));  // across the low face
          lo[a] -= by, hi[a] -= by;
        }
      o = "{type: box, min: " + vector_text(lo) + ", max: " + vector_text(hi);
    } else {
      int fits = 1 << 30;
      for (int a = 0; a < dim; ++a) fits = std::min(fits, n[a]);
      if (fits < 4) continue;
      const double r = rng.real(1.0, std::min(3.2, fits / 2.0 - 0.5));
      std::vector<double> c(dim);
      for (int a = 0; a < dim; ++a) c[a] = rng.real(r, n[a] - r);
      if (reach.chance(0.35))
        for (int a = 0; a < dim; ++a) c[a] = reach.real(-0.5 * r, n[a] + 0.5 * r);
      o = "{type: sphere, center: " + vector_text(c) + ", radius: " + number(r);
    }
    o += curved ? ", wall: bouzidi}" : "}";
    g.curved = g.curved || curved;
    obstacles += (obstacles.empty() ? "" : ", ") + o;
    g.obstacles = true;
  }
  const char* source = std::getenv("KOLB_SOURCE_DIR");
  int fits = 1 << 30;
  for (int a = 0; a < dim; ++a) fits = std::min(fits, n[a]);
  if (count > 0 && dim == 3 && source && fits >= 4 && meshes.chance(0.4)) {
    const double most = std::min(3.0, fits / 2.0 - 0.5);
    std::vector<double> scale(3), rotate(3), offset(3);
    for (int a = 0; a < 3; ++a) {
      scale[a] = meshes.real(1.0, most);
      rotate[a] = meshes.real(0, 360);
      offset[a] = meshes.real(0, n[a]);  // its centre in the lattice: it meets it
    }
    const bool curved = meshes.chance(0.5);
    obstacles += (obstacles.empty() ? "" : ", ") + std::string("{type: stl, file: ") + source +
                 "/inputs/geometry/sphere.stl, scale: " + vector_text(scale) +
                 ", rotate: " + vector_text(rotate) + ", offset: " + vector_text(offset) +
                 (curved ? ", wall: bouzidi}" : "}");
    g.curved = g.curved || curved;
    g.mesh = true;
  }
  g.forced = (shape >> dim) & 1;
  std::vector<double> force(dim, 0.0);
  if (g.forced)
    for (int a = 0; a < dim; ++a) force[a] = rng.real(-2e-5, 2e-5);
  std::vector<double> u(dim);
  for (int a = 0; a < dim; ++a) u[a] = rng.real(-0.04, 0.04);
  g.sheared = rng.chance(0.5);
  g.steps = 2 * rng.uniform(3, 7);
  // Another collision of the lattice than bgk in a third of the cases, its
  // parameters at their defaults or drawn around them.
  std::string collision;
  const auto& collisions = lattice_info(*parse<LatticeId>(lattice)).collisions;
  if (collisions.size() > 1 && rng.chance(0.33)) {
    const Collision k = collisions[std::size_t(rng.uniform(1, int(collisions.size()) - 1))];
    collision = "collision: " + to_string(k) + ", ";
    for (const auto& p : collision_parameters(k))
      collision += p.key + ": " +
                   number(rng.chance(0.5) ? p.fallback : p.fallback * rng.real(0.1, 2.5)) + ", ";
  }
  // Smagorinsky's LES in a quarter of the cases, from a stream of its own.
  Rng les{seed ^ 0x1e5ULL};
  if (les.chance(0.25)) collision += "smagorinsky: " + number(les.real(0.05, 0.4)) + ", ";
  std::vector<double> size(n.begin(), n.end());
  g.yaml = "lattice: " + lattice + "\nprecision: " + precision +
           "\ndomain: {size: " + vector_text(size) + "}\nphysics: {" + collision +
           "tau: " + number(rng.real(0.52, 1.6)) + ", body_force: " + vector_text(force) +
           "}\nboundaries: {" + faces + "}\n" +
           (obstacles.empty() ? "" : "obstacles: [" + obstacles + "]\n") +
           "initial: {type: uniform, velocity: " + vector_text(u) +
           "}\nrun: {steps: " + std::to_string(g.steps) + "}\noutput: {folder: unused}\n";
  g.c = make_case(g.yaml);
  return g;
}

// D2Q37 case `k` of a sweep (its own options): periodic x; y periodic or
// thermal walls (adiabatic or at a fixed temperature, raw or half-step),
// in turn with or without gravity (k's shape); bgk or regularised
// (constant or pressure-dependent relaxation) drawn.
inline int thermal_shapes() { return 4; }
inline GeneratedCase generate_thermal(std::uint64_t seed, int k) {
  Rng rng{seed};
  GeneratedCase g;
  g.seed = seed;
  const int shape = k % thermal_shapes();
  const bool walls = shape & 1;
  g.forced = shape & 2;
  const int nx = rng.uniform(6, 20), ny = walls ? rng.uniform(7, 20) : rng.uniform(6, 20);
  std::string faces = "x-: periodic, x+: periodic, ";
  if (walls) {
    for (const char* side : {"y-", "y+"}) {
      std::string w = "{type: wall";
      if (rng.chance(0.6)) w += ", temperature: " + number(rng.real(0.9, 1.1));
      if (rng.chance(0.3)) w += ", temperature_of: half_step";
      faces += std::string(side) + ": " + w + "}" + (side[1] == '-' ? ", " : "");
    }
  } else {
    faces += "y-: periodic, y+: periodic";
  }
  std::string physics;
  const double r = rng.real(0, 1);
  if (r < 0.35)
    physics = "collision: bgk, tau: " + number(rng.real(0.55, 1.2));
  else if (r < 0.7)
    physics = "collision: regularized, tau: " +
              vector_text({rng.real(0.55, 1.2), rng.real(0.55, 1.2), rng.real(0.55, 1.4)});
  else
    physics = "collision: regularized, relaxation_constants: " +
              vector_text({rng.real(0.03, 0.3), rng.real(0.03, 0.3), rng.real(0.1, 0.8)});
  if (g.forced)
    physics += ", gravity: " + vector_text({rng.real(-2e-4, 2e-4), -rng.real(1e-4, 1e-3)});
  g.sheared = rng.chance(0.5);
  g.steps = 2 * rng.uniform(2, 5);
  g.yaml = "lattice: D2Q37\nprecision: double\ndomain: {size: [" + std::to_string(nx) + ", " +
           std::to_string(ny) + "]}\nphysics: {" + physics + "}\nboundaries: {" + faces +
           "}\ninitial: {type: uniform, velocity: " +
           vector_text({rng.real(-0.03, 0.03), rng.real(-0.03, 0.03)}) +
           ", temperature: " + number(rng.real(0.95, 1.05)) +
           "}\nrun: {steps: " + std::to_string(g.steps) + "}\noutput: {folder: unused}\n";
  g.c = make_case(g.yaml);
  return g;
}

// The sheared initial state of a case: u along one axis varying as a sine
// across another, plus noise in every component and the density (seeded by
// the case, so every configuration starts alike). Fields of the whole lattice.
struct Fields {
  std::vector<double> rho, u, temperature;  // temperature: models with one
};
inline Fields sheared_fields(const GeneratedCase& g) {
  Rng rng{g.seed ^ 0x5eedf1e1dULL};
  const auto& n = g.c.size;
  const int flow = rng.uniform(0, g.c.dim - 1), across = (flow + 1) % g.c.dim;
  const double pi = 3.14159265358979323846;
  Fields f;
  const std::size_t sites = std::size_t(n[0]) * n[1] * n[2];
  f.rho.resize(sites);
  f.u.assign(3 * sites, 0.0);
  std::size_t k = 0;
  for (int z = 0; z < n[2]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[0]; ++x, ++k) {
        const int p[3] = {x, y, z};
        f.rho[k] = 1 + rng.real(-0.01, 0.01);
        for (int a = 0; a < g.c.dim; ++a) f.u[3 * k + a] = rng.real(-0.01, 0.01);
        f.u[3 * k + flow] += 0.04 * std::sin(2 * pi * (p[across] + 0.5) / n[across]);
        if (lattice_info(g.c.lattice).has_temperature)
          f.temperature.push_back(1 + rng.real(-0.02, 0.02));
      }
  return f;
}

// The fields of `tile` cut from those of the whole lattice.
inline Fields tile_fields(const Fields& all, const std::array<int, 3>& size, const Tile& t) {
  Fields f;
  for (int z = 0; z < t.size[2]; ++z)
    for (int y = 0; y < t.size[1]; ++y)
      for (int x = 0; x < t.size[0]; ++x) {
        const std::size_t g =
            std::size_t(x + t.offset[0]) +
            std::size_t(size[0]) * (y + t.offset[1] + std::size_t(size[1]) * (z + t.offset[2]));
        f.rho.push_back(all.rho[g]);
        for (int a = 0; a < 3; ++a) f.u.push_back(all.u[3 * g + a]);
        if (!all.temperature.empty()) f.temperature.push_back(all.temperature[g]);
      }
  return f;
}

// How a node runs its step (Domain::set_concurrent, set_swap_overlap).
enum class Schedule { concurrent, sequential, overlapped };
inline const char* to_string(Schedule s) {
  return s == Schedule::concurrent   ? "concurrent"
         : s == Schedule::sequential ? "sequential"
                                     : "overlapped";
}

// One configuration: --set overrides, a node schedule, and how the steps
// are cut into advance() calls (odd pieces leave AA pushes in flight).
struct Config {
  std::vector<std::string> sets;
  Schedule schedule = Schedule::concurrent;
  std::vector<int> chunks;
  // Host kernels as beyond the last-level cache (KOLB_LLC_BYTES=0): fused
  // rows by cache lines, prefetches, aligned rows and the shortcuts on them.
  bool beyond_cache = false;

  std::string describe() const {
    std::string s = beyond_cache ? "KOLB_LLC_BYTES=0 " : "";
    for (const auto& set : sets) s += "--set " + set + " ";
    s += std::string("schedule ") + to_string(schedule) + ", advance";
    for (int k : chunks) s += " " + std::to_string(k);
    return s;
  }
};

// KOLB_LLC_BYTES=0 while a configuration beyond the cache runs.
struct CacheScope {
  bool set;
  explicit CacheScope(const Config& c) : set(c.beyond_cache) {
    if (set) setenv("KOLB_LLC_BYTES", "0", 1);
  }
  ~CacheScope() {
    if (set) unsetenv("KOLB_LLC_BYTES");
  }
};

// The steps cut into one call or two odd ones.
inline std::vector<int> chunks_of(int steps, Rng& rng) {
  if (steps < 4 || rng.chance(0.4)) return {steps};
  const int first = 2 * rng.uniform(0, (steps - 2) / 2) + 1;
  return {first, steps - first};
}

inline std::vector<LayoutId> compiled_layouts(const Case& c) {
  std::vector<LayoutId> out;
  for (const auto& v : compiled_variants()) {
    const auto k = compiled_collisions(v);
    if (v.lattice == c.lattice && v.precision == c.precision &&
        std::find(k.begin(), k.end(), c.kernel_collision()) != k.end())
      out.push_back(v.layout);
  }
  return out;
}

// The --set overrides that select a layout.
inline std::vector<std::string> layout_sets(const LayoutId& l) {
  std::vector<std::string> sets = {std::string("execution.layout=") + to_string(l.kind)};
  if (l.kind == LayoutKind::csoa || l.kind == LayoutKind::caosoa)
    sets.push_back("execution.vector_length=" + std::to_string(l.vector_length));
  return sets;
}
inline std::vector<std::string> with(std::vector<std::string> a,
                                     const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The schemes every configuration of a case is run with (D2Q37 streams
// between two buffers only).
inline std::vector<std::string> schemes(const Case& c) {
  std::vector<std::string> s = {"execution.kernel=fused", "execution.kernel=split"};
  if (lattice_info(c.lattice).in_place_streaming) s.push_back("execution.streaming=aa");
  return s;
}

// The configurations of one process for a case: every compiled layout
// with every scheme on one part, and host splits along every axis (one
// layer, and a random width up to the host alone) with every scheme and
// schedule in a random layout.
inline std::vector<Config> single_process_configs(const GeneratedCase& g) {
  Rng rng{g.seed ^ 0xc0f1ULL};
  std::vector<Config> out;
  const auto layouts = compiled_layouts(g.c);
  for (const auto& layout : layouts)
    for (const auto& scheme : schemes(g.c))
      for (const bool beyond : {false, true})
        out.push_back({with(layout_sets(layout), {scheme}), Schedule::concurrent,
                       chunks_of(g.steps, rng), beyond});
  for (int axis = 0; axis < g.c.dim; ++axis) {
    const int n = g.c.size[axis];
    std::vector<int> widths = {1};
    if (n / 2 >= 2) widths.push_back(rng.uniform(2, n / 2));
    for (const int m : widths) {
      if (!split_problem(g.c, m, axis).empty()) continue;
      for (const auto& scheme : schemes(g.c))
        for (const Schedule s : {Schedule::concurrent, Schedule::sequential, Schedule::overlapped})
          out.push_back({with(layout_sets(rng.pick(layouts)),
                              {scheme, "execution.host_columns=" + std::to_string(m),
                               std::string("execution.split_axis=") + axis_name(axis)}),
                         s, chunks_of(g.steps, rng), rng.chance(0.5)});
    }
  }
  return out;
}

inline void use(Domain& d, Schedule s) {
  d.set_concurrent(s != Schedule::sequential);
  d.set_swap_overlap(s == Schedule::overlapped);
}

// The values of every decision of the step plans a sweep reached
// (domain/step_plan.hpp), to check that its runs take every path.
struct PlanCoverage {
  std::set<std::string> seen;

  void add(const StepPlan& plan) {
    seen.insert("rows " + to_string(plan.storage));
    for (int k = 0; k < plan.phases; ++k) {
      const PhasePlan& p = plan.phase[k];
      seen.insert("kernel " + to_string(p.kernel));
      if (p.zoned) seen.insert("zoned");
      if (p.model_wall_rows) seen.insert("model wall rows");
      for (int a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side) {
          seen.insert("halo " + to_string(p.fill[a][side]));
          seen.insert("pushed " + to_string(p.push[a][side]));
        }
      if (p.kernel == PhaseKernel::stream_collide)
        for (const EndLane l : p.lanes) seen.insert("end lane " + to_string(l));
      if (p.kernel == PhaseKernel::aa_local) seen.insert("row halos " + to_string(p.row_halos));
      if (p.kernel == PhaseKernel::aa_pull &&
          (p.lanes[0] == EndLane::open || p.lanes[1] == EndLane::open))
        seen.insert("in-place rows take an open x face");
    }
  }
  void add(const Domain& d) {
    for (const auto& [label, plan] : d.plans()) add(plan);
  }
  // Every decision value but those in `absent`, which this build or process
  // cannot reach, that no run took.
  std::vector<std::string> missing(const std::set<std::string>& absent) const {
    std::vector<std::string> all = {"zoned", "model wall rows",
                                    "in-place rows take an open x face"};
    for (const auto& v : names<RowStorage>()) all.push_back("rows " + v);
    for (const auto& v : names<PhaseKernel>()) all.push_back("kernel " + v);
    for (const auto& v : names<HaloFill>()) all.push_back("halo " + v);
    for (const auto& v : names<PushTo>()) all.push_back("pushed " + v);
    for (const auto& v : names<EndLane>()) all.push_back("end lane " + v);
    for (const auto& v : names<RowHalos>()) all.push_back("row halos " + v);
    std::vector<std::string> out;
    for (const auto& v : all)
      if (!seen.count(v) && !absent.count(v)) out.push_back(v);
    return out;
  }
};

// What a failure prints: how to rerun it and what it ran.
inline std::string describe(const GeneratedCase& g, const Config* config = nullptr) {
  std::string s = "case seed " + std::to_string(g.seed) + (g.sheared ? ", sheared start" : "") +
                  ", " + std::to_string(g.steps) + " steps\n" + g.yaml;
  if (config) s += "configuration: " + config->describe() + "\n";
  return s;
}

// What a sweep found: failing configurations by name (with the case's
// shape), runs made, failures printed in full.
struct Findings {
  std::map<std::string, int> failed;
  int runs = 0, shown = 0;

  std::string summary() const {
    std::string s;
    for (const auto& [name, count] : failed)
      s += "  " + name + ": " + std::to_string(count) + " runs\n";
    return s;
  }
};

}  // namespace kolb::test::sweep
