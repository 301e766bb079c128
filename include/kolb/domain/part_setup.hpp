#pragma once
// What a BlockPart is made from, before its block exists: the model's
// parameters of the case, the part's materials (with the wall ghosts and
// bulk rows of its host kernels) and the inputs of its step plan.

#include <kolb/block/bulk_rows.hpp>
#include <kolb/boundary/bounce_back.hpp>
#include <kolb/boundary/open_faces.hpp>
#include <kolb/domain/memory.hpp>
#include <kolb/domain/part.hpp>
#include <kolb/domain/step_plan.hpp>
#include <kolb/io/inflow_table.hpp>
#include <kolb/kernels/initialize.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/model/models.hpp>

#include <algorithm>
#include <cmath>

namespace kolb {

// The model parameters of a case.
template <class Lattice, class S, template <class> class Rates>
void configure(IsothermalModel<Lattice, S, Rates>& m, const Case& c) {
  m.collision.rates.set(c.tau, c.collision_parameters);
  if constexpr (Rates<real_t<S>>::local_rates)
    m.collision.rates.smagorinsky(c.smagorinsky, Lattice::cs2());
  for (int a = 0; a < 3; ++a) m.collision.forcing.g[a] = real_t<S>(c.body_force[a]);
}
template <class Scalar, bool Regularized>
void configure(ThermalModel<Scalar, Regularized>& m, const Case& c) {
  for (int n = 0; n < 3; ++n) {
    m.collision.tau_const[n] = Scalar(c.thermal.tau_const[n]);
    m.collision.tau_per_pressure[n] = Scalar(c.thermal.tau_per_pressure[n]);
  }
  // gravity g in the model's units; dt = 1/r
  for (int a = 0; a < 3; ++a) m.collision.gdt[a] = Scalar(c.body_force[a] / D2Q37::unit());
  m.walls.active = c.faces[2].kind != FaceKind::periodic;
  for (int side = 0; side < 2; ++side) {
    const double T = c.faces[2 + side].temperature;
    m.walls.adiabatic[side] = std::isnan(T);
    m.walls.temperature[side] = std::isnan(T) ? 1.0 : T;
    m.walls.raw[side] = c.faces[2 + side].raw_temperature;
  }
}

// The lattice's sites as a part's set-up looks them up around its own, at
// lattice coordinates p anywhere: periodic axes wrapped, nothing (neither
// fluid nor a body) outside the lattice across other faces.
template <class Lattice>
struct LatticeSites {
  const PartSetup& s;
  Extents global{s.c.size, Lattice::halo, Lattice::dim};
  std::array<bool, 3> periodic = s.c.periodic();

