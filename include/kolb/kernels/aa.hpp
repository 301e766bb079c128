#pragma once
// The AA pattern (Bailey et al. 2009): streaming in place in ONE buffer, so a
// step reads and writes each population once with no write-allocate of a
// second array, and memory halves. Two step kinds alternate:
//  - AAPull ("odd"): the buffer holds the post-collision populations of the
//    last step, swapped (population moving along c_i in slot opposite(i) of
//    its site). Each site pulls its incoming populations from its neighbours'
//    swapped slots (bounce-back from its own slot i), collides, and pushes
//    the results into its neighbours' slots i (or, towards a solid, back into
//    its own slot opposite(i) with the moving-wall term). Afterwards the
//    buffer holds the streamed populations, each in its own slot.
//  - AALocal ("even"): each site reads its own slots, collides and writes
//    the results swapped into its own slots.
// Every value is computed with the same operations as the two-buffer
// StreamCollide, so both schemes agree bit for bit. No site reads a slot
// another site writes in the same step, so sites are independent.

#include <kolb/block/population_pointers.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/boundary/open_lanes.hpp>
#include <kolb/core/static_for.hpp>
#include <kolb/kernels/collide.hpp>
#include <kolb/kernels/halo.hpp>
#include <kolb/kernels/pull.hpp>

#include <array>
#include <string>
#include <vector>

namespace kolb {

// What an AAPull launch reads and writes, without the model (a twin with
// another model copies it whole).
template <class Lattice, class S, class Layout, class MemorySpace>
struct AAPullArgs : RowPrefetch<stored_t<S>> {
  using Scalar = real_t<S>;
  static constexpr int Q = Lattice::q;

  Pull<Lattice, S, Layout, MemorySpace, true> m_pull;
  Kokkos::View<stored_t<S>*, MemorySpace> m_f;  // the same buffer m_pull reads
  Layout m_layout;
  SiteIndex m_site;
  // SoA, CSoA: the flat launches' addresses (bulk_flat): what each site pulls
  // from its upstream neighbour's swapped slot, and where it pushes to.
  static constexpr bool flat_pointers = has_population_pointers_v<Layout>;
  FlatAddresses<const stored_t<S>, stored_t<S>, Q> m_flat;

  template <class Block>
  AAPullArgs(const Block& block, const WallTerms<Lattice, Scalar>& wall)
      : m_pull(block, wall),
        m_f(block.current()),
        m_layout(block.layout()),
        m_site(block.site_index()) {
    if constexpr (flat_pointers) {
      m_flat = {block, m_pull.sources(), m_pull.pushes(m_f)};
    }
    this->decide(m_layout, m_f.span() * sizeof(stored_t<S>));
  }

  // Asks for the lines site s pulls from (run_bulk, RowPrefetch).
  KOLB_HOST_INLINE void prefetch_sources(index_t s) const { m_pull.prefetch(s); }

