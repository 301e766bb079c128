#pragma once
// StreamCollide: the fused fast path. Each site pulls its Q incoming
// populations (Pull: bounce-back at walls), collides with the model in
// registers and writes the post-collision values to the other buffer: one
// read and one write of every population per step.

#include <kolb/block/population_pointers.hpp>
#include <kolb/boundary/moving_wall.hpp>
#include <kolb/boundary/open_lanes.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/kernels/policy.hpp>
#include <kolb/kernels/pull.hpp>
#include <kolb/lattice/d2q37.hpp>

namespace kolb {

// How StreamCollide's host bulk rows go by cache lines for a lattice (each
// value chosen by timing the rows both ways):
//  - by_lines(value bytes): whether its rows take the line path (below) or
//    only prefetch: D2Q9 always, D3Q19 with 8- and 4-byte values; 16-bit
//    values (32 sites a line) ran no faster by lines;
//  - prefetch_lines: how far ahead the inputs are prefetched;
//  - lines_from_llc_quarters: rows go by lines only when the two buffers
//    exceed this many quarters of the last-level cache (well inside it,
//    plain stores win): D3Q19 from half a cache (its plain rows have no
//    prefetch and 19 streams), D2Q9 from one (its 9 streams the hardware
//    follows), D3Q19's 16-bit rows, which only prefetch, from 1.5;
//  - llc_cap_bytes: the most of the last-level cache that counts: 32 MiB.
//    A server's L3 (or what a VM reports of it) is shared by many cores and
//    tenants: lines won well below half of a large reported L3;
//  - by_pointers: whether lines on SoA and CSoA load, prefetch and store
//    through m_flat's pointers (StreamCollide::bulk_line).
template <class Lattice>
struct LineRowTuning {
  static constexpr bool by_lines(int value_bytes) { return Lattice::q <= 9 || value_bytes >= 4; }
  static constexpr bool by_pointers = true;
  static constexpr int prefetch_lines = host::kPrefetchLines;
  static constexpr int lines_from_llc_quarters(int value_bytes) {
    return !by_lines(value_bytes) ? 6 : Lattice::q <= 9 ? 4 : 2;
  }
  static constexpr std::size_t llc_cap_bytes = std::size_t(32) << 20;
};

// D2Q37: since its collision goes by mirror orbits a site takes ~840 flop
// instead of ~2000, so host::kPrefetchLines lines came too late: it
// prefetches twice as far. The hardware prefetchers do not follow its 74
// streams once they come from memory, so lines from 0.75 caches (of at most
// 32 MiB, as above). Its lines keep the layout's indices: through the
// pointers gcc spilled more of its 37 streams, and the rows ran slower.
template <>
struct LineRowTuning<D2Q37> {
  static constexpr bool by_lines(int) { return true; }
  static constexpr bool by_pointers = false;
  static constexpr int prefetch_lines = 2 * host::kPrefetchLines;
  static constexpr int lines_from_llc_quarters(int) { return 3; }
  static constexpr std::size_t llc_cap_bytes = std::size_t(32) << 20;
};

// What a StreamCollide launch reads and writes, without the model (a twin
// with another model copies it whole).
template <class Lattice, class S, class Layout, class MemorySpace>
struct StreamCollideArgs {
  using Scalar = real_t<S>;
  using P = Storage<S>;
  static constexpr int Q = Lattice::q;