  // p wrapped into the lattice; false if it lies outside.
  bool wrap(const int* p, int (&w)[3]) const {
    for (int a = 0; a < 3; ++a) {
      const int n = s.c.size[std::size_t(a)];
      w[a] = periodic[std::size_t(a)] ? ((p[a] % n) + n) % n : p[a];
      if (w[a] < 0 || w[a] >= n) return false;
    }
    return true;
  }
  // The obstacle number + 1 of the site at p, or 0.
  int body(const int* p) const {
    int w[3];
    return wrap(p, w) ? s.geometry.body[global.site(w[0], w[1], w[2])] : 0;
  }
  bool fluid(const int* p) const {
    int w[3];
    return wrap(p, w) && s.geometry.material[global.site(w[0], w[1], w[2])] == kFluid;
  }
  // q of the link of the fluid site at p with incoming population i into
  // an obstacle with interpolated walls (boundary/interpolated_bounce.hpp),
  // or 0 where it bounces half-way: p - c_i is fluid or held by a shape
  // with half-way walls (where shapes overlap, all that hold it must be
  // interpolated; the nearest surface counts), p + c_i is not fluid, or the
  // wall lies half-way anyway.
  double fraction(const int* p, int i) const {
    const int from[3] = {p[0] - Lattice::c(i, 0), p[1] - Lattice::c(i, 1), p[2] - Lattice::c(i, 2)};
    const int ahead[3] = {p[0] + Lattice::c(i, 0), p[1] + Lattice::c(i, 1),
                          p[2] + Lattice::c(i, 2)};
    const int b = body(from);
    if (b == 0 || !fluid(p) || !fluid(ahead)) return 0;
    int w[3];
    wrap(from, w);
    if (s.geometry.halfway[global.site(w[0], w[1], w[2])]) return 0;
    const std::array<double, 3> solid{w[0] + 0.5, w[1] + 0.5, w[2] + 0.5};
    const int into[3] = {-Lattice::c(i, 0), -Lattice::c(i, 1), -Lattice::c(i, 2)};
    const double q = link_fraction(s.c, solid, into);
    return q == 0.5 ? 0 : q;
  }
};

// The case's open faces on the lattice faces part `s` lies on.
inline OpenFaceSetup open_face_setup(const PartSetup& s) {
  const Case& c = s.c;
  OpenFaceSetup o{{}, c.size, {}, s.origin, s.late, c.body_force};
  for (int a = 0; a < c.dim; ++a) {
    o.walled[a] = c.faces[2 * a].kind != FaceKind::periodic;
    for (int side = 0; side < 2; ++side) {
      const FaceBoundary& b = c.faces[2 * a + side];
      if (s.faces[a][side] != FaceLink::open) continue;
      o.face[a][side] = {b.kind == FaceKind::pressure_outlet ? OpenKind::outlet
                         : b.kind == FaceKind::outflow       ? OpenKind::outflow
                                                             : OpenKind::inlet,
                         b.velocity,
                         b.profile == InletProfile::parabolic,
                         {},
                         b.ramp_steps,
                         b.density,
                         b.amplitude,
                         b.period};
      if (b.table)
        o.face[a][side].velocity_at = [table = b.table](const std::array<double, 3>& p) {
          return table->at(p);
        };
    }
  }
  return o;
}

// A part's materials on extents `e`: the sites' ids, the solid halo sites
// its host kernels pull from as ghosts (boundary/bounce_back.hpp; none where
// `ghosts` is false) and the runs of its rows that take the lean bulk path.
struct PartMaterials {
  Kokkos::View<material_t*, Kokkos::HostSpace> material;
  Kokkos::View<bool*, Kokkos::HostSpace> ghosted;
  WallFaces walls{};
  BulkRows bulk, fluid;  // upstream neighbours fluid (or ghosts); the site alone fluid
};

template <class Lattice>
PartMaterials part_materials(const PartSetup& s, const Extents& e, bool ghosts) {
  PartMaterials m;
  m.material = decltype(m.material)("kolb::material", e.num_sites());
  const Extents global(s.c.size, Lattice::halo, Lattice::dim);
  const int dx = global.halo[0] - e.halo[0];  // rows stored without x halos: 1
  const auto& o = s.origin;
  for (int z = 0; z < e.ext(2); ++z)
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x)
        m.material(e.site_index()(x, y, z)) =
            s.geometry.material[global.site_index()(o[0] + dx + x, o[1] + y, o[2] + z)];
  const Kokkos::View<const material_t*, Kokkos::HostSpace> mat = m.material;
  m.ghosted = decltype(m.ghosted)("kolb::ghosted", ghosts ? e.num_sites() : 0);
  if (ghosts) {
    for (int a = 0; a < e.dim; ++a)
      for (int side = 0; side < 2; ++side) m.walls[a][side] = s.faces[a][side] == FaceLink::wall;
    mark_wall_ghosts(mat, e, m.walls, m.ghosted);
  }
  m.bulk = find_bulk_rows<Lattice>(e, mat, true, m.ghosted);
  m.fluid = find_bulk_rows<Lattice>(e, mat, false);
  return m;
}

// Whether the fused rows' end lines may bounce off each x wall in their
// lanes: every bulk run that reaches the face is a line long at least and
// pulls across it only from ghosts (general sites bounce by themselves).
template <class Lattice>
std::array<bool, 2> x_wall_lanes_fit(const PartMaterials& m, const Extents& e, int line) {
  std::array<bool, 2> fit{false, false};
  const SiteIndex site = e.site_index();
  for (int side = 0; side < 2; ++side) {
    bool ok = m.walls[0][side] && m.ghosted.size() > 0;
    const int x = side == 0 ? e.halo[0] : e.halo[0] + e.n[0] - 1;  // next to the face
    const int cx = side == 0 ? 1 : -1;                             // populations pulled across it
    for (int z = e.halo[2]; ok && z < e.halo[2] + e.n[2]; ++z)
      for (int y = e.halo[1]; ok && y < e.halo[1] + e.n[1]; ++y) {
        const int b = m.bulk(y, z, 0), end = m.bulk(y, z, 1);
        if (x < b || x >= end) continue;
        ok = end - b >= line;
        for (int i = 0; ok && i < Lattice::q; ++i)
          if (Lattice::c(i, 0) == cx)
            ok = m.ghosted(site(x - cx, y - Lattice::c(i, 1), z - Lattice::c(i, 2)));
      }
    fit[side] = ok;
  }
  return fit;
}

// Whether the host rows may take each open x face's values at their ends
// (the fused rows' end lines in their lanes, in place the rows' hooks):
// every bulk run that reaches the face is `line` sites long at least (the
// fused rows' end lines; 1 in place), the three layers next to it are
// fluid (stricter than needed: an obstacle touching the face only keeps
// the pass), and some row takes it: its face site lies in its bulk run
// (in place also in its fluid run, the local step's) and its neighbours
// are all fluid (OpenFaces' lane sites), so a plan that says so has rows
// that do.
template <class Lattice>
std::array<bool, 2> x_open_lanes_fit(const PartSetup& s, const PartMaterials& m, const Extents& e,
                                     int line, bool in_place) {
  std::array<bool, 2> fit{false, false};
  const SiteIndex site = e.site_index();
  for (int side = 0; side < 2; ++side) {
    bool ok = s.faces[0][side] == FaceLink::open && e.n[0] >= 6, taken = false;
    const int x = side == 0 ? e.halo[0] : e.halo[0] + e.n[0] - 1;  // next to the face
    const int in = side == 0 ? 1 : -1;
    for (int z = e.halo[2]; ok && z < e.halo[2] + e.n[2]; ++z)
      for (int y = e.halo[1]; ok && y < e.halo[1] + e.n[1]; ++y) {
        for (int d = 0; ok && d < 3; ++d) ok = m.material(site(x + in * d, y, z)) == kFluid;
        const int b = m.bulk(y, z, 0), end = m.bulk(y, z, 1);
        if (!ok || x < b || x >= end) continue;
        ok = end - b >= line;
        bool lane = !in_place || (x >= m.fluid(y, z, 0) && x < m.fluid(y, z, 1));
        for (int k = 0; lane && k < Lattice::q; ++k)
          lane = m.material(site(x + Lattice::c(k, 0), y + Lattice::c(k, 1),
                                 z + Lattice::c(k, 2))) == kFluid;
        taken = taken || lane;
      }
    fit[side] = ok && taken;
  }
  return fit;
}

