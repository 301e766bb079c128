#pragma once
// Addresses for one-thread-per-site launches (device parts) on layouts
// whose populations are contiguous arrays (SoA, CSoA: population i of site
// s at i * stride + s): one pointer per population, each already moved by
// that access's fixed site offset, and a 32-bit site index, so that a
// value's address is one multiply-add (IMAD.WIDE on NVIDIA GPUs). Through a
// View and the layout's 64-bit index each of a site's 2 Q accesses cost
// about six integer instructions, half of a pull kernel's
// (docs/gpu-clusters.md, "32-bit device addresses"). Host row loops keep the
// View path, which they vectorise.

#include <kolb/block/extents.hpp>
#include <kolb/lattice/slot.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kolb {

// Whether functors on this layout give their flat (device) launches the
// pointer path (`bulk_flat`).
template <class Layout>
inline constexpr bool has_population_pointers_v = Layout::contiguous_populations;

// A site's storage index in 32 bits: x + sy y + sz z. `fits` is false for
// blocks of 2^32 sites or more (halos included), which flat launches refuse
// (for_each_site_split); host rows never use it.
struct SiteIndex32 {
  std::uint32_t sy = 0, sz = 0;
  bool fits = true;

  SiteIndex32() = default;
  SiteIndex32(const SiteIndex& site, index_t sites)
      : sy(std::uint32_t(site.sy)),
        sz(std::uint32_t(site.sz)),
        fits(sites <= index_t(UINT32_MAX)) {}
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t operator()(int x, int y, int z) const {
    return std::uint32_t(x) + sy * std::uint32_t(y) + sz * std::uint32_t(z);
  }
};

// Q pointers into one buffer: pointer i addresses population slot(i)
// moved by shift(i) sites, so (*this)(i, s) is that population's value at
// site s + shift(i).
template <class T, int Q>
struct PopulationPointers {
  Kokkos::Array<T*, Q> m_p{};

  PopulationPointers() = default;
  // Throws std::logic_error if a pointer would leave the buffer (a slot 0
  // with a negative shift: no kernel asks for one).
  template <class View, class Layout, class Slot, class Shift>
  PopulationPointers(const View& f, const Layout& layout, const Slot& slot, const Shift& shift) {
    static_assert(has_population_pointers_v<Layout>, "population i of site s at i * stride + s");
    for (int i = 0; i < Q; ++i) {
      const index_t at = layout(shift(i), slot(i));
      if (at < 0 || at >= index_t(f.extent(0)))
        throw std::logic_error("PopulationPointers: population " + std::to_string(i) +
                               " starts outside its buffer");
      m_p[i] = f.data() + at;
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int i, std::uint32_t s) const { return m_p[i][s]; }
};

// What a functor's flat launch (bulk_flat) addresses through: the 32-bit
// site index, and the Q pointers each site reads from (in) and writes to
// (out). A member of each functor with a flat path (StreamCollide, Propagate,
// Collide, AAPull), filled on the host by their constructors on SoA and CSoA
// and left empty on other layouts. Host-space functors fill it too (2 Q
// pointers per launch), though host rows never read it, so that
// test_flat_pointers can check bulk_flat against bulk on the CPU.
template <class In, class Out, int Q>
struct FlatAddresses {
  SiteIndex32 site;
  PopulationPointers<In, Q> in;
  PopulationPointers<Out, Q> out;

  FlatAddresses() = default;
  template <class Block>
  FlatAddresses(const Block& block, const PopulationPointers<In, Q>& in_,
                const PopulationPointers<Out, Q>& out_)
      : site(block.site_index(), block.extents().num_sites()), in(in_), out(out_) {}
};

// Pointers to each site's own Q populations (no shift): population i in
// slot i, or in slot opposite(i) where `swapped` (the AA local step's stores).
template <class Lattice, class View, class Layout>
PopulationPointers<typename View::value_type, Lattice::q> own_populations(const View& f,
                                                                          const Layout& layout,
                                                                          bool swapped = false) {
  return {f, layout, [&](int i) { return stored_slot<Lattice>(i, swapped); },
          [](int) { return index_t(0); }};
}

}  // namespace kolb
