#pragma once
// Forces on bodies by momentum exchange (Ladd 1994; Mei, Yu, Shyy & Luo
// 2002). A link from a fluid site x into a site of a resting body carries
// c_i f*_i(x) towards it and the population coming back, f_ī(x), away: the
// body takes c_i [f*_i(x) + f_ī(x)] per step. Bounced back half-way,
// f_ī(x) = f*_i(x): 2 c_i f*_i(x). Interpolated (boundary/
// interpolated_bounce.hpp), f_ī(x) is a weighted sum of post-collision
// populations of x and of x - c_i, so each link is a sum of terms
// w c_k f*_k(y), and each term is listed by the part holding its site y:
// parts and ranks add up to the whole, read from the post-collision state
// f* as any step leaves it. It is the force the fluid exerts on the body
// during the next streaming.

#include <kolb/block/extents.hpp>
#include <kolb/block/storage.hpp>
#include <kolb/boundary/interpolated_bounce.hpp>
#include <kolb/boundary/post_state.hpp>
#include <kolb/core/allocate.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/lattice/slot.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace kolb {

// A force, in lattice units, summed in double whatever the storage.
struct BodyForce {
  double f[3] = {0, 0, 0};
  KOKKOS_INLINE_FUNCTION void add(const BodyForce& o) {
    for (int a = 0; a < 3; ++a) f[a] += o.f[a];
  }
};

// A part's terms of the momentum exchange: w c_k f*_k(y) for site y,
// population k and weight w; `to`: y + c_k where that is fluid, else -1
// (in place after a pull, f*_k(y) lies there: a halo site keeps what the
// pull pushed into it). Body b's terms are
// [first[b], first[b + 1]).
template <class MemorySpace>
struct BodyLinks {
  Kokkos::View<const index_t*, MemorySpace> site, to;
  Kokkos::View<const std::uint8_t*, MemorySpace> dir;
  Kokkos::View<const double*, MemorySpace> weight;
  std::vector<index_t> first{0};

  int bodies() const { return int(first.size()) - 1; }
};

// The terms of the interior sites of extents `e` (a part whose first site
// is at `origin` in the lattice). `body(p)` and `fluid(p)` take lattice
// coordinates p, halos included (-1 ... n): the obstacle number + 1 of a
// site or 0, and whether it is fluid; `fraction(p, i)` as for
// curved_links (0: half-way), for p up to a site beyond the halo.
template <class Lattice, class MemorySpace, class BodyOf, class FluidAt, class Fraction>
BodyLinks<MemorySpace> body_links(const Extents& e, const std::array<int, 3>& origin, int bodies,
                                  const BodyOf& body, const FluidAt& fluid,
                                  const Fraction& fraction) {
  BodyLinks<MemorySpace> links;
  if (bodies == 0) return links;
  struct Term {
    index_t site, to;
    std::uint8_t dir;
    double weight;
  };
  std::vector<std::vector<Term>> terms(static_cast<std::size_t>(bodies));
  const SiteIndex site = e.site_index();
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x) {
        const int g[3] = {origin[0] + x, origin[1] + y, origin[2] + z};
        if (!fluid(g)) continue;
        const index_t here = site(x + e.halo[0], y + e.halo[1], z + e.halo[2]);
        const auto along = [&](int k) {  // here + c_k, local: where a pull pushes f*_k
          return site(x + e.halo[0] + Lattice::c(k, 0), y + e.halo[1] + Lattice::c(k, 1),
                      z + e.halo[2] + Lattice::c(k, 2));
        };
        for (int i = 0; i < Lattice::q; ++i) {
          const int o = Lattice::opposite(i);
          const int n1[3] = {g[0] + Lattice::c(i, 0), g[1] + Lattice::c(i, 1),
                             g[2] + Lattice::c(i, 2)};
          // A link of this site into body b: c_i [f*_i + w_out f*_i + w_other f*_ī]
          // (q >= 1/2; c_i w_other f*_ī is -c_ī w_other f*_ī).
          if (const int b = body(n1); b != 0) {
            auto& t = terms[std::size_t(b - 1)];
            const double q = fraction(g, o);
            const BouzidiWeights w = q > 0 ? bouzidi_weights(q) : BouzidiWeights{1, 0, true};
            t.push_back({here, -1, std::uint8_t(i), 1 + w.out});
            if (!w.ahead) t.push_back({here, along(o), std::uint8_t(o), -w.other});
            continue;
          }
          // This site as the x + c_i of a link with q < 1/2 of the fluid
          // site here + c_i: its c_i w_other f*_i(here).
          if (!fluid(n1)) continue;
          const int n2[3] = {n1[0] + Lattice::c(i, 0), n1[1] + Lattice::c(i, 1),
                             n1[2] + Lattice::c(i, 2)};
          const int b = body(n2);
          if (b == 0) continue;
          const double q = fraction(n1, o);
          if (q <= 0) continue;
          const BouzidiWeights w = bouzidi_weights(q);
          if (w.ahead)
            terms[std::size_t(b - 1)].push_back({here, along(i), std::uint8_t(i), w.other});
        }
      }
  std::vector<index_t> all_sites, all_to;
  std::vector<std::uint8_t> all_dirs;
  std::vector<double> all_weights;
  for (auto& t : terms) {
    // By direction, then site: the loads walk each population's array
    // upwards (SoA), which the hardware prefetches.
    std::stable_sort(t.begin(), t.end(), [](const Term& l, const Term& r) {
      return l.dir != r.dir ? l.dir < r.dir : l.site < r.site;
    });
    for (const Term& k : t) {
      all_sites.push_back(k.site), all_to.push_back(k.to);
      all_dirs.push_back(k.dir), all_weights.push_back(k.weight);
    }
    links.first.push_back(index_t(all_sites.size()));
  }
  const auto copy = [](const auto& v, const char* label) {
    return Kokkos::create_mirror_view_and_copy(MemorySpace(), host_view_of(v, label));
  };
  links.site = copy(all_sites, "kolb::body_link_sites");
  links.to = copy(all_to, "kolb::body_link_to");
  links.dir = copy(all_dirs, "kolb::body_link_dirs");
  links.weight = copy(all_weights, "kolb::body_link_weights");
  return links;
}

