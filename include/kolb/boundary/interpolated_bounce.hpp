#pragma once
// Interpolated bounce-back off curved obstacle walls (Bouzidi, Firdaouss &
// Lallemand 2001, linear form): an obstacle's surface lies where the shape
// puts it, not half-way between sites. For a fluid site x whose upstream
// neighbour x - c_i is solid, the wall cuts the link at x - q c_i,
// q in (0, 1], and the incoming population is
//   q < 1/2:  f_i(x) = 2q f*_ī(x) + (1 - 2q) f*_ī(x + c_i)
//   q >= 1/2: f_i(x) = [f*_ī(x) + (2q - 1) f*_i(x)] / (2q)
// (ī = opposite(i); q = 1/2 is the half-way bounce). Second order for any
// q, where the staircase's wall position is off by up to half a site.
//
// The pull already bounces: at such a link it reads f*_ī(x) from x's own
// slot. So a pass before each pull writes the interpolated value into that
// slot, and every pull path (bulk, general, device, both schemes) reads
// it unchanged. Nothing else reads that slot during the step: it is the
// population x sends into the solid. Nor do the three values read overlap
// another link's target, given x + c_i is fluid (links where it is not,
// or where it lies outside the lattice, keep the half-way bounce). In
// place the same values are read from where each step leaves them
// (PostState) and the same arithmetic gives the two buffers' bits.
// In place before the local step, f*_i(x) is read where x's pull pushed it
// (a halo site keeps it: what moves it on copies it), f*_ī(x + c_i) in x's
// own slot, where the exchanges after the pull put it.
// A link whose x + c_i lies in the halo of a late face is late: written
// once that halo (two buffers: its f*; in place: the neighbour's pushes)
// has arrived, before the border sites pull.

#include <kolb/block/block.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/boundary/post_state.hpp>
#include <kolb/core/allocate.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace kolb {

// The interpolated population as weights: f_i(x) = out f*_ī(x) + other
// f*_ī(x + c_i) (q < 1/2, `ahead`) or + other f*_i(x) (q >= 1/2).
struct BouzidiWeights {
  double out, other;
  bool ahead;
};
inline BouzidiWeights bouzidi_weights(double q) {
  if (q < 0.5) return {2 * q, 1 - 2 * q, true};
  return {1 / (2 * q), (2 * q - 1) / (2 * q), false};
}

// One link into a curved wall: the fluid site x, its fluid neighbour
// x + c_i (across a face periodic onto the part: the site one period away)
// and the site x's pull pushed f*_i into (there: the halo site), the
// weights and the incoming population i.
struct CurvedLink {
  index_t site, ahead, pushed;
  BouzidiWeights w;
  std::uint8_t i;
  bool late;
};

// The interpolated value of each early and/or late link, from the state
// `State`, into the slot the next step reads as the bounced population.
template <class Lattice, class S, class Layout, class MemorySpace, PostState State>
struct InterpolatedBounce {
  using R = real_t<S>;
  using P = Storage<S>;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const CurvedLink*, MemorySpace> m_links;
  bool m_early, m_late;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    const CurvedLink l = m_links(j);
    if (!(l.late ? m_late : m_early)) return;
    const int i = l.i, o = Lattice::opposite(i);
    // f*_ī(x) (and the target), f*_ī(x + c_i), f*_i(x).
    index_t out_site = l.site, ahead_site = l.ahead, in_site = l.site;
    int out_slot = o, ahead_slot = o, in_slot = i;
    if constexpr (State == PostState::swapped) {
      out_slot = i, ahead_slot = i, in_slot = o;
    } else if constexpr (State == PostState::pushed) {
      // f*_ī(x) bounced home into x's slot i; x + c_i pushed f*_ī into x's
      // slot ī; x pushed f*_i into slot i of x + c_i.
      out_slot = i, ahead_site = l.site, in_site = l.pushed;
    }
    stored_t<S>& target = m_f(m_layout(out_site, out_slot));
    const R other = l.w.ahead ? P::template load<Lattice>(m_f(m_layout(ahead_site, ahead_slot)), o)
                              : P::template load<Lattice>(m_f(m_layout(in_site, in_slot)), i);
    const R value = R(l.w.out) * P::template load<Lattice>(target, o) + R(l.w.other) * other;
    target = P::template store<Lattice>(value, o);
  }
};

