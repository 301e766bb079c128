#pragma once
// Collide: the collision half of a step on its own, in place on the buffer
// Propagate wrote (the next one): load a site's Q populations, collide with
// the model, store them back. Solid sites stay zero. Host launches take
// fluid runs (bulk rows) without the material load and the solid blend.

#include <kolb/block/block.hpp>
#include <kolb/block/population_pointers.hpp>
#include <kolb/boundary/open_lanes.hpp>
#include <kolb/kernels/halo.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/lattice/slot.hpp>

#include <algorithm>
#include <type_traits>

namespace kolb {

// What a Collide launch reads and writes, without the model: a twin with
// another model (the unforced bulk rows, for_each_site_split) copies it
// whole. SwappedOut = true stores population i in slot opposite(i): the AA
// pattern's local step (AALocal in aa.hpp). One buffer there, so next() is
// the current array.
template <class Lattice, class S, class Layout, class MemorySpace, bool SwappedOut>
struct CollideArgs : RowPrefetch<stored_t<S>> {
  using P = Storage<S>;
  using Scalar = real_t<S>;
  static constexpr int Q = Lattice::q;

  Kokkos::View<typename P::stored_type*, MemorySpace> m_f;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  SiteIndex m_site;
  // SoA, CSoA: the flat launches' addresses (bulk_flat), own slots in and out.
  static constexpr bool flat_pointers = has_population_pointers_v<Layout>;
  FlatAddresses<typename P::stored_type, typename P::stored_type, Q> m_flat;

  template <class Block>
  explicit CollideArgs(const Block& block)
      : m_f(block.next()),
        m_material(block.material()),
        m_layout(block.layout()),
        m_site(block.site_index()) {
    if constexpr (flat_pointers) {
      m_flat = {block, own_populations<Lattice>(m_f, m_layout),
                own_populations<Lattice>(m_f, m_layout, SwappedOut)};
    }
    this->decide(m_layout, m_f.span() * sizeof(typename P::stored_type));
  }

  // AA local steps (SwappedOut) of host parts periodic onto themselves along
  // x with every row one run (the plan's RowHalos::x): after a whole
  // row, the x-halo slots the next pull step reads get their images from the
  // row's other end, both lines still in L1, instead of a pass over the x
  // faces before the pull, which touched a cold line per row and crossing
  // population on each face.
  int m_x_halo_n = 0;  // interior sites per row (fill_x_halos_at_row_ends); 0: no fill
  // The slots a pull reads from the low and high x halos (the fill's own).
  CrossingPopulations<Lattice> m_x_low{0, Side::left, SwappedOut};
  CrossingPopulations<Lattice> m_x_high{0, Side::right, SwappedOut};
  void fill_x_halos_at_row_ends(int n_x) { m_x_halo_n = n_x; }
  static constexpr bool has_row_end = true;
  KOLB_HOST_INLINE void row_end(int z, int y, int b, int e) const {
    constexpr int h = Lattice::halo;
    if constexpr (SwappedOut) m_open.row_end(m_f, m_layout, m_site, z, y, b, e, false);
    if (m_x_halo_n == 0 || b != h || e != h + m_x_halo_n) return;
    for (int k = 0; k < h; ++k) {
      const index_t low = m_site(k, y, z), high = m_site(h + m_x_halo_n + k, y, z);
      for (int c = 0; c < m_x_low.count; ++c) {
        const int j = m_x_low.index[c];
        m_f(m_layout(low, j)) = m_f(m_layout(low + m_x_halo_n, j));
      }
      for (int c = 0; c < m_x_high.count; ++c) {
        const int j = m_x_high.index[c];
        m_f(m_layout(high, j)) = m_f(m_layout(high - m_x_halo_n, j));
      }
    }
    if (m_yz_rows) copy_halo_rows(z, y, true);
  }