  // Open x faces the host rows take at their ends (the plan's
  // EndLane::open; boundary/open_lanes.hpp): the values into the halo slots
  // the row's end sites pull from, at its start and before its last site,
  // then those sites' f* from where they pushed them into the stash the
  // local step's rows read.
  OpenLanes<Lattice, S> m_open;
  static constexpr bool has_row_start = true, has_row_end = true;
  KOLB_HOST_INLINE void row_start(int z, int y, int b, int) const {
    m_open.row_start(m_f, m_layout, m_site, z, y, b, true);
  }
  KOLB_HOST_INLINE void row_last(int z, int y, int, int e) const {
    m_open.row_last(m_f, m_layout, m_site, z, y, e, true);
  }
  KOLB_HOST_INLINE void row_end(int z, int y, int b, int e) const {
    m_open.row_end(m_f, m_layout, m_site, z, y, b, e, true);
  }
};

// The AA pull step: AAPullArgs and a model, nothing else.
template <class Model, class Layout, class MemorySpace>
struct AAPull final
    : AAPullArgs<typename Model::lattice_type, typename Model::scalar_type, Layout, MemorySpace> {
  using Lattice = typename Model::lattice_type;
  using Scalar = typename Model::value_type;
  using S = typename Model::scalar_type;
  using P = Storage<S>;
  using Args = AAPullArgs<Lattice, S, Layout, MemorySpace>;
  static constexpr int Q = Lattice::q;
  using Args::m_f;
  using Args::m_flat;
  using Args::m_layout;
  using Args::m_pull;
  using Args::m_site;

  Model m_model;

  template <class Block>
  AAPull(const Block& block, const WallTerms<Lattice, Scalar>& wall, const Model& model)
      : Args(block, wall), m_model(model) {}
  AAPull(const Args& args, const Model& model) : Args(args), m_model(model) {}
  const Args& args() const { return *this; }
  template <class M>
  using with_model = AAPull<M, Layout, MemorySpace>;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    if (m_pull.m_material(s) != kFluid) return;
    Scalar f[Q];
    m_pull(s, f);
    m_model(f);
    for (int i = 0; i < Q; ++i) {
      const index_t n = s - m_pull.m_offset[i];  // downstream neighbour
      const material_t m = m_pull.m_material(n);
      if (m == kFluid) {
        m_f(m_layout(n, i)) = P::template store<Lattice>(f[i], i);
      } else {  // bounces back: next step's incoming opposite(i) at s
        const int o = Lattice::opposite(i);
        m_f(m_layout(s, o)) = P::template bounce<Lattice>(P::template store<Lattice>(f[i], i),
                                                          m_pull.m_wall(m, o), o);
      }
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    Scalar f[Q];
    m_pull.bulk(s, f);
    m_model(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i)
      m_f(m_layout(s - m_pull.m_offset[i], i)) = P::template store<Lattice>(f[i], i);
  }

  // bulk() in flat launches on SoA and CSoA: the same values through m_flat.
  KOKKOS_FORCEINLINE_FUNCTION void bulk_flat(int z, int y, int x) const {
    const std::uint32_t s = m_flat.site(x, y, z);
    Scalar f[Q];
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) f[i] = P::template load<Lattice>(m_flat.in(i, s), i);
    m_model(f);
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_flat.out(i, s) = P::template store<Lattice>(f[i], i);
  }
};

// The local step: in-place collision with swapped stores.
template <class Model, class Layout, class MemorySpace>
using AALocal = Collide<Model, Layout, MemorySpace, true>;

// Swaps slots i and opposite(i) of every site of a region: converts between
// the stored (two-buffer) and the AA-swapped arrangement of a state. Scalar
// is the stored element type (opposite populations have equal weights, so
// the stored bits move unchanged).
template <class Lattice, class Scalar, class Layout, class MemorySpace>
struct SwapOpposites {
  Kokkos::View<Scalar*, MemorySpace> m_f;
  Layout m_layout;
  SiteIndex m_site;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    static_for<Lattice::q>([&](auto k) KOLB_INLINE_LAMBDA {  // literal slots: vectorises
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      if constexpr (o > i) {
        const Scalar t = m_f(m_layout(s, i));
        m_f(m_layout(s, i)) = m_f(m_layout(s, o));
        m_f(m_layout(s, o)) = t;
      }
    });
  }
};