  Pull<Lattice, S, Layout, MemorySpace> m_pull;
  Kokkos::View<stored_t<S>*, MemorySpace> m_dst;
  Layout m_layout;
  SiteIndex m_site;
  // Host bulk rows go a cache line of sites at a time (by_lines or
  // prefetches below, whichever the stencil has).
  bool m_lines = false;
  // SoA, CSoA: the flat launches' addresses (bulk_flat), upstream in, own out.
  static constexpr bool flat_pointers = has_population_pointers_v<Layout>;
  FlatAddresses<const stored_t<S>, stored_t<S>, Q> m_flat;
  // Rows whose end lines replace the x halo's lane (-1: that end does not),
  // so that no x halo is filled: a row's first line at x = m_end_first takes
  // its populations with c_x = +1 in lane 0, its last line ending at x =
  // m_end_last those with c_x = -1 in its last lane,
  //  - m_end_walls false: from their image at the row's other end (a block
  //    periodic in x onto itself, the plan's EndLane::image);
  //  - m_end_walls true: bounced off the x wall, the site's own opposite
  //    population plus the wall term of the halo site's material, as the
  //    general pull and the wall ghosts give it (the plan's EndLane::wall),
  //    or, where that side is open (m_open.kind), the open face's value from
  //    the row's stash, as OpenSiteValues gives it, in the rows that take it
  //    (m_open.takes; the others read the halo the pass filled; EndLane::open).
  int m_end_first = -1, m_end_last = -1;
  bool m_end_walls = false;
  OpenLanes<Lattice, S> m_open;

  // One step of `block`: current -> next.
  template <class Block>
  StreamCollideArgs(const Block& block, const WallTerms<Lattice, Scalar>& wall)
      : m_pull(block, wall),
        m_dst(block.next()),
        m_layout(block.layout()),
        m_site(block.site_index()) {
    // Lines only beyond lines_from_llc_quarters (below); KOLB_LLC_BYTES
    // overrides the cache size. Layouts whose populations are not
    // line_sites-long runs (AoS) keep the site path.
    m_lines =
        keeps_line_runs(m_layout, line_sites) && lines_for(2 * m_dst.span() * sizeof(stored_t<S>));
    if constexpr (flat_pointers) {
      m_flat = {block, m_pull.sources(), own_populations<Lattice>(m_dst, m_layout)};
    }
  }

  // Host bulk rows go one cache line of sites at a time (host_rows.hpp,
  // run_bulk), with bulk()'s arithmetic, in one of two ways (LineRowTuning):
  //  - by_lines: the inputs `prefetch_sites` on are prefetched (the hardware
  //    prefetchers do not keep up with 2 Q streams) and the outputs gathered
  //    in one local line per population, written with non-temporal stores
  //    that skip the write-allocate read (so destinations are not prefetched);
  //  - prefetches: only the source lines prefetch_sites on are prefetched;
  //    stores go through the cache.
  static constexpr int line_sites = host::line_values<stored_t<S>>;
  static constexpr bool by_lines = LineRowTuning<Lattice>::by_lines(sizeof(stored_t<S>));
  static constexpr bool prefetches = !by_lines;
  // Lines that address through m_flat's pointers (bulk_line).
  static constexpr bool lines_by_pointers =
      flat_pointers && by_lines && LineRowTuning<Lattice>::by_pointers;
  static constexpr int prefetch_lines = LineRowTuning<Lattice>::prefetch_lines;
  static constexpr int prefetch_sites = by_lines ? prefetch_lines * line_sites : 64;
  static constexpr int lines_from_llc_quarters =
      LineRowTuning<Lattice>::lines_from_llc_quarters(sizeof(stored_t<S>));

  // Whether host bulk rows over two population buffers of `bytes` in all go
  // a line at a time: beyond lines_from_llc_quarters of the last-level
  // cache (KOLB_LLC_BYTES overrides its size).
  static bool lines_for(std::size_t bytes) {
    const std::size_t cache = host::last_level_cache_bytes(LineRowTuning<Lattice>::llc_cap_bytes);
    return 4 * bytes > std::size_t(lines_from_llc_quarters) * cache;
  }

  // Asks for the source lines of site s (Pull::prefetch, by pointer where
  // lines go by pointers; a row's last lines ask for the next row's first).
  KOLB_HOST_INLINE void prefetch_sources(index_t s) const {
    if constexpr (lines_by_pointers)
      m_pull.prefetch(s, [&](int i) { return m_flat.in.m_p[i] + s; });
    else
      m_pull.prefetch(s);
  }

