#pragma once
// Open faces: velocity inlets, pressure outlets and outflows. Like kolb's
// walls they lie half-way, half a site outside the last fluid site. Before
// each pull, a pass writes into every halo slot of an open face that a
// fluid site pulls from the value the face's condition gives that link. The pull
// (bulk rows, general sites, fused lines) then reads it as it reads any
// halo; host rows may take an open x face's values at their ends instead
// (the fused two-buffer rows in their end lanes, the in-place rows in
// their hooks; boundary/open_lanes.hpp), and the pass leaves those sites
// out. It runs after the fills of the other halos it shares edges with
// (periodic, neighbour, remote faces; those of late faces once they
// arrived), so it writes those edges too (the edges it shares with walls
// are solid: the wall owns them).
//  - velocity inlet: velocity bounce-back (Ladd 1994), the moving wall's
//    term with the inlet velocity u_w where the link crosses the face:
//    f_i(x) = f*_ī(x) + 2 w_i ρ₀ (c_i·u_w) / c_s², ρ₀ = 1. For a uniform
//    profile the mass entering a face site away from walls is ρ₀ u_w·n,
//    exactly.
//  - pressure outlet: anti-bounce-back (Ginzburg, Verhaeghe & d'Humières
//    2008; Izquierdo & Fueyo 2008):
//    f_i(x) = −f*_ī(x) + 2 w_i ρ_w [1 + (c_i·u)² / (2 c_s⁴) − u² / (2 c_s²)],
//    u the velocity of the site x next to the face. Extrapolating u to the
//    face would need the site behind x, which another part or rank may hold.
//  - outflow: zero gradient along each link, f_i(g) = f*_i(x): the halo
//    site sends on what x sends on. It imposes neither pressure nor
//    velocity, so structures leave with little reflected (the anti-bounce-back
//    outlet holds the density and reflects part of a passing vortex back).
// f* is the post-collision state the pull reads; with Guo forcing its
// momentum is ρu + F/2, so the outlet takes u = Σ c f* / ρ − g/2.
// In place (AA) the values go where each step reads them: before the pull
// into the halo slots it pulls from, after it into the sites' own slots the
// local step reads (PostState). The values are computed from the same
// stored bits with the same operations either way, so both schemes agree
// bit for bit.

#include <kolb/block/block.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/boundary/open_lanes.hpp>
#include <kolb/boundary/post_state.hpp>
#include <kolb/core/allocate.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/lattice/slot.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace kolb {

struct OpenFace {
  OpenKind kind = OpenKind::none;
  std::array<double, 3> velocity{0, 0, 0};  // inlet: everywhere, or at the centre if parabolic
  bool parabolic = false;                   // times 4 s (1 - s) across each walled axis
  // Set: the inlet's velocity at lattice coordinates instead (a profile
  // from a file); called on the host while the links are set up.
  std::function<std::array<double, 3>(const std::array<double, 3>&)> velocity_at;
  std::int64_t ramp_steps = 0;       // inlet: from 0 to full over these steps
  double density = 1;                // outlet
  double amplitude = 0, period = 0;  // inlet: times 1 + amplitude sin(2π step / period)

  // The inlet's velocity at step `step`, of the full one: a half cosine
  // from 0 at step 0 to 1 at ramp_steps, times the pulsation (on the host,
  // so that every space takes the same bits).
  double inflow_factor(std::int64_t step) const {
    constexpr double pi = 3.14159265358979323846;
    const double ramp =
        step >= ramp_steps ? 1.0 : 0.5 * (1 - std::cos(pi * double(step) / ramp_steps));
    return period > 0 ? ramp * (1 + amplitude * std::sin(2 * pi * double(step) / period)) : ramp;
  }
};

// The open faces as a part sees them: [axis][side] of the lattice's faces
// the part lies on, the lattice's size and which axes are walled (for the
// profile), where the part starts in it, which of its faces are late (their
// edges are written after those halos arrive) and the body acceleration g.
struct OpenFaceSetup {
  std::array<std::array<OpenFace, 2>, 3> face{};
  std::array<int, 3> size{1, 1, 1};
  std::array<bool, 3> walled{false, false, false};
  std::array<int, 3> origin{0, 0, 0};
  std::array<std::array<bool, 2>, 3> late{};
  std::array<double, 3> g{0, 0, 0};
};