  // The same local steps, after a pull step: what the pull pushed into a
  // row's x halos belongs to the row's other end (the halos' images one
  // period away), and the row takes it there itself instead of the pass
  // after the pull (PartHalos::push_back_periodic), which touched a cold
  // line per row, face and crossing population: the high halo's values at
  // the row's start (row_start, which also asks for the next row's high-halo
  // lines, a row ahead), the low halo's just before the row's last line
  // (row_last, that line then in cache). A value arrives in slot j of a halo
  // site from the pull of the site c_j behind it: copied only where that one
  // is interior, the rule of periodic_push_map, which leaves these pairs to
  // the rows (PushedHalos::rows_only). row_end overwrites the high halo's
  // slots after.
  bool m_x_take = false;
  Region m_interior;
  index_t m_x_stride = 0;  // storage sites from a row to the next
  void take_x_pushes_at_row_starts(const Extents& e) {
    m_x_take = true;
    m_interior = interior_region(e);
    m_x_stride = e.site_index()(0, 1, 0) - e.site_index()(0, 0, 0);
  }
  // Parts periodic onto themselves along every axis
  // (the plan's RowHalos::all): the rows next to the y and z faces
  // also take what the pull pushed into the halo rows whose images they are
  // (row_start) and fill those rows for the next pull (row_end), the same
  // slots both ways (a pull reads slot j of a halo site p, and pushed into
  // it, where p - c_j is interior). This replaces a fill pass over the y and
  // z faces before each pull and a push-back map pass after it.
  bool m_yz_rows = false;
  void take_yz_halos_in_rows() { m_yz_rows = true; }
  // The copies row_start and row_last make over all interior rows
  // (PartHalos::map_pushes checks them against the push map's pairs they replace).
  index_t row_start_copies() const {
    constexpr int h = Lattice::halo;
    index_t n = 0;
    const auto count = [&](int) { ++n; };
    for (int z = m_interior.lo[2]; z < m_interior.hi[2]; ++z)
      for (int y = m_interior.lo[1]; y < m_interior.hi[1]; ++y) {
        for (int k = 0; k < h; ++k) {
          for_pushed(m_x_low, k, y, z, count);
          for_pushed(m_x_high, h + m_x_halo_n + k, y, z, count);
        }
        if (m_yz_rows) for_halo_row_runs(z, y, [&](int, index_t, index_t, int len) { n += len; });
      }
    return n;
  }
  // Open x faces the local step's rows take at their ends (the plan's
  // EndLane::open; boundary/open_lanes.hpp): the values into the end
  // sites' own slots, at the row's start and before its last site, then
  // those sites' f* into the stash the next pull's rows read. (Nothing in
  // the two-buffer Collide.)
  struct NoOpenLanes {};
  std::conditional_t<SwappedOut, OpenLanes<Lattice, S>, NoOpenLanes> m_open;

  static constexpr bool has_row_start = SwappedOut;  // the local step only
  KOLB_HOST_INLINE void row_start(int z, int y, int b, int e) const {
    constexpr int h = Lattice::halo;
    if constexpr (SwappedOut) m_open.row_start(m_f, m_layout, m_site, z, y, b, false);
    if (!m_x_take || b != h || e != h + m_x_halo_n) return;
    if (m_yz_rows) copy_halo_rows(z, y, false);
    for (int k = 0; k < h; ++k) {
      const int x = h + m_x_halo_n + k;
      take_pushed(m_x_high, x, -m_x_halo_n, y, z);  // c_x > 0: into the high halo
      const index_t next = m_site(x, y, z) + m_x_stride;
      for (int c = 0; c < m_x_high.count; ++c)
        if (m_layout(next, m_x_high.index[c]) < index_t(m_f.span()))
          host::prefetch_read(m_f.data() + m_layout(next, m_x_high.index[c]));
    }
  }
  KOLB_HOST_INLINE void row_last(int z, int y, int b, int e) const {
    constexpr int h = Lattice::halo;
    if constexpr (SwappedOut) m_open.row_last(m_f, m_layout, m_site, z, y, e, false);
    if (!m_x_take || b != h || e != h + m_x_halo_n) return;
    for (int k = 0; k < h; ++k) take_pushed(m_x_low, k, m_x_halo_n, y, z);  // c_x < 0
  }

