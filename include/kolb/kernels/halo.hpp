#pragma once
// Halo layers between neighbouring parts (or ranks), only the populations
// that cross: c_a > 0 into a low-side halo of axis a, c_a < 0 into a high
// one. HaloCopy reads an x neighbour in the same memory space; HaloPack packs
// a border into a buffer (or unpacks one into a halo) for neighbours
// elsewhere. Axes are exchanged in the block's fill order (Extents::
// fill_order: the split axis first, then x, y, z); a face of a later axis
// spans the halos of the earlier ones, which carries the edges and corners.

#include <kolb/core/static_for.hpp>
#include <kolb/kernels/policy.hpp>

namespace kolb {

// The slots of the populations that enter a part through its `side` face of
// `axis`: those a pull reads from that halo. With `swapped` (an AA buffer
// before its pull step, kernels/aa.hpp) the slots opposite them, where the
// AA pattern keeps those populations.
// The most populations crossing one face, over the lattice's axes.
template <class Lattice>
constexpr int most_crossing() {
  int most = 0;
  for (int a = 0; a < Lattice::dim; ++a) {
    int n = 0;
    for (int i = 0; i < Lattice::q; ++i) n += Lattice::c(i, a) > 0;
    most = n > most ? n : most;
  }
  return most;
}

template <class Lattice>
struct CrossingPopulations {
  static constexpr int max_count = most_crossing<Lattice>();
  Kokkos::Array<int, Lattice::q> index;
  int count = 0;
  CrossingPopulations(int axis, Side side, bool swapped = false) {
    for (int i = 0; i < Lattice::q; ++i) {
      const int ca = Lattice::c(i, axis);
      if ((side == Side::left) != swapped ? ca > 0 : ca < 0) index[count++] = i;
    }
  }
  // f(k, slot) for each crossing population k, unrolled to max_count: one
  // load per population and site, whose stride along a strided face (an x
  // column) the hardware prefetcher can follow (a run-time loop served every
  // population with one load instruction).
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each(const F& f) const {
    static_for<max_count>([&](auto kk) KOLB_INLINE_LAMBDA {
      constexpr int k = decltype(kk)::value;
      if (k < count) f(k, index[k]);
    });
  }
};

// The halo layers of a block on `side` of `axis`, or, with border = true,
// the interior layers next to that face a neighbour's halo copies. Axes
// filled earlier are covered with their halos, later ones over the interior
// (with all_halos, every other axis with its halos).
inline Region face_region(const Extents& e, int axis, Side side, bool border,
                          bool all_halos = false) {
  const int h = e.halo[axis];
  Region r = interior_region(e);
  for (int b = 0; b < 3; ++b)
    if (e.filled_before(b, axis) || all_halos) r.lo[b] = 0, r.hi[b] = e.ext(b);
  const int lo = side == Side::left ? (border ? h : 0) : e.n[axis] + (border ? 0 : h);
  r.lo[axis] = lo;
  r.hi[axis] = lo + h;
  return r;
}

// Destination halo site <- source border site, same memory space.
template <class Lattice, class Scalar, class Layout, class MemorySpace>
struct HaloCopy {
  Kokkos::View<const Scalar*, MemorySpace> m_src;
  Kokkos::View<Scalar*, MemorySpace> m_dst;
  Layout m_src_layout, m_dst_layout;
  SiteIndex m_src_site, m_dst_site;
  Kokkos::Array<int, 3> m_shift;  // source minus destination storage coordinates
  CrossingPopulations<Lattice> m_pop;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t d = m_dst_site(x, y, z),
                  s = m_src_site(x + m_shift[0], y + m_shift[1], z + m_shift[2]);
    m_pop.for_each([&](int, int i) KOLB_INLINE_LAMBDA {
      m_dst(m_dst_layout(d, i)) = m_src(m_src_layout(s, i));
    });
  }
};

// Packs (Unpack = false) a region of a block into a buffer, or unpacks the
// buffer into it; the buffer is ordered by (z, y, x) of the region, the
// crossing populations innermost, so a border and a halo of the same shape
// pack and unpack alike.
template <class Lattice, class Scalar, class Layout, class MemorySpace, bool Unpack>
struct HaloPack {
  Kokkos::View<Scalar*, MemorySpace> m_f;
  Kokkos::View<Scalar*, MemorySpace> m_buffer;
  Layout m_layout;
  SiteIndex m_site;
  // The region's corner and x, y extents as plain integers (std::array's
  // operator[] is host-only in CUDA).
  int m_lo_x, m_lo_y, m_lo_z;
  index_t m_nx, m_ny;
  CrossingPopulations<Lattice> m_pop;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    const index_t b =
        ((index_t(z - m_lo_z) * m_ny + (y - m_lo_y)) * m_nx + (x - m_lo_x)) * m_pop.count;
    m_pop.for_each([&](int k, int i) KOLB_INLINE_LAMBDA {
      if constexpr (Unpack)
        m_f(m_layout(s, i)) = m_buffer(b + k);
      else
        m_buffer(b + k) = m_f(m_layout(s, i));
    });
  }
};

}  // namespace kolb