// The momentum exchange summed over a range of terms, from populations
// `f` as the block holds them after any step (PostState): no copy is
// rebuilt. Where f*_k(y) of a half-way link's term lies in place (x's slot
// opposite(k) after either step) is what the inverse AAUnstream reads too.
template <class Lattice, class S, class Layout, class MemorySpace>
struct BodyForceSum {
  using value_type = BodyForce;
  using P = Storage<S>;

  Kokkos::View<const stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  // BodyLinks' views (not the host-side `first`: the functor goes to the device).
  Kokkos::View<const index_t*, MemorySpace> m_site, m_to;
  Kokkos::View<const std::uint8_t*, MemorySpace> m_dir;
  Kokkos::View<const double*, MemorySpace> m_weight;
  PostState m_state = PostState::stored;

  BodyForceSum(const Kokkos::View<const stored_t<S>*, MemorySpace>& f, const Layout& layout,
               const BodyLinks<MemorySpace>& links, PostState state)
      : m_f(f),
        m_layout(layout),
        m_site(links.site),
        m_to(links.to),
        m_dir(links.dir),
        m_weight(links.weight),
        m_state(state) {}

  // On the host, the term kAhead on asks for its line: the links are
  // scattered over the lattice, so each term's load is a miss of its own.
  static constexpr int kAhead = 16;

  // Where f*_k(y) of term j lies: its index in m_f and its slot.
  KOKKOS_INLINE_FUNCTION index_t at(index_t j) const {
    const int k = m_dir(j);
    const index_t to = m_to(j);
    if (m_state == PostState::stored) return m_layout(m_site(j), k);
    if (m_state == PostState::pushed && to >= 0) return m_layout(to, k);
    return m_layout(m_site(j), Lattice::opposite(k));
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t j, value_type& sum) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    const index_t next = j + kAhead;
    if (next < index_t(m_site.extent(0))) host::prefetch_read(&m_f(at(next)));
#endif
    const int k = m_dir(j);
    const double f = P::template load<Lattice>(m_f(at(j)), k);
    const double w = m_weight(j);
    for (int a = 0; a < Lattice::dim; ++a) sum.f[a] += w * Lattice::c(k, a) * f;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type(); }
  KOKKOS_INLINE_FUNCTION void join(value_type& a, const value_type& b) const { a.add(b); }
#if KOKKOS_VERSION < 30700
  // Kokkos < 3.7 only calls the volatile overload (else it silently sums).
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& a, const volatile value_type& b) const {
    const_cast<value_type&>(a).add(const_cast<const value_type&>(b));
  }
#endif
};

}  // namespace kolb