  // Asks for the lines of site s (run_bulk, RowPrefetch); rows run
  // on past the buffer's last site, which asks for nothing.
  KOLB_HOST_INLINE void prefetch_sources(index_t s) const {
    if (m_layout(s, Q - 1) >= index_t(m_f.span())) return;
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) host::prefetch_read(m_f.data() + m_layout(s, i));
  }

  // (the row halos' helpers)
  // Whether the site a pull pushed population j from into (x, y, z) lies in
  // the interior (halo sites are not updated, so push nothing).
  KOLB_HOST_INLINE bool pushed_from_interior(int j, int x, int y, int z) const {
    const int p[3] = {x, y, z};
    for (int a = 0; a < 3; ++a)
      if (!interior_along(a, p[a] - Lattice::c(j, a))) return false;
    return true;
  }
  // Whether coordinate v along axis a lies in the interior.
  KOLB_HOST_INLINE bool interior_along(int a, int v) const {
    return v >= m_interior.lo[a] && v < m_interior.hi[a];
  }
  // f(j, halo, image, n) for the runs of n sites along x, from storage site
  // `halo` of a y or z halo row whose image is row (y, z) and from site
  // `image` of that row, whose slot j a pull reads from the halo site and
  // pushes into it (p - c_j interior); a run's x coordinates are those of the
  // halo row, shifted by a period where they lie in an x halo.
  template <class F>
  KOLB_HOST_INLINE void for_halo_row_runs(int z, int y, const F& f) const {
    const Region& in = m_interior;
    int rows[2][3], count[2] = {0, 0};  // halo coordinates of the rows, per axis
    const int at[2] = {y, z};
    for (int a = 0; a < 2; ++a) {
      // Storage rows along the axis run from 0 to lo + hi (a halo each side).
      const int n = in.hi[a + 1] - in.lo[a + 1], end = in.hi[a + 1] + in.lo[a + 1];
      rows[a][count[a]++] = at[a];
      if (at[a] - n >= 0 && at[a] - n < in.lo[a + 1]) rows[a][count[a]++] = at[a] - n;
      if (at[a] + n >= in.hi[a + 1] && at[a] + n < end) rows[a][count[a]++] = at[a] + n;
    }
    if (count[0] == 1 && count[1] == 1) return;  // no halo row has this row as its image
    const int nx = in.hi[0] - in.lo[0];
    for (int p = 0; p < count[0]; ++p)
      for (int q = 0; q < count[1]; ++q) {
        const int hy = rows[0][p], hz = rows[1][q];
        if (p == 0 && q == 0) continue;  // the row itself
        for (int j = 0; j < Q; ++j) {
          const int cx = Lattice::c(j, 0);
          if (!interior_along(1, hy - Lattice::c(j, 1)) ||
              !interior_along(2, hz - Lattice::c(j, 2)))
            continue;
          // Halo sites x with x - c_jx interior, in pieces of one shift.
          const int lo = in.lo[0] + cx, hi = in.hi[0] + cx;
          const int cut[4] = {lo, std::max(lo, in.lo[0]), std::min(hi, in.hi[0]), hi};
          for (int k = 0; k < 3; ++k) {
            if (cut[k + 1] <= cut[k]) continue;
            const int shift = k == 0 ? nx : k == 2 ? -nx : 0;
            f(j, m_site(cut[k], hy, hz), m_site(cut[k] + shift, y, z), cut[k + 1] - cut[k]);
          }
        }
      }
  }
  // The slots for_halo_row_runs names, from row (y, z) into its halo rows
  // (`fill`, row_end) or back (row_start).
  KOLB_HOST_INLINE void copy_halo_rows(int z, int y, bool fill) const {
    for_halo_row_runs(z, y, [&](int j, index_t halo, index_t image, int len) {
      const index_t to = fill ? halo : image, from = fill ? image : halo;
      for (int k = 0; k < len; ++k) m_f(m_layout(to + k, j)) = m_f(m_layout(from + k, j));
    });
  }
  // Slots `pop` of halo site (x, y, z) to its image `shift` sites along x,
  // where something was pushed there.
  KOLB_HOST_INLINE void take_pushed(const CrossingPopulations<Lattice>& pop, int x, int shift,
                                    int y, int z) const {
    const index_t s = m_site(x, y, z);
    for_pushed(pop, x, y, z, [&](int j) { m_f(m_layout(s + shift, j)) = m_f(m_layout(s, j)); });
  }
  // f(j) for the slots j of `pop` a pull pushed something into at (x, y, z).
  template <class F>
  KOLB_HOST_INLINE void for_pushed(const CrossingPopulations<Lattice>& pop, int x, int y, int z,
                                   const F& f) const {
    for (int c = 0; c < pop.count; ++c)
      if (pushed_from_interior(pop.index[c], x, y, z)) f(pop.index[c]);
  }
  KOKKOS_FORCEINLINE_FUNCTION Scalar load(index_t s, int i) const {
    return P::template load<Lattice>(m_f(m_layout(s, i)), i);
  }
  KOKKOS_FORCEINLINE_FUNCTION void store(index_t s, int i, Scalar v) const {
    m_f(m_layout(s, stored_slot<Lattice>(i, SwappedOut))) = P::template store<Lattice>(v, i);
  }
};