namespace impl {

// The rule every AA push-back applies to a population i that an AAPull
// pushed into site p (storage coordinates) outside the interior: it belongs
// to p's image one period away along each axis but `across` (the axis of a
// face between parts, -1: none) on which p lies in a halo, if all those axes
// are periodic (a wall halo receives nothing), p is fluid (a fluid source
// bounced off a solid p into its own slot, which a copy would overwrite: an
// obstacle crossing a border), and the source p - c_i is a fluid interior
// site on the axes but `across` (a solid source pushed nothing). Returns
// false where nothing is to be moved; `image` gets p's image.
template <class Lattice>
bool pushed_image(const Kokkos::View<const material_t*, Kokkos::HostSpace>& material,
                  const Extents& e, const std::array<bool, 3>& periodic, const int (&p)[3],
                  int across, int (&image)[3]) {
  const SiteIndex site = e.site_index();
  if (material(site(p[0], p[1], p[2])) != kFluid) return false;
  for (int a = 0; a < 3; ++a) {
    image[a] = p[a];
    const int lo = e.halo[a], hi = e.halo[a] + e.n[a];
    if (a == across || (p[a] >= lo && p[a] < hi)) continue;
    if (a >= e.dim || !periodic[a]) return false;
    image[a] = p[a] < lo ? p[a] + e.n[a] : p[a] - e.n[a];
  }
  return true;
}

template <class Lattice>
bool pushed_from_fluid(const Kokkos::View<const material_t*, Kokkos::HostSpace>& material,
                       const Extents& e, const int (&p)[3], int i, int across) {
  int src[3];
  for (int a = 0; a < 3; ++a) {
    src[a] = p[a] - Lattice::c(i, a);
    if (a != across && (src[a] < e.halo[a] || src[a] >= e.halo[a] + e.n[a])) return false;
  }
  return material(e.site_index()(src[0], src[1], src[2])) == kFluid;
}

}  // namespace impl

// Which halo sites a periodic push map covers: all, or the x halos of
// interior rows (which AA local steps may take themselves, Collide::row_start
// and row_last) apart from the others.
enum class PushedHalos { all, outside_rows, rows_only };

// After an AAPull step, the values pushed into periodic halo sites belong to
// the sites one period away (impl::pushed_image). Computed once from the
// materials as pairs (halo storage index, image storage index) and applied by
// ScatterPushed with the block as its own buffer: a halo face is a thin or
// strided layer, and testing materials and bounds per site and population in
// the step cost as much as the AAPull itself.
template <class Lattice, class Layout>
Kokkos::View<index_t*, Kokkos::HostSpace> periodic_push_map(
    const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
    const Layout& layout, const std::array<bool, 3>& periodic,
    PushedHalos which = PushedHalos::all) {
  const SiteIndex site = e.site_index();
  std::vector<index_t> map;
  for (int z = 0; z < e.ext(2); ++z)
    for (int y = 0; y < e.ext(1); ++y)
      for (int x = 0; x < e.ext(0); ++x) {
        const int p[3] = {x, y, z};
        bool halo = false;
        for (int a = 0; a < 3; ++a) halo = halo || p[a] < e.halo[a] || p[a] >= e.halo[a] + e.n[a];
        if (!halo) {  // an interior row: on to its high-x halo
          if (x >= e.halo[0] && x < e.halo[0] + e.n[0] - 1) x = e.halo[0] + e.n[0] - 1;
          continue;
        }
        bool row = true;  // an x halo site of an interior row
        for (int a = 1; a < 3; ++a) row = row && p[a] >= e.halo[a] && p[a] < e.halo[a] + e.n[a];
        if (which != PushedHalos::all && row != (which == PushedHalos::rows_only)) continue;
        int image[3];
        if (!impl::pushed_image<Lattice>(material, e, periodic, p, -1, image)) continue;
        const index_t g = site(image[0], image[1], image[2]), s = site(x, y, z);
        for (int i = 0; i < Lattice::q; ++i)
          if (impl::pushed_from_fluid<Lattice>(material, e, p, i, -1)) {
            map.push_back(layout(s, i));
            map.push_back(layout(g, i));
          }
      }
  return host_view_of(map, "kolb::periodic_push_map");
}