// One link across an open face: the halo site g the fluid site x = g + c_i
// pulls population i from, whether g lies in the halo of a late face, and
// the inlet's term (2 w_i c_i·u_w / c_s²) or the outlet's density.
struct OpenLink {
  index_t ghost;
  int i;
  bool late;
  double value;
};

// A fluid site next to an open face: its links across it are
// [first, first + count) of the links.
struct OpenSite {
  index_t site;
  int face;  // 2 axis + side
  int first, count;
  OpenKind kind;
  std::uint64_t solid;  // bit k: x + c_k is solid (PostState::pushed)
};

// The value of each link of each open site, from the post-collision state
// `State` of the buffer: into the halo slot the pull reads (`m_direct`:
// g's slot i, in place g's slot opposite(i)), or kept in m_values until
// OpenLinkWrite puts it there, or (pushed) into x's slot i, where the
// in-place local step reads it. One site at a time, its loads issued
// together: on an x face each site's Q populations lie on Q cache lines.
template <class Lattice, class S, class Layout, class MemorySpace, PostState State>
struct OpenSiteValues {
  using R = real_t<S>;
  using P = Storage<S>;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::Array<index_t, Lattice::q> m_offset;  // site x + c_k = x + m_offset[k]
  Kokkos::View<const OpenSite*, MemorySpace> m_sites;
  Kokkos::View<const OpenLink*, MemorySpace> m_links;
  Kokkos::View<stored_t<S>*, MemorySpace> m_values;
  Kokkos::Array<R, 3> m_g;
  Kokkos::Array<R, 3 * Lattice::q> m_c;  // c_k (Lattice::c(k, a) at a run-time k builds its table)
  Kokkos::Array<double, 6> m_inflow;     // each face's inlet velocity now, of the full one
  bool m_direct;

  // On the host, a site kAhead on asks for the lines it reads and writes
  // (no pass streams them: on an x face each is a miss of its own).
  static constexpr int kAhead = 8;
  KOKKOS_INLINE_FUNCTION void prefetch(const OpenSite& s) const {
    const bool outlet = s.kind == OpenKind::outlet;
    for (int k = 0; outlet && k < Lattice::q; ++k) host::prefetch_read(post(s, k));
    for (int l = s.first; l < s.first + s.count; ++l) {
      const OpenLink link = m_links(l);
      if (!outlet)
        host::prefetch_read(
            post(s, s.kind == OpenKind::outflow ? link.i : Lattice::opposite(link.i)));
      if (State == PostState::pushed || m_direct) host::prefetch_write(target(s, link));
    }
  }

  // Where the f*_k of site s lies.
  KOKKOS_INLINE_FUNCTION stored_t<S>* post(const OpenSite& s, int k) const {
    const int o = Lattice::opposite(k);
    if constexpr (State == PostState::stored) return &m_f(m_layout(s.site, k));
    if constexpr (State == PostState::swapped) return &m_f(m_layout(s.site, o));
    return (s.solid >> k) & 1 ? &m_f(m_layout(s.site, o)) : &m_f(m_layout(s.site + m_offset[k], k));
  }
  // Where the value of `link` goes, unless kept in m_values.
  KOKKOS_INLINE_FUNCTION stored_t<S>* target(const OpenSite& s, const OpenLink& link) const {
    if constexpr (State == PostState::pushed) return &m_f(m_layout(s.site, link.i));
    return &m_f(m_layout(link.ghost, stored_slot<Lattice>(link.i, State == PostState::swapped)));
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (j + kAhead < index_t(m_sites.extent(0))) prefetch(m_sites(j + kAhead));
#endif
    const OpenSite s = m_sites(j);
    using Values = OpenValues<Lattice, S>;
    R u[3] = {0, 0, 0};
    stored_t<S> f[Lattice::q] = {};    // an outlet site's f*, loaded together
    if (s.kind == OpenKind::outlet) {  // the site's velocity
      for (int k = 0; k < Lattice::q; ++k) f[k] = *post(s, k);
      Values::velocity([&](int k) { return f[k]; }, m_c.data(), m_g.data(), u);
    }
    for (int l = s.first; l < s.first + s.count; ++l) {
      const OpenLink link = m_links(l);
      const int i = link.i, o = Lattice::opposite(i);
      stored_t<S> value;
      if (s.kind == OpenKind::outflow)
        value = *post(s, i);
      else if (s.kind == OpenKind::inlet)
        value = Values::inlet(i, *post(s, o), R(link.value * m_inflow[s.face]));
      else
        value = Values::outlet(i, R(link.value), u, m_c.data(), f[o]);
      if (State == PostState::pushed || m_direct)
        *target(s, link) = value;
      else
        m_values(l) = value;
    }
  }
};