  // The first x >= x0 of row (y, z) whose outputs start a cache line (x0
  // where none does: the lines are then stored with plain stores).
  int line_start(int z, int y, int x0) const {
    for (int x = x0; x < x0 + line_sites; ++x)
      if (host::line_aligned(&m_dst(m_layout(m_site(x, y, z), 0)))) return x;
    return x0;
  }

  // Which ends of a row a line holds (line_by_pointers).
  static constexpr int kFirstLine = 1, kLastLine = 2;
  // Whether population i takes a replaced lane in a line holding `Ends`:
  // c_x = +1 pulls lane 0 of a row's first line from the x halo, c_x = -1
  // the last lane of its last line.
  template <int Ends>
  static constexpr bool wraps(int i) {
    return ((Ends & kFirstLine) && Lattice::c(i, 0) > 0) ||
           ((Ends & kLastLine) && Lattice::c(i, 0) < 0);
  }

  // Population o's value at its own site s in the source buffer (the
  // pointers of m_flat.in are moved upstream).
  KOLB_HOST_INLINE const stored_t<S>* own(int o, index_t s) const {
    return m_flat.in.m_p[o] + (s - m_pull.m_offset[o]);
  }
};

// The fused step: StreamCollideArgs and a model, nothing else.
template <class Model, class Layout, class MemorySpace>
struct StreamCollide final : StreamCollideArgs<typename Model::lattice_type,
                                               typename Model::scalar_type, Layout, MemorySpace> {
  using Lattice = typename Model::lattice_type;
  using Scalar = typename Model::value_type;
  using S = typename Model::scalar_type;
  using P = Storage<S>;
  using Args = StreamCollideArgs<Lattice, S, Layout, MemorySpace>;
  static constexpr int Q = Lattice::q;
  using Args::kFirstLine;
  using Args::kLastLine;
  using Args::line_sites;
  using Args::lines_by_pointers;
  using Args::m_dst;
  using Args::m_end_first;
  using Args::m_end_last;
  using Args::m_end_walls;
  using Args::m_flat;
  using Args::m_layout;
  using Args::m_open;
  using Args::m_pull;
  using Args::m_site;
  using Args::own;
  using Args::prefetch_sites;
  using Args::prefetch_sources;

  Model m_model;

  template <class Block>
  StreamCollide(const Block& block, const WallTerms<Lattice, Scalar>& wall, const Model& model)
      : Args(block, wall), m_model(model) {}
  StreamCollide(const Args& args, const Model& model) : Args(args), m_model(model) {}
  const Args& args() const { return *this; }
  template <class M>
  using with_model = StreamCollide<M, Layout, MemorySpace>;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    Scalar f[Q];
    const Scalar keep = m_pull(s, f);
    m_model(f);
    // Solid sites store zeros.
    KOLB_UNROLL
    for (int i = 0; i < Q; ++i) m_dst(m_layout(s, i)) = P::template store<Lattice>(keep * f[i], i);
  }
  // Bulk sites [x0, x0 + line_sites) of row (y, z). The prefetch runs on
  // past the row's end into the next row, which a thread takes next: rows
  // are a few lines long, and stopping at the run's end left each row's
  // first lines unprefetched. Into every cache level: a non-temporal
  // prefetch held the fused rows far below their copy probe.
  KOLB_HOST_INLINE void bulk_line(int z, int y, int x0) const {
    const index_t s0 = m_site(x0, y, z);
    prefetch_sources(s0 + prefetch_sites);
    if constexpr (lines_by_pointers) {
      // The end lines out of line, so the steady line's code stays as it was.
      const bool first = x0 == m_end_first, last = x0 + line_sites - 1 == m_end_last;
      if (first || last)
        return m_end_walls ? end_line<true>(s0, first, last, y, z)
                           : end_line<false>(s0, first, last, y, z);
      line_by_pointers<0, false>(s0);
    } else {  // else: nvcc warns of an unreachable loop after a return
      alignas(host::kLineBytes) stored_t<S> out[Q][line_sites];
      KOLB_SIMD
      for (int k = 0; k < line_sites; ++k) {
        const index_t s = s0 + k;
        m_model.collide([&](int i) { return m_pull.bulk(s, i); },
                        [&](int i, Scalar v) { out[i][k] = P::template store<Lattice>(v, i); });
      }
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) {
        stored_t<S>* d = &m_dst(m_layout(s0, i));
        if (host::line_aligned(d) && &m_dst(m_layout(s0 + line_sites - 1, i)) == d + line_sites - 1)
          host::stream_line(d, out[i]);
        else
          for (int k = 0; k < line_sites; ++k) m_dst(m_layout(s0 + k, i)) = out[i][k];
      }
    }
  }

  template <bool Walls>
  KOLB_NOINLINE void end_line(index_t s0, bool first, bool last, int y, int z) const {
    if (first && last)  // one line
      return line_by_pointers<kFirstLine | kLastLine, Walls>(s0, y, z);
    if (first) return line_by_pointers<kFirstLine, Walls>(s0, y, z);
    line_by_pointers<kLastLine, Walls>(s0, y, z);
  }
  // bulk_line on SoA and CSoA (lines_by_pointers). Ends != 0: a row's first
  // and/or last line of rows whose ends take replaced lanes (m_end_first):
  // the populations that would pull from the x halo (wraps) are read from
  // a copy of their line with the halo's lane replaced by their image
  // (Walls false) or by their bounced own opposite population (Walls true).
  template <int Ends, bool Walls>
  KOLB_HOST_INLINE void line_by_pointers(index_t s0, int y = 0, int z = 0) const {
    alignas(host::kLineBytes) stored_t<S> out[Q][line_sites];
    alignas(host::kLineBytes) stored_t<S> wrapped[Ends != 0 ? Q : 1][line_sites];
    if constexpr (Ends != 0) {
      const index_t period = m_end_last - m_end_first + 1;
      // The open sides' values of the lane sites this line holds.
      stored_t<S> open_value[Walls ? 2 : 1][Walls ? Q : 1] = {};
      bool open_lane[2] = {false, false};
      if constexpr (Walls) {
        for (int side = 0; side < 2; ++side) {
          open_lane[side] =
              (Ends & (side == 0 ? kFirstLine : kLastLine)) && m_open.takes(side, y, z);
          if (open_lane[side]) m_open.values(side, y, z, open_value[side]);
        }
      }
      // A plain unrolled loop, not static_for: a host-device function
      // calling this host lambda made nvcc warn (#20013) in every variant.
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) {
        if (!Args::template wraps<Ends>(i)) continue;
        const bool first = Lattice::c(i, 0) > 0;
        const int edge = first ? 0 : line_sites - 1;  // the lane that reads the halo
        const stored_t<S>* p = m_flat.in.m_p[i] + s0;
        if constexpr (Walls) {
          const index_t s = s0 + edge;
          const int side = first ? 0 : 1;
          stored_t<S> v;
          if (m_open.kind[side] != OpenKind::none) {  // the pass filled the others' halo
            v = open_lane[side] ? open_value[side][i] : p[edge];
          } else {
            const material_t m = m_pull.m_material(s + m_pull.m_offset[i]);
            v = P::template bounce<Lattice>(*own(Lattice::opposite(i), s), m_pull.m_wall(m, i), i);
          }
          host::copy_line_with_lane(wrapped[i], p, edge, v);
        } else {
          const index_t image = edge + (first ? period : -period);
          host::copy_line_with_lane(wrapped[i], p, edge, p[image]);
          // The next row's images lie at its far end, which no prefetch
          // reaches before its first line: cold, they stalled that line.
          if (first) host::prefetch_read(p + m_site.sy + image);
        }
      }
      if constexpr (Walls && (Ends & kFirstLine)) {
        // The own populations the next row's first line and this row's last
        // line bounce lie a row or a plane from any line the rows around
        // read just before: asked for here.
        // An open side's lanes read the stash instead (prefetch_next).
        const bool open0 = m_open.kind[0] != OpenKind::none,
                   open1 = m_open.kind[1] != OpenKind::none;
        KOLB_UNROLL
        for (int i = 0; i < Q; ++i) {
          if (Lattice::c(i, 0) > 0 && !open0)
            host::prefetch_read(own(Lattice::opposite(i), s0 + m_site.sy));
          else if (Lattice::c(i, 0) < 0 && m_end_last >= 0 && !open1)
            host::prefetch_read(own(Lattice::opposite(i), s0 + period - 1));
        }
        m_open.prefetch_next(y, z);
      }
    }
    // SoA, CSoA: population i of site s at i * stride + s, so each
    // population's line starts one stride after the last, and population
    // 0 and the stride decide the alignment of all. Loads, prefetches and
    // stores go through m_flat's pointers, the output pointer and stride
    // held in locals: a streaming store may alias the functor's members,
    // and through the View gcc reloaded both, rebuilt the address and
    // tested it again after every store (perf/host_pass/loop_instructions.py
    // counts a line's instructions).
    KOLB_SIMD
    for (int k = 0; k < line_sites; ++k) {
      const index_t s = s0 + k;
      m_model.collide(
          [&](int i) {
            if (Args::template wraps<Ends>(i))  // i is a literal once unrolled
              return P::template load<Lattice>(wrapped[Ends != 0 ? i : 0][k], i);
            return P::template load<Lattice>(m_flat.in.m_p[i][s], i);
          },
          [&](int i, Scalar v) { out[i][k] = P::template store<Lattice>(v, i); });
    }
    if constexpr (Walls && Ends != 0) {  // the open lanes' stash for the next step
      const index_t row = m_open.row(y, z);
      if ((Ends & kFirstLine) && m_open.takes(0, y, z))
        for (int k = 0; k < Q; ++k) m_open.stash[0][row + k] = out[k][0];
      if ((Ends & kLastLine) && m_open.takes(1, y, z))
        for (int k = 0; k < Q; ++k) m_open.stash[1][row + k] = out[k][line_sites - 1];
    }
    stored_t<S>* const d = m_flat.out.m_p[0] + s0;
    const index_t stride = m_flat.out.m_p[1] - m_flat.out.m_p[0];
    if (host::line_aligned(d) && host::line_aligned(d + stride)) {
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i) host::stream_line(d + i * stride, out[i]);
    } else {
      KOLB_UNROLL
      for (int i = 0; i < Q; ++i)
        for (int k = 0; k < line_sites; ++k) d[i * stride + k] = out[i][k];
    }
  }

  // A site in a bulk run (fluid, all upstream neighbours fluid).
  KOKKOS_FORCEINLINE_FUNCTION void bulk(int z, int y, int x) const {
    const index_t s = m_site(x, y, z);
    m_model.collide(
        [&](int i) { return m_pull.bulk(s, i); },
        [&](int i, Scalar v) { m_dst(m_layout(s, i)) = P::template store<Lattice>(v, i); });
  }

  // bulk() in flat launches on SoA and CSoA: the same values through m_flat.
  KOKKOS_FORCEINLINE_FUNCTION void bulk_flat(int z, int y, int x) const {
    const std::uint32_t s = m_flat.site(x, y, z);
    m_model.collide([&](int i) { return P::template load<Lattice>(m_flat.in(i, s), i); },
                    [&](int i, Scalar v) { m_flat.out(i, s) = P::template store<Lattice>(v, i); });
  }
};

}  // namespace kolb
