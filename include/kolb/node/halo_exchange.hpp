#pragma once
// HaloExchange: fills the x halo columns of a block from the border columns
// of its x neighbour, which may live in another memory space. Only the
// populations that cross the interface travel: a left halo is read by the
// pull only for populations moving in +x (c_ix > 0), a right halo only for
// c_ix < 0. Blocks in the same memory space copy directly; otherwise the
// source packs into a contiguous buffer, one deep_copy moves it, and the
// destination unpacks.

#include <kolb/block/block.hpp>
#include <kolb/kernels/policy.hpp>

#include <type_traits>

namespace kolb {

enum class HaloSide { left, right };  // which halo of the destination block

// Populations of `Lattice` that cross into a `side` halo.
template <class Lattice>
struct CrossingPopulations {
  Kokkos::Array<int, Lattice::q> index;
  int count = 0;
  explicit CrossingPopulations(HaloSide side) {
    for (int i = 0; i < Lattice::q; ++i)
      if (side == HaloSide::left ? Lattice::c(i, 0) > 0 : Lattice::c(i, 0) < 0) index[count++] = i;
  }
};

// Where a halo transfer reads and writes: x columns of source and destination
// (storage coordinates) over the interior rows, `width` columns wide.
struct HaloColumns {
  Region dst;     // halo columns of the destination block
  int src_x = 0;  // first source column
  index_t values(int ncomp) const { return dst.size() * ncomp; }
};

inline HaloColumns halo_columns(const Extents& src, const Extents& dst, HaloSide side) {
  const int h = dst.halo[0];
  HaloColumns c;
  c.dst = interior_region(dst);
  if (side == HaloSide::left) {
    c.dst.lo[0] = 0;
    c.dst.hi[0] = h;
    c.src_x = src.halo[0] + src.n[0] - h;
  } else {
    c.dst.lo[0] = dst.halo[0] + dst.n[0];
    c.dst.hi[0] = c.dst.lo[0] + h;
    c.src_x = src.halo[0];
  }
  return c;
}

namespace impl {

// Site (storage x, y, z) of a block with strides sy, sz.
KOKKOS_INLINE_FUNCTION index_t site_of(int x, int y, int z, index_t sy, index_t sz) {
  return x + sy * y + sz * z;
}

// Destination halo site <- source border site, same memory space.
template <class Lattice, class Scalar, class Layout, class MemorySpace>
struct HaloCopy {
  Kokkos::View<const Scalar*, MemorySpace> m_src;
  Kokkos::View<Scalar*, MemorySpace> m_dst;
  Layout m_src_layout, m_dst_layout;
  index_t m_src_sy, m_src_sz, m_dst_sy, m_dst_sz;
  int m_dx;  // source x minus destination x
  CrossingPopulations<Lattice> m_pop;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t d = site_of(x, y, z, m_dst_sy, m_dst_sz);
    const index_t s = site_of(x + m_dx, y, z, m_src_sy, m_src_sz);
    for (int k = 0; k < m_pop.count; ++k)
      m_dst(m_dst_layout(d, m_pop.index[k])) = m_src(m_src_layout(s, m_pop.index[k]));
  }
};

// Packs (Unpack = false) the source border into a buffer, or unpacks the
// buffer into the destination halo. The buffer is ordered like the
// destination halo region, crossing populations innermost.
template <class Lattice, class Scalar, class Layout, class MemorySpace, bool Unpack>
struct HaloPack {
  Kokkos::View<Scalar*, MemorySpace> m_f;
  Kokkos::View<Scalar*, MemorySpace> m_buffer;
  Layout m_layout;
  index_t m_sy, m_sz;
  // The region in this block's storage coordinates, as plain integers
  // (std::array's operator[] is host-only in CUDA device code).
  int m_lo_x, m_lo_y, m_lo_z;
  index_t m_nx, m_ny;
  CrossingPopulations<Lattice> m_pop;

