#pragma once
// Forces on bodies by momentum exchange (Ladd 1994; Mei, Yu, Shyy & Luo
// 2002). A link from a fluid site x into a site of a resting body carries
// c_i f*_i(x) towards it and, bounced back half-way, carries c_i f*_i(x)
// away as -c_i f*_i(x): the body takes 2 c_i f*_i(x) per step. The sum over
// a body's links, read from the post-collision state f*, is the force the
// fluid exerts on it during the next streaming. Each link is listed by the
// part holding its fluid site, so parts and ranks add up to the whole.

#include <kolb/block/extents.hpp>
#include <kolb/block/storage.hpp>
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

// A part's links into bodies: the fluid site and the direction towards the
// body, those of body b at [first[b], first[b + 1]).
template <class MemorySpace>
struct BodyLinks {
  Kokkos::View<const index_t*, MemorySpace> site;
  Kokkos::View<const std::uint8_t*, MemorySpace> dir;
  std::vector<index_t> first{0};

  int bodies() const { return int(first.size()) - 1; }
};

// The links of the interior sites of extents `e` (a part whose first site
// is at `origin` in the lattice). `body(x, y, z)` and `fluid(x, y, z)` take
// lattice coordinates, halos included (-1 ... n): the obstacle number + 1
// of a site or 0, and whether it is fluid.
template <class Lattice, class MemorySpace, class BodyOf, class FluidAt>
BodyLinks<MemorySpace> body_links(const Extents& e, const std::array<int, 3>& origin, int bodies,
                                  const BodyOf& body, const FluidAt& fluid) {
  BodyLinks<MemorySpace> links;
  if (bodies == 0) return links;
  const auto count = static_cast<std::size_t>(bodies);
  std::vector<std::vector<index_t>> site(count);
  std::vector<std::vector<std::uint8_t>> dir(count);
  for (int z = 0; z < e.n[2]; ++z)
    for (int y = 0; y < e.n[1]; ++y)
      for (int x = 0; x < e.n[0]; ++x) {
        const int g[3] = {origin[0] + x, origin[1] + y, origin[2] + z};
        if (!fluid(g[0], g[1], g[2])) continue;
        for (int i = 0; i < Lattice::q; ++i) {
          const int b =
              body(g[0] + Lattice::c(i, 0), g[1] + Lattice::c(i, 1), g[2] + Lattice::c(i, 2));
          if (b == 0) continue;
          site[std::size_t(b - 1)].push_back(e.site(x, y, z));
          dir[std::size_t(b - 1)].push_back(std::uint8_t(i));
        }
      }
  std::vector<index_t> all_sites;
  std::vector<std::uint8_t> all_dirs;
  for (std::size_t b = 0; b < count; ++b) {
    // By direction, then site: the loads walk each population's array
    // upwards (SoA), which the hardware prefetches.
    std::vector<std::size_t> order(site[b].size());
    for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
    std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) {
      return dir[b][l] != dir[b][r] ? dir[b][l] < dir[b][r] : site[b][l] < site[b][r];
    });
    for (const std::size_t j : order)
      all_sites.push_back(site[b][j]), all_dirs.push_back(dir[b][j]);
    links.first.push_back(index_t(all_sites.size()));
  }
  links.site = Kokkos::create_mirror_view_and_copy(
      MemorySpace(), host_view_of(all_sites, "kolb::body_link_sites"));
  links.dir = Kokkos::create_mirror_view_and_copy(MemorySpace(),
                                                  host_view_of(all_dirs, "kolb::body_link_dirs"));
  return links;
}

// The momentum exchange summed over a range of links, from populations
// `f` as the block holds them after any step. Two buffers hold f*. In
// place, f*_i(x) of a link into a resting body sits in x's slot
// opposite(i) after either step of a pair: between pairs all populations
// are swapped, and after a pull the bounce-back left it there (the
// inverse AAUnstream reads it from there too). So no copy is rebuilt.
template <class Lattice, class S, class Layout, class MemorySpace>
struct BodyForceSum {
  using value_type = BodyForce;
  using P = Storage<S>;

  Kokkos::View<const stored_t<S>*, MemorySpace> m_f;
  Layout m_layout;
  Kokkos::View<const index_t*, MemorySpace> m_site;      // BodyLinks::site
  Kokkos::View<const std::uint8_t*, MemorySpace> m_dir;  // BodyLinks::dir
  bool m_in_place = false;

  // On the host, the link kAhead on asks for its line: the links are
  // scattered over the lattice, so each link's load is a miss of its own.
  static constexpr int kAhead = 16;

  KOKKOS_INLINE_FUNCTION int slot(index_t k) const {
    return stored_slot<Lattice>(m_dir(k), m_in_place);
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t k, value_type& sum) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    const index_t next = k + kAhead;
    if (next < index_t(m_site.extent(0)))
      host::prefetch_read(&m_f(m_layout(m_site(next), slot(next))));
#endif
    const int i = m_dir(k);
    const double f = P::template load<Lattice>(m_f(m_layout(m_site(k), slot(k))), slot(k));
    for (int a = 0; a < Lattice::dim; ++a) sum.f[a] += 2 * Lattice::c(i, a) * f;
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