// The inputs of the step plan of a part of Model and Layout on Exec
// (`concurrency` threads); `plain` are its materials on the extents `e` of
// plain row storage.
template <class Model, class Layout, class Exec>
PlanInputs plan_inputs(const PartSetup& s, const PartMaterials& plain, const Extents& e,
                       int concurrency) {
  using Lattice = typename Model::lattice_type;
  using Stored = stored_t<typename Model::scalar_type>;
  using Fused = StreamCollide<Model, Layout, typename Exec::memory_space>;
  constexpr int Q = Lattice::q;
  PlanInputs in;
  in.dim = Lattice::dim;
  in.streaming = Model::in_place_streaming ? s.c.execution.streaming : Streaming::two_buffer;
  in.kernel = s.c.execution.kernel;
  in.host = is_host_space_v<Exec>;
  in.bounce_back = Model::max_wall_rows == 0;
  in.faces = s.faces;
  in.late = s.late;
  in.first_axis = s.split_axis;
  in.nx = s.size[0];
  for (int side = 0; side < 2; ++side)
    in.model_walls[side] = !in.bounce_back && in.faces[1][side] == FaceLink::wall;
  in.lines_by_pointers = Fused::lines_by_pointers;
  in.line_sites = Fused::line_sites;
  const int line = host::line_values<Stored>;
  const Extents unpadded(s.size, Lattice::halo, Lattice::dim);
  in.pads = pads_rows(s.c.execution, Fused::by_lines, s.size[0], line) &&
            Fused::lines_for(2 * std::size_t(unpadded.num_sites()) * Q * sizeof(Stored));
  const Extents rows(s.size, Lattice::halo, Lattice::dim, 1, 0, false);
  in.lines_without_x_halo =
      Fused::lines_for(2 * std::size_t(rows.num_sites()) * Q * sizeof(Stored));
  in.row_per_item = !in.host || impl::RowPieces::of(interior_region(e), concurrency).pieces == 1;
  in.all_fluid = true;
  for (std::size_t k = 0; k < plain.material.size(); ++k)
    in.all_fluid = in.all_fluid && plain.material(k) == kFluid;
  in.fluid_rows_whole = plain.fluid.whole;
  in.bulk_rows_whole = plain.bulk.whole;
  in.x_wall_lanes_fit = x_wall_lanes_fit<Lattice>(plain, e, line);
  const bool in_place = in.streaming == Streaming::aa;
  in.x_open_lanes_fit = x_open_lanes_fit<Lattice>(s, plain, e, in_place ? 1 : line, in_place);
  return in;
}

// The block of a part whose plan stores rows as `rows` in `buffers`
// population buffers (2, or 1 in place), its populations
// zeros, each page first touched by the thread whose rows it holds in the
// kernels' static row partition (pages then live next to the cores that
// stream them); a flat pass zeros the rest.
template <class BlockType, class Exec>
BlockType make_part_block(const PartSetup& s, RowStorage rows, int buffers, const Exec& exec) {
  using Lattice = typename BlockType::lattice_type;
  using Layout = typename BlockType::layout_type;
  using Stored = typename BlockType::stored_type;
  using memory_space = typename BlockType::memory_space;
  const bool aligned = rows != RowStorage::plain;
  const Extents e(s.size, Lattice::halo, Lattice::dim,
                  row_align_sites(aligned, host::line_values<Stored>, Layout::vector_length),
                  s.split_axis, rows != RowStorage::aligned_without_x_halo);
  BlockType b(e, s.label, buffers, false, aligned ? aligned_row_lead<Stored>(e.halo[0]) : 0);
  for (int k = 0; k < buffers; ++k) {
    const auto& f = k == 0 ? b.current() : b.next();
    if constexpr (is_host_space_v<Exec>)
      for_each_site(
          "kolb::FirstTouch", exec, interior_region(e),
          ZeroSites<Stored, Layout, Lattice::q, memory_space>{f, b.layout(), b.site_index()});
    Kokkos::deep_copy(exec, f, Stored(0));
  }
  exec.fence();
  return b;
}

}  // namespace kolb