  HaloPack(const Kokkos::View<Scalar*, MemorySpace>& f,
           const Kokkos::View<Scalar*, MemorySpace>& buffer, const Layout& layout, index_t sy,
           index_t sz, const Region& region, const CrossingPopulations<Lattice>& pop)
      : m_f(f),
        m_buffer(buffer),
        m_layout(layout),
        m_sy(sy),
        m_sz(sz),
        m_lo_x(region.lo[0]),
        m_lo_y(region.lo[1]),
        m_lo_z(region.lo[2]),
        m_nx(region.hi[0] - region.lo[0]),
        m_ny(region.hi[1] - region.lo[1]),
        m_pop(pop) {}

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = site_of(x, y, z, m_sy, m_sz);
    const index_t b =
        ((index_t(z - m_lo_z) * m_ny + (y - m_lo_y)) * m_nx + (x - m_lo_x)) * m_pop.count;
    for (int k = 0; k < m_pop.count; ++k) {
      if (Unpack) {
        m_f(m_layout(s, m_pop.index[k])) = m_buffer(b + k);
      } else {
        m_buffer(b + k) = m_f(m_layout(s, m_pop.index[k]));
      }
    }
  }
};

}  // namespace impl

// One directed link: `src`'s border columns -> `dst`'s `side` halo. Holds
// the staging buffers when the two blocks live in different memory spaces.
template <class SrcBlock, class DstBlock>
class HaloExchange {
 public:
  using lattice = typename SrcBlock::lattice_type;
  using scalar = typename SrcBlock::value_type;
  using layout = typename SrcBlock::layout_type;
  using src_memory = typename SrcBlock::memory_space;
  using dst_memory = typename DstBlock::memory_space;
  static constexpr bool direct = std::is_same<src_memory, dst_memory>::value;

  HaloExchange() = default;
  HaloExchange(const SrcBlock& src, const DstBlock& dst, HaloSide side)
      : m_pop(side), m_columns(halo_columns(src.extents(), dst.extents(), side)) {
    if constexpr (!direct) {
      const index_t n = m_columns.values(m_pop.count);
      m_src_buffer = Kokkos::View<scalar*, src_memory>("kolb::halo_send", n);
      m_dst_buffer = Kokkos::View<scalar*, dst_memory>("kolb::halo_recv", n);
    }
  }

  // Copies the current populations across. `src_exec` / `dst_exec` run the
  // pack and unpack kernels; a direct copy runs on `dst_exec`. Returns with
  // the destination written (fenced).
  template <class SrcExec, class DstExec>
  void apply(const SrcBlock& src, const DstBlock& dst, const SrcExec& src_exec,
             const DstExec& dst_exec) const {
    const Extents& se = src.extents();
    const Extents& de = dst.extents();
    const CrossingPopulations<lattice>& pop = m_pop;
    if constexpr (direct) {
      (void)src_exec;
      impl::HaloCopy<lattice, scalar, layout, dst_memory> copy{
          src.current(),
          dst.current(),
          src.layout(),
          dst.layout(),
          se.stride(1),
          se.stride(2),
          de.stride(1),
          de.stride(2),
          m_columns.src_x - m_columns.dst.lo[0],
          pop};
      for_each_site("kolb::HaloCopy", dst_exec, m_columns.dst, copy);
      dst_exec.fence();
    } else {
      Region src_region = m_columns.dst;
      src_region.lo[0] = m_columns.src_x;
      src_region.hi[0] = m_columns.src_x + (m_columns.dst.hi[0] - m_columns.dst.lo[0]);
      for_each_site("kolb::HaloPack", src_exec, src_region,
                    impl::HaloPack<lattice, scalar, layout, src_memory, false>(
                        src.current(), m_src_buffer, src.layout(), se.stride(1), se.stride(2),
                        src_region, pop));
      // Device <-> host copies are ordered on the device's instance.
      if constexpr (is_host_space_v<SrcExec>) {
        src_exec.fence();
        Kokkos::deep_copy(dst_exec, m_dst_buffer, m_src_buffer);
      } else {
        Kokkos::deep_copy(src_exec, m_dst_buffer, m_src_buffer);
        src_exec.fence();
      }
      for_each_site("kolb::HaloUnpack", dst_exec, m_columns.dst,
                    impl::HaloPack<lattice, scalar, layout, dst_memory, true>(
                        dst.current(), m_dst_buffer, dst.layout(), de.stride(1), de.stride(2),
                        m_columns.dst, pop));
      dst_exec.fence();
    }
  }

 private:
  CrossingPopulations<lattice> m_pop{HaloSide::left};
  HaloColumns m_columns;
  Kokkos::View<scalar*, src_memory> m_src_buffer;
  Kokkos::View<scalar*, dst_memory> m_dst_buffer;
};

}  // namespace kolb
