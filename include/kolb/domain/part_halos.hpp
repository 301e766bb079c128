#pragma once
// PartHalos: a part's halo transport: the buffers its faces are packed
// into and unpacked from (any transport: a neighbour elsewhere, MPI), the
// direct copy from a neighbour in the same memory space, and, in place, the
// populations a pull pushed across a face. The halos across the node's split
// axis go through the part's halo lane (a second stream on GPUs), so that
// they move while an update queued before them runs.

#include <kolb/domain/part.hpp>
#include <kolb/domain/spaces.hpp>
#include <kolb/domain/step_plan.hpp>
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/halo.hpp>

#include <array>
#include <stdexcept>
#include <type_traits>

namespace kolb {

template <class BlockType, class Exec>
class PartHalos {
 public:
  using Lattice = typename BlockType::lattice_type;
  using Stored = typename BlockType::stored_type;
  using Layout = typename BlockType::layout_type;
  using memory_space = typename Exec::memory_space;
  using view = Kokkos::View<Stored*, memory_space>;
  using host_view = Kokkos::View<Stored*, NodeStagingSpace>;
  using Crossing = CrossingPopulations<Lattice>;

  PartHalos(const Exec& exec, const Exec& lane, int split)
      : m_exec(exec), m_lane(lane), m_split(split) {}

  // The instance the halos of `axis` go through: the halo lane across the
  // split axis (noted, so that kernels reading them wait for it).
  const Exec& lane(int axis) {
    if (axis != m_split) return m_exec;
    m_queued = true;
    return m_lane;
  }
  // Before a kernel of the update lane reads the halos across the split axis.
  void wait() {
    if (m_queued) fence();
  }
  void fence() {
    m_lane.fence();
    m_queued = false;
  }
  void ordered() { m_queued = false; }

  // The `side` halo across the split axis copied from a neighbour's block
  // in the same memory space (its opposite border).
  void copy(const BlockType& src, const BlockType& dst, Side side, const Crossing& pop) {
    const int a = m_split;
    const Region halo = face_region(dst.extents(), a, side, false);
    Kokkos::Array<int, 3> shift{0, 0, 0};
    shift[a] = face_region(src.extents(), a, opposite(side), true).lo[a] - halo.lo[a];
    for_each_site("kolb::HaloCopy", m_exec, halo,
                  HaloCopy<Lattice, Stored, Layout, memory_space>{
                      src.current(), dst.current(), src.layout(), dst.layout(), src.site_index(),
                      dst.site_index(), shift, pop});
  }

  // The populations `pop` of region r packed (in the part's memory, or
  // copied to host memory with `host`), queued on the lane of `axis`.
  HaloBuffer pack(const BlockType& b, int axis, const Region& r, const Crossing& pop, bool host,
                  view& buffer, host_view& staging) {
    sized(buffer, r, pop);
    const Exec& exec = lane(axis);
    for_each_site("kolb::HaloPack", exec, r, halo_pack<false>(b, buffer, r, pop));
    return buffer_of(exec, buffer, staging, host, true);
  }
  // The buffer a neighbour's packed populations for region r are received
  // into (host memory with `host`).
  HaloBuffer receive_buffer(const Region& r, const Crossing& pop, bool host, view& buffer,
                            host_view& staging) {
    sized(buffer, r, pop);
    return buffer_of(m_exec, buffer, staging, host, false);
  }
  // A neighbour's packed populations written into region r.
  void unpack(const BlockType& b, int axis, const Region& r, const Crossing& pop,
              const HaloBuffer& packed, view& buffer) {
    sized(buffer, r, pop);
    const Exec& exec = lane(axis);
    receive(exec, buffer, packed);
    for_each_site("kolb::HaloUnpack", exec, r, halo_pack<true>(b, buffer, r, pop));
  }
  // In place: where the populations a pull pushes across the split axis'
  // faces into region pushed[side] belong in this part (pushed_across_map),
  // and where those it pushes into periodic halos belong, but those the
  // local step's rows take (`rows`; periodic_push_map). `row_copies`: how
  // many halo values the local rows copy, checked against the map's.
  void map_pushes(const PhasePlan& pull, RowHalos rows,
                  const Kokkos::View<const material_t*, Kokkos::HostSpace>& mat, const BlockType& b,
                  const Region (&pushed)[2], const std::array<bool, 3>& self, index_t row_copies) {
    const Extents& e = b.extents();
    for (const Side side : {Side::left, Side::right})
      if (pull.push[m_split][int(side)] == PushTo::neighbour ||
          pull.push[m_split][int(side)] == PushTo::remote)
        m_pushed_map[int(side)] = Kokkos::create_mirror_view_and_copy(
            memory_space(), pushed_across_map<Lattice>(mat, e, b.layout(), pushed[int(side)],
                                                       m_split, Crossing(m_split, side), self));
    if (rows != RowHalos::all && pull.pushes(PushTo::periodic_pass))
      m_periodic_push = Kokkos::create_mirror_view_and_copy(
          memory_space(), periodic_push_map<Lattice>(
                              mat, e, b.layout(), self,
                              rows == RowHalos::x ? PushedHalos::outside_rows : PushedHalos::all));
    if (rows != RowHalos::none) {
      const auto taken = periodic_push_map<Lattice>(
          mat, e, b.layout(), self,
          rows == RowHalos::all ? PushedHalos::all : PushedHalos::rows_only);
      if (index_t(taken.extent(0) / 2) != row_copies)
        throw std::logic_error("kolb: the AA rows' halo copies differ from the push map's");
    }
  }
  // What the pull pushed into periodic halos, moved to the sites they
  // belong to (halo -> image), but those the local rows take.
  void push_back_periodic(const BlockType& b) {
    const auto& map = m_periodic_push;
    if (map.extent(0) == 0) return;
    for_each_index("kolb::PeriodicPushBack", m_exec, index_t(map.extent(0) / 2),
                   ScatterPushed<Stored, memory_space>{b.current(), b.current(), map});
  }
  // A neighbour's populations pushed across `side` (into region r) written
  // where they belong (map_pushes).
  void scatter(const BlockType& b, const HaloBuffer& packed, Side side, const Region& r,
               const Crossing& pop) {
    view& buffer = pushed_in[int(side)];
    const auto& map = m_pushed_map[int(side)];
    sized(buffer, r, pop);
    const Exec& exec = lane(m_split);
    receive(exec, buffer, packed);
    for_each_index("kolb::ScatterPushed", exec, index_t(map.extent(0) / 2),
                   ScatterPushed<Stored, memory_space>{b.current(), buffer, map});
  }

