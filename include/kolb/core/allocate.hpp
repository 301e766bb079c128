#pragma once
// Large arrays on huge pages. Debian's transparent huge pages are in
// `madvise` mode, so a plain allocation gets 4 KiB pages: a step streams ~2Q
// arrays at once and then pays a page walk per 512 values, and the first
// touch one fault per page. Both helpers ask for huge pages before the first
// touch (Linux host memory; elsewhere they only allocate).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace kolb {

// n values, not initialised: the caller first-touches them (with its own
// launch layout).
template <class View>
View allocate_untouched(const std::string& label, std::size_t n) {
  View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if constexpr (std::is_same<typename View::memory_space, Kokkos::HostSpace>::value) {
    constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t end = begin + n * sizeof(typename View::value_type);
    const std::uintptr_t first = (begin + huge - 1) / huge * huge, last = end / huge * huge;
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
  return v;
}

// n zeros.
template <class View>
View allocate_zeroed(const std::string& label, std::size_t n) {
  View v = allocate_untouched<View>(label, n);
  Kokkos::deep_copy(v, typename View::value_type(0));
  return v;
}

// A host View holding a copy of v (index maps, wall-ghost runs).
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> host_view_of(const std::vector<T>& v,
                                                 const std::string& label) {
  Kokkos::View<T*, Kokkos::HostSpace> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                          v.size());
  for (std::size_t j = 0; j < v.size(); ++j) out(j) = v[j];
  return out;
}

}  // namespace kolb