// After an AAPull step of parts side by side along `axis`: what a part
// pushed into its halo across that axis belongs to the neighbour's border
// sites. The sender packs its halo layers (HaloPack, the other axes over
// their halos); the neighbour writes them into its border layers of the
// same shape through a map computed once from the materials: packed value
// (g, i) goes to slot i of g by the rule of impl::pushed_image on the other
// axes (g fluid, the source g - c_i a fluid interior site of the sender, g
// taken to its image along the periodic ones). The neighbour's halo
// materials are the sender's sites, so it decides alone. A face is often a
// strided layer of sites: a list of indices avoids the material loads and
// branches per site in the step.
template <class Lattice, class Layout>
Kokkos::View<index_t*, Kokkos::HostSpace> pushed_across_map(
    const Kokkos::View<const material_t*, Kokkos::HostSpace>& material, const Extents& e,
    const Layout& layout, const Region& r, int axis, const CrossingPopulations<Lattice>& pop,
    const std::array<bool, 3>& periodic) {
  const SiteIndex site = e.site_index();
  std::vector<index_t> map;
  index_t b = 0;  // HaloPack's order: (z, y, x) of the region, populations innermost
  for (int z = r.lo[2]; z < r.hi[2]; ++z)
    for (int y = r.lo[1]; y < r.hi[1]; ++y)
      for (int x = r.lo[0]; x < r.hi[0]; ++x, b += pop.count) {
        const int p[3] = {x, y, z};
        int image[3];
        if (!impl::pushed_image<Lattice>(material, e, periodic, p, axis, image)) continue;
        const index_t t = site(image[0], image[1], image[2]);
        for (int k = 0; k < pop.count; ++k)
          if (impl::pushed_from_fluid<Lattice>(material, e, p, pop.index[k], axis)) {
            map.push_back(b + k);
            map.push_back(layout(t, pop.index[k]));
          }
      }
  return host_view_of(map, "kolb::pushed_across_map");
}

// Writes values where a push map says (pairs of buffer index, storage
// index): f[map(2j + 1)] = buffer[map(2j)]. The buffer is a packed face
// (pushed_across_map) or the block itself (periodic_push_map: the sources
// are halo sites, the targets interior ones, so no pair reads another's
// target).
template <class Scalar, class MemorySpace>
struct ScatterPushed {
  Kokkos::View<Scalar*, MemorySpace> m_f;
  Kokkos::View<const Scalar*, MemorySpace> m_buffer;
  Kokkos::View<const index_t*, MemorySpace> m_map;

  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const {
    m_f(m_map(2 * j + 1)) = m_buffer(m_map(2 * j));
  }
};

// Reconstructs the stored (two-buffer) post-collision state f* of every
// interior site from an AA buffer that holds streamed populations (after
// AAPull): f*_i(x) is in slot i of x + c_i, or, where that is solid, in slot
// opposite(i) of x minus the moving-wall term (exact for resting walls; for
// moving walls the subtraction may differ in the last bit).
template <class Lattice, class S, class Layout, class MemorySpace>
struct AAUnstream {
  using Scalar = real_t<S>;
  using P = Storage<S>;
  Kokkos::View<const stored_t<S>*, MemorySpace> m_aa;
  Kokkos::View<stored_t<S>*, MemorySpace> m_out;
  Kokkos::View<const material_t*, MemorySpace> m_material;
  Layout m_layout;
  WallTerms<Lattice, Scalar> m_wall;
  SiteIndex m_site;

  KOKKOS_INLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    const bool fluid = m_material(s) == kFluid;
    static_for<Lattice::q>([&](auto k) KOLB_INLINE_LAMBDA {  // literal velocities
      constexpr int i = decltype(k)::value, o = Lattice::opposite(i);
      const index_t n = s + m_site(Lattice::c(i, 0), Lattice::c(i, 1), Lattice::c(i, 2));
      const material_t m = m_material(n);
      m_out(m_layout(s, i)) =
          !fluid        ? P::template store<Lattice>(Scalar(0), i)
          : m == kFluid ? m_aa(m_layout(n, i))
                        : P::template unbounce<Lattice>(m_aa(m_layout(s, o)), m_wall(m, o), i);
    });
  }
};

}  // namespace kolb