  // Packed buffers by axis and side, and their host copies (device parts);
  // in place, what a pull pushed across the split axis' faces.
  view send[3][2], recv[3][2], pushed[2], pushed_in[2];
  host_view send_host[3][2], recv_host[3][2], pushed_host[2], pushed_in_host[2];

 private:
  template <bool Unpack>
  static HaloPack<Lattice, Stored, Layout, memory_space, Unpack> halo_pack(const BlockType& b,
                                                                           const view& buffer,
                                                                           const Region& r,
                                                                           const Crossing& pop) {
    return {b.current(), buffer,  b.layout(),        b.site_index(),    r.lo[0],
            r.lo[1],     r.lo[2], r.hi[0] - r.lo[0], r.hi[1] - r.lo[1], pop};
  }

  // A buffer of region r's crossing populations. A host part's buffers are
  // pinned where the accelerator has pinned memory: its copies from and to
  // them then run asynchronously.
  static void sized(view& buffer, const Region& r, const Crossing& pop) {
    const std::size_t n = std::size_t(r.size()) * pop.count;
    if (buffer.size() == n) return;
    const auto label = Kokkos::view_alloc(Kokkos::WithoutInitializing, "kolb::halo_buffer");
    if constexpr (std::is_same<memory_space, Kokkos::HostSpace>::value &&
                  !std::is_same<NodeStagingSpace, Kokkos::HostSpace>::value)
      buffer = host_view(label, n);
    else
      buffer = view(label, n);
  }

  // A packed buffer as the caller asked for it: in the part's memory, or in
  // host memory (staged through `staging` when the part is elsewhere, the
  // copy queued on `exec`).
  static HaloBuffer buffer_of(const Exec& exec, view& buffer, host_view& staging, bool host,
                              bool outgoing) {
    const bool here = std::is_same<memory_space, Kokkos::HostSpace>::value;
    if (!host || here) return {buffer.data(), buffer.size(), buffer.size() * sizeof(Stored), here};
    if (staging.size() != buffer.size())
      staging = host_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kolb::halo_staging"),
                          buffer.size());
    if (outgoing) Kokkos::deep_copy(exec, staging, buffer);
    return {staging.data(), staging.size(), staging.size() * sizeof(Stored), true};
  }

  template <class Memory>
  using unmanaged = Kokkos::View<const Stored*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // Copies a neighbour's packed buffer into `buffer` (unless it is that
  // one), queued on `exec`.
  static void receive(const Exec& exec, view& buffer, const HaloBuffer& packed) {
    if (packed.count != buffer.size())
      throw std::logic_error("kolb: a halo buffer of the wrong size");
    const auto* data = static_cast<const Stored*>(packed.data);
    if (data == buffer.data()) return;
    if (packed.on_host)
      Kokkos::deep_copy(exec, buffer, unmanaged<Kokkos::HostSpace>(data, packed.count));
    else
      Kokkos::deep_copy(exec, buffer, unmanaged<NodeAccelerator::memory_space>(data, packed.count));
  }

  Exec m_exec, m_lane;
  int m_split;
  bool m_queued = false;  // work queued on the lane since its last fence
  Kokkos::View<index_t*, memory_space> m_periodic_push;  // pairs (halo, image storage index)
  Kokkos::View<index_t*, memory_space> m_pushed_map[2];  // pairs (packed, storage index)
};

}  // namespace kolb
