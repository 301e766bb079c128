#pragma once
// Open faces: velocity inlets and pressure outlets. Like kolb's walls they
// lie half-way, half a site outside the last fluid site. Before each pull,
// a pass writes into every halo slot of an open face that a fluid site
// pulls from the value the face's condition gives that link. The pull
// (bulk rows, general sites, fused lines) then reads it as it reads any
// halo. It runs after the fills of the other halos it shares edges with
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
// f* is the post-collision state the pull reads; with Guo forcing its
// momentum is ρu + F/2, so the outlet takes u = Σ c f* / ρ − g/2.
// In place (AA) the values go where each step reads them: before the pull
// into the halo slots it pulls from, after it into the sites' own slots the
// local step reads (OpenState). The values are computed from the same
// stored bits with the same operations either way, so both schemes agree
// bit for bit.

#include <kolb/block/block.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/core/allocate.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace kolb {

// What one face of the lattice does, as the open-face pass needs it.
struct OpenFace {
  bool open = false;
  bool outlet = false;                      // else a velocity inlet
  std::array<double, 3> velocity{0, 0, 0};  // inlet: everywhere, or at the centre if parabolic
  bool parabolic = false;                   // times 4 s (1 - s) across each walled axis
  std::int64_t ramp_steps = 0;              // inlet: from 0 to full over these steps
  double density = 1;                       // outlet
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

// One link across an open face: the halo site g a fluid site x = g + c_i
// pulls population i from, and the inlet's term (2 w_i c_i·u_w / c_s²), or
// the outlet's density and the index of x among the outlet sites.
struct OpenLink {
  index_t ghost, site;
  int i, face;      // face: 2 axis + side
  int outlet = -1;  // outlets: x's entry in the moments
  double value;
};

// Where a pass finds the post-collision populations f*_k of a site x.
enum class OpenState : std::uint8_t {
  stored,   // two buffers: in x's slot k
  swapped,  // in place, before the pull: in x's slot opposite(k)
  pushed    // in place, after the pull: in slot k of x + c_k (x's own slot
            // opposite(k) where x + c_k is solid: the pull bounced it there)
};

// The post-collision populations of a buffer in state m_state.
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenPopulations {
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Kokkos::Array<index_t, Lattice::q> m_offset;  // site x + c_k = x + m_offset[k]
  OpenState m_state;

  // The stored f*_k of site x.
  KOKKOS_INLINE_FUNCTION stored_t<S> post(index_t x, int k) const {
    const int o = Lattice::opposite(k);
    if (m_state == OpenState::stored) return m_f(m_layout(x, k));
    if (m_state == OpenState::swapped) return m_f(m_layout(x, o));
    const index_t n = x + m_offset[k];
    return m_material(n) == kFluid ? m_f(m_layout(n, k)) : m_f(m_layout(x, o));
  }
};

// The velocity of each outlet site from its post-collision populations
// (once per site, not per link: on an x face each site's Q populations lie
// on Q cache lines).
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenSiteVelocity {
  using R = real_t<S>;
  OpenPopulations<Lattice, S, Layout, MemorySpace> m_in;
  Kokkos::View<const index_t*, MemorySpace> m_sites;
  Kokkos::View<R* [3], MemorySpace> m_u;
  Kokkos::Array<R, 3> m_g;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    R rho = 0, m[3] = {0, 0, 0};
    for (int k = 0; k < Lattice::q; ++k) {
      const R v = Storage<S>::template load<Lattice>(m_in.post(m_sites(j), k), k);
      rho += v;
      for (int a = 0; a < Lattice::dim; ++a) m[a] += R(Lattice::c(k, a)) * v;
    }
    for (int a = 0; a < 3; ++a) m_u(j, a) = a < Lattice::dim ? m[a] / rho - R(0.5) * m_g[a] : R(0);
  }
};

