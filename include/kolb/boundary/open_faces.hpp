#pragma once
// Open faces: velocity inlets and pressure outlets. Like kolb's walls they
// lie half-way, half a site outside the last fluid site. Before each pull,
// a pass writes into every halo slot of an open face that a fluid site
// pulls from the value the face's condition gives that link. The pull
// (bulk rows, general sites, fused lines) then reads it as it reads any
// halo. The pass runs after every other fill, so it also writes the halo
// edges an open face shares with periodic, neighbour or remote faces (the
// edges it shares with walls are solid: the wall owns them).
//  - velocity inlet: velocity bounce-back (Ladd 1994), the moving wall's
//    term with the inlet velocity u_w where the link crosses the face:
//    f_i(x) = f*_ī(x) + 2 w_i ρ₀ (c_i·u_w) / c_s², ρ₀ = 1. The mass flux in
//    is then ρ₀ u_w·n per face site, exactly.
//  - pressure outlet: anti-bounce-back (Ginzburg, Verhaeghe & d'Humières
//    2008; Izquierdo & Fueyo 2008):
//    f_i(x) = −f*_ī(x) + 2 w_i ρ_w [1 + (c_i·u)² / (2 c_s⁴) − u² / (2 c_s²)],
//    u the velocity of the site x next to the face. Extrapolating u to the
//    face would need the site behind x, which another part or rank may hold.
// f* is the post-collision state the pull reads; with Guo forcing its
// momentum is ρu + F/2, so the outlet takes u = Σ c f* / ρ − g/2.
// Two-buffer streaming only, for now (StepPlan refuses in place).

#include <kolb/block/block.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/core/allocate.hpp>
#include <kolb/kernels/device_launch.hpp>

#include <array>
#include <vector>

namespace kolb {

// What one face of the lattice does, as the open-face pass needs it.
struct OpenFace {
  bool open = false;
  bool outlet = false;                      // else a velocity inlet
  std::array<double, 3> velocity{0, 0, 0};  // inlet: everywhere, or at the centre if parabolic
  bool parabolic = false;                   // times 4 s (1 - s) across each walled axis
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

// One link across an open face: the halo slot a fluid site pulls from, the
// site, its population and the inlet's term (2 w_i c_i·u_w / c_s²) or the
// outlet's density.
struct OpenLink {
  index_t slot, site;
  int i;
  bool outlet;
  double value;
};

// The pass: one work item per link, on the buffer the next pull reads.
template <class Lattice, class S, class Layout, class MemorySpace>
struct OpenFacePass {
  using R = real_t<S>;
  static constexpr int Q = Lattice::q;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const OpenLink*, MemorySpace> m_links;
  Kokkos::Array<R, 3> m_g;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const OpenLink l = m_links(j);
    const int i = l.i, o = Lattice::opposite(i);
    stored_t<S>* const f = m_f.data();
    const stored_t<S> back = f[m_layout(l.site, o)];
    if (!l.outlet) {
      f[l.slot] = Storage<S>::template bounce<Lattice>(back, R(l.value), i);
      return;
    }
    R rho = 0, m[3] = {0, 0, 0};
    for (int k = 0; k < Q; ++k) {
      const R v = Storage<S>::template load<Lattice>(f[m_layout(l.site, k)], k);
      rho += v;
      for (int a = 0; a < Lattice::dim; ++a) m[a] += R(Lattice::c(k, a)) * v;
    }
    R cu = 0, uu = 0;
    for (int a = 0; a < Lattice::dim; ++a) {
      const R u = m[a] / rho - R(0.5) * m_g[a];
      cu += R(Lattice::c(i, a)) * u;
      uu += u * u;
    }
    const R cs2 = R(Lattice::cs2());
    const R eq = R(2 * Lattice::w(i)) * R(l.value) *
                 (R(1) + cu * cu / (R(2) * cs2 * cs2) - uu / (R(2) * cs2));
    f[l.slot] =
        Storage<S>::template store<Lattice>(eq - Storage<S>::template load<Lattice>(back, o), i);
  }
};

// A part's links across open faces, on its memory space: the early ones
// before the update, all of them again before the sites next to late
// faces update: the late ones lie in those faces' halos, and a schedule may
// fill other halos again over the edges once those arrive
// (Distributed::step_lone refills the periodic ones).
template <class Lattice, class S, class Layout, class MemorySpace>
class OpenFaces {
 public:
  OpenFaces() = default;

  // The links of a part with extents `e` and materials `material`.
  OpenFaces(const OpenFaceSetup& s,
            const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
            const Layout& layout) {
    std::vector<OpenLink> early, late;
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
                    .push_back({layout(site(x, y, z), i), to, i, face.outlet,
                                face.outlet ? face.density : inlet_term(s, face, a, p, i, e)});
              }
            }
      }
    m_early =
        Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(early, "kolb::open_links"));
    m_late =
        Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(late, "kolb::open_links"));
    for (int a = 0; a < 3; ++a) m_g[a] = real_t<S>(s.g[a]);
  }

  // Writes the early links (and with `late`, the late ones too) into `f`,
  // the buffer the next pull reads.
  template <class Exec>
  void fill(const Exec& exec, const Kokkos::View<stored_t<S>*, MemorySpace>& f,
            const Layout& layout, bool late) const {
    for (const auto& links : {m_early, m_late}) {
      if (links.extent(0) > 0)
        for_each_index("kolb::OpenFaces", exec, index_t(links.extent(0)),
                       OpenFacePass<Lattice, S, Layout, MemorySpace>{f, layout, links, m_g});
      if (!late) return;
    }
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
    double cu = 0;
    for (int b = 0; b < Lattice::dim; ++b) cu += Lattice::c(i, b) * face.velocity[b] * scale;
    return 2 * Lattice::w(i) * cu / Lattice::cs2();
  }

  Kokkos::View<OpenLink*, MemorySpace> m_early, m_late;
  Kokkos::Array<real_t<S>, 3> m_g{};
};

}  // namespace kolb