// The collision half of a step: CollideArgs and a model, nothing else
// (a twin holds the same arguments with another model).
template <class Model, class Layout, class MemorySpace, bool SwappedOut = false>
struct Collide final : CollideArgs<typename Model::lattice_type, typename Model::scalar_type,
                                   Layout, MemorySpace, SwappedOut> {
  using Lattice = typename Model::lattice_type;
  using Args = CollideArgs<Lattice, typename Model::scalar_type, Layout, MemorySpace, SwappedOut>;
  using Scalar = typename Model::value_type;
  using P = Storage<typename Model::scalar_type>;
  static constexpr int Q = Lattice::q;
  using Args::load;
  using Args::m_flat;
  using Args::m_material;
  using Args::m_site;
  using Args::store;

  Model m_model;

  template <class Block>
  Collide(const Block& block, const Model& model) : Args(block), m_model(model) {}
  Collide(const Args& args, const Model& model) : Args(args), m_model(model) {}
  const Args& args() const { return *this; }
  template <class M>
  using with_model = Collide<M, Layout, MemorySpace, SwappedOut>;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    // The same arithmetic as Pull + StreamCollide, so both paths agree bit for bit.
    const Scalar keep = m_material(s) == kFluid ? Scalar(1) : Scalar(0);
    Scalar f[Q];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i)
      f[i] = keep * load(s, i) + (Scalar(1) - keep) * Scalar(Lattice::w(i));
    m_model(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) store(s, i, keep * f[i]);
  }

  // A fluid site (any site of a bulk run): the general path computes
  // 1 * f + 0 * w_i and stores 1 * f, i.e. these bits.
  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    m_model.collide([&](int i) { return load(s, i); }, [&](int i, Scalar v) { store(s, i, v); });
  }

  // bulk() in flat launches on SoA and CSoA: the same values through m_flat.
  KOKKOS_FORCEINLINE_FUNCTION void bulk_flat(int z, int y, int x) const {
    const std::uint32_t s = m_flat.site(x, y, z);
    m_model.collide([&](int i) { return P::template load<Lattice>(m_flat.in(i, s), i); },
                    [&](int i, Scalar v) { m_flat.out(i, s) = P::template store<Lattice>(v, i); });
  }
};

}  // namespace kolb