// The value of each link from the state of the buffer: into m_values
// (stored, swapped), or (pushed) straight into x's slot i, where the
// in-place local step reads it.
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenLinkValues {
  using R = real_t<S>;
  using P = Storage<S>;
  OpenPopulations<Lattice, S, Layout, MemorySpace> m_in;
  Kokkos::View<const OpenLink*, MemorySpace> m_links;
  Kokkos::View<stored_t<S>*, MemorySpace> m_values;
  Kokkos::View<const R* [3], MemorySpace> m_u;  // the outlet sites' velocities
  Kokkos::Array<double, 6> m_ramp;              // each face's inlet velocity now, of the full one

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const OpenLink l = m_links(j);
    const int i = l.i, o = Lattice::opposite(i);
    const stored_t<S> back = m_in.post(l.site, o);
    stored_t<S> value;
    if (l.outlet < 0) {
      value = P::template bounce<Lattice>(back, R(l.value * m_ramp[l.face]), i);
    } else {
      R cu = 0, uu = 0;
      for (int a = 0; a < Lattice::dim; ++a) {
        const R u = m_u(l.outlet, a);
        cu += R(Lattice::c(i, a)) * u;
        uu += u * u;
      }
      const R cs2 = R(Lattice::cs2());
      const R eq = R(2 * Lattice::w(i)) * R(l.value) *
                   (R(1) + cu * cu / (R(2) * cs2 * cs2) - uu / (R(2) * cs2));
      value = P::template store<Lattice>(eq - P::template load<Lattice>(back, o), i);
    }
    if (m_in.m_state == OpenState::pushed)
      m_in.m_f(m_in.m_layout(l.site, i)) = value;
    else
      m_values(j) = value;
  }
};

// Writes links m_first, m_first + 1, ... of m_values into the halo slots
// the next pull reads: g's slot i, or in place (swapped) g's slot opposite(i).
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenLinkWrite {
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const OpenLink*, MemorySpace> m_links;
  Kokkos::View<const stored_t<S>*, MemorySpace> m_values;
  index_t m_first;
  bool m_swapped;

  KOKKOS_INLINE_FUNCTION void operator()(index_t k) const {
    const index_t j = m_first + k;
    const OpenLink l = m_links(j);
    m_f(m_layout(l.ghost, m_swapped ? Lattice::opposite(l.i) : l.i)) = m_values(j);
  }
};

// A part's links across open faces, on its memory space, early ones first:
// the late ones lie in the halos of late faces and are written once those
// arrive. Its passes go through the part's `launch(label, n, functor)`
// (f(j) for j < n on the part's execution space).
template <class Lattice, class S, class Layout, class MemorySpace>
class OpenFaces {
 public:
  OpenFaces() = default;