// Writes the kept values of the early and/or the late links into the halo
// slots the next pull reads: g's slot i, or in place (swapped) g's slot
// opposite(i).
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenLinkWrite {
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const OpenLink*, MemorySpace> m_links;
  Kokkos::View<const stored_t<S>*, MemorySpace> m_values;
  bool m_early, m_late, m_swapped;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const OpenLink l = m_links(j);
    if (l.late ? m_late : m_early)
      m_f(m_layout(l.ghost, stored_slot<Lattice>(l.i, m_swapped))) = m_values(j);
  }
};

// A part's sites next to open faces and their links across them, on its
// memory space. Its passes go through the part's `launch(label, n,
// functor)` (f(j) for j < n on the part's execution space).
template <class Lattice, class S, class Layout, class MemorySpace>
class OpenFaces {
 public:
  OpenFaces() = default;

  // The sites and links of a part with extents `e` and materials `material`.
  // `in_lane(y, z, side)`: whether the rows take the x face's site of row
  // (y, z) on that side at their end (the plan's EndLane::open), if its
  // neighbours are all fluid: the pass leaves those sites out, and the
  // lanes take the inlet's terms here.
  template <class InLane>
  OpenFaces(const OpenFaceSetup& s,
            const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
            const InLane& in_lane) {
    std::vector<OpenSite> sites;
    std::vector<OpenLink> links;
    const SiteIndex site = e.site_index();
    for (int a = 0; a < Lattice::dim; ++a)
      for (int side = 0; side < 2; ++side) {
        const OpenFace& face = s.face[a][side];
        if (face.kind == OpenKind::none) continue;
        const int in = side == 0 ? 1 : -1;  // c_i along a of the links into the part
        int lo[3], hi[3];                   // the part's layer next to the face
        for (int b = 0; b < 3; ++b) lo[b] = e.halo[b], hi[b] = e.halo[b] + e.n[b];
        lo[a] = side == 0 ? e.halo[a] : e.halo[a] + e.n[a] - 1;
        hi[a] = lo[a] + 1;
        for (int z = lo[2]; z < hi[2]; ++z)
          for (int y = lo[1]; y < hi[1]; ++y)
            for (int x = lo[0]; x < hi[0]; ++x) {
              const int p[3] = {x, y, z};
              if (material(site(x, y, z)) != kFluid) continue;
              std::uint64_t solid = 0;  // bit k: x + c_k is solid
              for (int k = 0; k < Lattice::q; ++k)
                if (material(site(x + Lattice::c(k, 0), y + Lattice::c(k, 1),
                                  z + Lattice::c(k, 2))) != kFluid)
                  solid |= std::uint64_t(1) << k;
              if (a == 0 && solid == 0 && in_lane(y, z, side)) {
                const std::size_t rows = std::size_t(e.ext(1)) * std::size_t(e.ext(2));
                const std::size_t row = std::size_t(z) * std::size_t(e.ext(1)) + std::size_t(y);
                m_lane_stash[std::size_t(side)].resize(rows * Lattice::q);
                m_lane_rows[std::size_t(side)].resize(rows);
                m_lane_rows[std::size_t(side)][row] = 1;
                m_lane_sites[std::size_t(side)].push_back({site(x, y, z), index_t(row)});
                auto& terms = m_lane_terms[std::size_t(side)];
                if (face.kind == OpenKind::inlet) terms.resize(rows * Lattice::q);
                for (int i = 0; i < Lattice::q; ++i)
                  if (Lattice::c(i, 0) == in && face.kind == OpenKind::inlet)
                    terms[row * Lattice::q + std::size_t(i)] = inlet_term(s, face, a, p, i, e);
                m_lane_x[std::size_t(side)] = x;
                continue;
              }
              const int first = int(links.size());
              for (int i = 0; i < Lattice::q; ++i) {
                if (Lattice::c(i, a) != in) continue;
                int g[3];  // the halo site it pulls from (solid: a wall corner owns it)
                bool late = false;
                for (int b = 0; b < 3; ++b) {
                  g[b] = p[b] - Lattice::c(i, b);
                  if (b != a && (g[b] < e.halo[b] || g[b] >= e.halo[b] + e.n[b]))
                    late = late || s.late[b][g[b] < e.halo[b] ? 0 : 1];
                }
                const index_t from = site(g[0], g[1], g[2]);
                if (material(from) != kFluid) continue;
                links.push_back({from, i, late,
                                 face.kind == OpenKind::inlet ? inlet_term(s, face, a, p, i, e)
                                                              : face.density});
              }
              if (int(links.size()) > first)
                sites.push_back({site(x, y, z), 2 * a + side, first, int(links.size()) - first,
                                 face.kind, solid});
            }
      }
    m_sites =
        Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(sites, "kolb::open_sites"));
    m_links =
        Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(links, "kolb::open_links"));
    m_values = decltype(m_values)("kolb::open_values", links.size());
    for (int k = 0; k < Lattice::q; ++k)
      m_offset[k] = site(Lattice::c(k, 0), Lattice::c(k, 1), Lattice::c(k, 2)) - site(0, 0, 0);
    for (int a = 0; a < 3; ++a) m_g[a] = real_t<S>(s.g[a]);
    for (int k = 0; k < Lattice::q; ++k)
      for (int a = 0; a < 3; ++a) m_c[3 * k + a] = real_t<S>(Lattice::c(k, a));
    for (int f = 0; f < 6; ++f) m_faces[f] = s.face[f / 2][f % 2];
    m_ny = e.ext(1);
  }

  // Fills the lanes' stash from the state the next step reads, its f* held
  // as `state`: where the rows did not write it the step before (the first
  // step, populations set from outside).
  template <class Block>
  void fill_stash(const Block& b, PostState state) const {
    if (!has_lanes()) return;  // (lanes: host parts only)
    const OpenLanes<Lattice, S> l = lanes(0);
    for (int side = 0; side < 2; ++side)
      for (const auto& [s, row] : m_lane_sites[std::size_t(side)])
        l.keep(l.stash[side] + row * Lattice::q, s, state, b.current(), b.layout());
  }
  bool has_lanes() const { return !m_lane_sites[0].empty() || !m_lane_sites[1].empty(); }

  // What the rows' end lanes on open x faces take at step `step`.
  OpenLanes<Lattice, S> lanes(std::int64_t step) const {
    OpenLanes<Lattice, S> l;
    for (int side = 0; side < 2; ++side) {
      const OpenFace& face = m_faces[std::size_t(side)];
      l.kind[side] = face.kind;
      l.density[side] = real_t<S>(face.density);
      l.inflow[side] = face.inflow_factor(step);
      l.term[side] = m_lane_terms[std::size_t(side)].data();
      l.stash[side] = m_lane_stash[std::size_t(side)].data();
      l.lane[side] = m_lane_rows[std::size_t(side)].data();
      if (m_lane_sites[std::size_t(side)].empty()) l.kind[side] = OpenKind::none;
    }
    l.ny = m_ny, l.g = m_g, l.c = m_c;
    l.x = m_lane_x, l.offset = m_offset;
    return l;
  }

  // Before a pull, from the state it pulls from (in place: `swapped`): the
  // value of every link for step `step` (0: the first); `direct`: straight
  // into the halo slots the pull reads, else kept until write() puts them
  // there.
  template <class Launch, class Block>
  void before_pull(const Launch& launch, const Block& b, bool swapped, std::int64_t step,
                   bool direct) const {
    if (swapped)
      values<PostState::swapped>(launch, b, step, direct);
    else
      values<PostState::stored>(launch, b, step, direct);
  }
  // Writes the kept values of the early and/or the late links.
  template <class Launch, class Block>
  void write(const Launch& launch, const Block& b, bool swapped, bool early, bool late) const {
    if (m_links.extent(0) > 0 && (early || late))
      launch("kolb::OpenLinkWrite", index_t(m_links.extent(0)),
             OpenLinkWrite<Lattice, S, Layout, MemorySpace>{b.current(), b.layout(), m_links,
                                                            m_values, early, late, swapped});
  }
  // In place, after the pull (and the wall ghosts' return): the values of
  // the links for the local step `step`, from the state the pull pushed,
  // into the slots the local step reads.
  template <class Launch, class Block>
  void after_pull(const Launch& launch, const Block& b, std::int64_t step) const {
    values<PostState::pushed>(launch, b, step, false);
  }

 private:
  // 2 w_i c_i·u_w / c_s² for link i into site p (local) across face (a, face):
  // u_w where the link crosses the face, half a site back along c_i.
  static double inlet_term(const OpenFaceSetup& s, const OpenFace& face, int a, const int* p, int i,
                           const Extents& e) {
    if (face.velocity_at) {
      std::array<double, 3> at{0, 0, 0};
      for (int b = 0; b < Lattice::dim; ++b)
        at[std::size_t(b)] = s.origin[b] + (p[b] - e.halo[b]) - 0.5 * Lattice::c(i, b) + 0.5;
      return wall_term<Lattice>(i, face.velocity_at(at));
    }
    double scale = 1;
    for (int b = 0; face.parabolic && b < Lattice::dim; ++b) {
      if (b == a || !s.walled[b]) continue;
      const double at = s.origin[b] + (p[b] - e.halo[b]) - 0.5 * Lattice::c(i, b) + 0.5;
      const double r = at / s.size[b];
      scale *= 4 * r * (1 - r);
    }
    const auto& v = face.velocity;
    return wall_term<Lattice>(i, {v[0] * scale, v[1] * scale, v[2] * scale});
  }

  template <PostState State, class Launch, class Block>
  void values(const Launch& launch, const Block& b, std::int64_t step, bool direct) const {
    if (m_sites.extent(0) == 0) return;
    Kokkos::Array<double, 6> inflow;
    for (int f = 0; f < 6; ++f) inflow[f] = m_faces[std::size_t(f)].inflow_factor(step);
    launch("kolb::OpenSiteValues", index_t(m_sites.extent(0)),
           OpenSiteValues<Lattice, S, Layout, MemorySpace, State>{b.current(), b.layout(), m_offset,
                                                                  m_sites, m_links, m_values, m_g,
                                                                  m_c, inflow, direct});
  }

  Kokkos::View<OpenSite*, MemorySpace> m_sites;
  Kokkos::View<OpenLink*, MemorySpace> m_links;
  Kokkos::View<stored_t<S>*, MemorySpace> m_values;
  Kokkos::Array<index_t, Lattice::q> m_offset{};
  Kokkos::Array<real_t<S>, 3> m_g{};
  Kokkos::Array<real_t<S>, 3 * Lattice::q> m_c{};
  std::array<OpenFace, 6> m_faces{};  // [2 axis + side], for the inflow's time dependence
  std::array<std::vector<double>, 2> m_lane_terms;  // the x inlets' terms the lanes take
  mutable std::array<std::vector<stored_t<S>>, 2> m_lane_stash;     // OpenLanes::stash
  std::array<std::vector<std::array<index_t, 2>>, 2> m_lane_sites;  // (site, row) of the lanes
  Kokkos::Array<int, 2> m_lane_x{-1, -1};                           // the lane sites' x
  std::array<std::vector<std::uint8_t>, 2> m_lane_rows;             // OpenLanes::lane
  index_t m_ny = 1;
};

}  // namespace kolb