// The links of the interior fluid sites of a part with extents `e`, first
// site at `origin` in the lattice, late faces `late`, axes periodic onto
// itself `wraps` (x + c_i across them is the site one period away: no
// pass fills those halos when the rows wrap by themselves). `fraction(p,
// i)`: for the fluid site at lattice coordinates p, q of its link with
// incoming population i, or 0 where that link bounces half-way.
template <class Lattice, class Fraction>
std::vector<CurvedLink> curved_links(const Extents& e, const std::array<int, 3>& origin,
                                     const std::array<std::array<bool, 2>, 3>& late,
                                     const std::array<bool, 3>& wraps, const Fraction& fraction) {
  std::vector<CurvedLink> links;
  const SiteIndex site = e.site_index();
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x) {
        const int p[3] = {x, y, z};
        const int g[3] = {origin[0] + x, origin[1] + y, origin[2] + z};
        for (int i = 0; i < Lattice::q; ++i) {
          const double q = fraction(g, i);
          if (q <= 0) continue;
          int a[3], h[3];  // x + c_i, local: wrapped, as pushed
          bool in_late = false;
          for (int b = 0; b < 3; ++b) {
            a[b] = h[b] = p[b] + Lattice::c(i, b);
            if (a[b] >= 0 && a[b] < e.n[b]) continue;
            if (wraps[b])
              a[b] = (a[b] + e.n[b]) % e.n[b];
            else
              in_late = in_late || late[b][a[b] < 0 ? 0 : 1];
          }
          links.push_back({site(x + e.halo[0], y + e.halo[1], z + e.halo[2]),
                           site(a[0] + e.halo[0], a[1] + e.halo[1], a[2] + e.halo[2]),
                           site(h[0] + e.halo[0], h[1] + e.halo[1], h[2] + e.halo[2]),
                           bouzidi_weights(q), std::uint8_t(i), in_late});
        }
      }
  return links;
}

// A part's links into curved walls, on its memory space.
template <class Lattice, class S, class Layout, class MemorySpace>
class InterpolatedWalls {
 public:
  InterpolatedWalls() = default;
  explicit InterpolatedWalls(const std::vector<CurvedLink>& links)
      : m_links(Kokkos::create_mirror_view_and_copy(MemorySpace(),
                                                    host_view_of(links, "kolb::curved_links"))) {}

  // Whether the part has no such links (nothing to do before its steps).
  bool empty() const { return m_links.extent(0) == 0; }

  // Before a step reads them, the early and/or the late links' values,
  // from the state `state` of the block; through the part's `launch(label,
  // n, functor)`.
  template <class Launch, class Block>
  void apply(const Launch& launch, const Block& b, PostState state, bool early, bool late) const {
    if (empty() || !(early || late)) return;
    if (state == PostState::stored)
      run<PostState::stored>(launch, b, early, late);
    else if (state == PostState::swapped)
      run<PostState::swapped>(launch, b, early, late);
    else
      run<PostState::pushed>(launch, b, early, late);
  }

 private:
  template <PostState State, class Launch, class Block>
  void run(const Launch& launch, const Block& b, bool early, bool late) const {
    launch("kolb::InterpolatedBounce", index_t(m_links.extent(0)),
           InterpolatedBounce<Lattice, S, Layout, MemorySpace, State>{b.current(), b.layout(),
                                                                      m_links, early, late});
  }

  Kokkos::View<CurvedLink*, MemorySpace> m_links;
};

}  // namespace kolb