  // The links of a part with extents `e` and materials `material`.
  OpenFaces(const OpenFaceSetup& s,
            const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e) {
    std::vector<OpenLink> early, late;
    std::vector<index_t> outlets;  // the outlet sites, each once
    std::map<index_t, int> outlet_index;
    const auto outlet_of = [&](index_t x) {
      const auto [it, added] = outlet_index.emplace(x, int(outlets.size()));
      if (added) outlets.push_back(x);
      return it->second;
    };
    const SiteIndex site = e.site_index();
    for (int a = 0; a < Lattice::dim; ++a)
      for (int side = 0; side < 2; ++side) {
        const OpenFace& face = s.face[a][side];
        if (!face.open) continue;
        const int in = side == 0 ? 1 : -1;  // c_i along a of the links into the part
        int lo[3], hi[3];                   // the halo layer of the face, edges included
        for (int b = 0; b < 3; ++b) lo[b] = 0, hi[b] = e.ext(b);
        lo[a] = side == 0 ? e.halo[a] - 1 : e.halo[a] + e.n[a];
        hi[a] = lo[a] + 1;
        for (int z = lo[2]; z < hi[2]; ++z)
          for (int y = lo[1]; y < hi[1]; ++y)
            for (int x = lo[0]; x < hi[0]; ++x) {
              const int g[3] = {x, y, z};
              if (material(site(x, y, z)) != kFluid) continue;
              bool is_late = false;
              for (int b = 0; b < 3; ++b)
                if (b != a && (g[b] < e.halo[b] || g[b] >= e.halo[b] + e.n[b]))
                  is_late = is_late || s.late[b][g[b] < e.halo[b] ? 0 : 1];
              for (int i = 0; i < Lattice::q; ++i) {
                if (Lattice::c(i, a) != in) continue;
                int p[3];
                bool interior = true;
                for (int b = 0; b < 3; ++b) {
                  p[b] = g[b] + Lattice::c(i, b);
                  interior = interior && p[b] >= e.halo[b] && p[b] < e.halo[b] + e.n[b];
                }
                const index_t to = site(p[0], p[1], p[2]);
                if (!interior || material(to) != kFluid) continue;
                (is_late ? late : early)
                    .push_back({site(x, y, z), to, i, 2 * a + side,
                                face.outlet ? outlet_of(to) : -1,
                                face.outlet ? face.density : inlet_term(s, face, a, p, i, e)});
              }
            }
      }
    m_outlets = Kokkos::create_mirror_view_and_copy(MemorySpace(),
                                                    host_view_of(outlets, "kolb::outlet_sites"));
    m_u = decltype(m_u)("kolb::outlet_velocity", outlets.size());
    m_early = index_t(early.size());
    early.insert(early.end(), late.begin(), late.end());
    m_links =
        Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(early, "kolb::open_links"));
    m_values = decltype(m_values)("kolb::open_values", early.size());
    for (int k = 0; k < Lattice::q; ++k)
      m_offset[k] = site(Lattice::c(k, 0), Lattice::c(k, 1), Lattice::c(k, 2)) - site(0, 0, 0);
    for (int a = 0; a < 3; ++a) m_g[a] = real_t<S>(s.g[a]);
    for (int f = 0; f < 6; ++f) m_ramp_steps[f] = s.face[f / 2][f % 2].ramp_steps;
  }

  // Before a pull, from the state it pulls from (in place: `swapped`): the
  // value of every link for step `step` (0: the first), kept until write()
  // puts it where the pull reads it.
  template <class Launch, class Block>
  void before_pull(const Launch& launch, const Block& b, bool swapped, std::int64_t step) const {
    values(launch, b, swapped ? OpenState::swapped : OpenState::stored, step);
  }
  // Writes the values of the early and/or the late links.
  template <class Launch, class Block>
  void write(const Launch& launch, const Block& b, bool swapped, bool early, bool late) const {
    const index_t first = early ? 0 : m_early;
    const index_t end = late ? index_t(m_links.extent(0)) : m_early;
    if (end > first)
      launch("kolb::OpenLinkWrite", end - first,
             OpenLinkWrite<Lattice, S, Layout, MemorySpace>{b.current(), b.layout(), m_links,
                                                            m_values, first, swapped});
  }
  // In place, after the pull (and the wall ghosts' return): the values of
  // the links for the local step `step`, from the state the pull pushed,
  // into the slots the local step reads.
  template <class Launch, class Block>
  void after_pull(const Launch& launch, const Block& b, std::int64_t step) const {
    values(launch, b, OpenState::pushed, step);
  }

 private:
  // 2 w_i c_i·u_w / c_s² for link i into site p (local) across face (a, face):
  // u_w where the link crosses the face, half a site back along c_i.
  static double inlet_term(const OpenFaceSetup& s, const OpenFace& face, int a, const int* p, int i,
                           const Extents& e) {
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

  template <class Launch, class Block>
  void values(const Launch& launch, const Block& b, OpenState state, std::int64_t step) const {
    if (m_links.extent(0) == 0) return;
    // The ramp: a half cosine from 0 at step 0 to 1 at ramp_steps (on the
    // host, so that every space takes the same bits).
    Kokkos::Array<double, 6> ramp;
    for (int f = 0; f < 6; ++f) {
      const std::int64_t n = m_ramp_steps[f];
      ramp[f] = step >= n ? 1.0 : 0.5 * (1 - std::cos(3.14159265358979323846 * double(step) / n));
    }
    const OpenPopulations<Lattice, S, Layout, MemorySpace> in{b.current(), b.layout(), b.material(),
                                                              m_offset, state};
    if (m_outlets.extent(0) > 0)
      launch("kolb::OpenSiteVelocity", index_t(m_outlets.extent(0)),
             OpenSiteVelocity<Lattice, S, Layout, MemorySpace>{in, m_outlets, m_u, m_g});
    launch("kolb::OpenLinkValues", index_t(m_links.extent(0)),
           OpenLinkValues<Lattice, S, Layout, MemorySpace>{in, m_links, m_values, m_u, ramp});
  }

  Kokkos::View<OpenLink*, MemorySpace> m_links;
  index_t m_early = 0;  // links [0, m_early) are early
  Kokkos::View<stored_t<S>*, MemorySpace> m_values;
  Kokkos::View<index_t*, MemorySpace> m_outlets;  // the outlet sites
  Kokkos::View<real_t<S>* [3], MemorySpace> m_u;  // their velocities
  Kokkos::Array<index_t, Lattice::q> m_offset{};
  Kokkos::Array<real_t<S>, 3> m_g{};
  std::array<std::int64_t, 6> m_ramp_steps{};
};

}  // namespace kolb
