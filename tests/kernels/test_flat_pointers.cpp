// The flat (device) launches' pointer path on SoA and CSoA
// (block/population_pointers.hpp): bulk_flat must store exactly the bits of
// bulk at every site, for each kernel that has it (two-buffer StreamCollide,
// Propagate, AAPull, AALocal, Collide), D2Q9 and D3Q19, in FP64, FP32 and 16-bit
// storage, forced and unforced.
// Run here on the host: the same functors a GPU part launches.
#include <kolb/kernels/aa.hpp>
#include <kolb/kernels/collide.hpp>
#include <kolb/kernels/propagate.hpp>
#include <kolb/kernels/stream_collide.hpp>
#include <kolb/lattice/d2q9.hpp>
#include <kolb/lattice/d3q19.hpp>
#include <kolb/layout/aos.hpp>
#include <kolb/layout/soa.hpp>
#include <kolb/model/models.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace {

using kolb::index_t;

static_assert(kolb::impl::has_flat_bulk<kolb::AAPull<kolb::IsothermalModel<kolb::D3Q19, double>,
                                                     kolb::SoA, Kokkos::HostSpace>>::value,
              "SoA functors take the pointer path in flat launches");
static_assert(kolb::impl::has_flat_bulk<kolb::AAPull<kolb::IsothermalModel<kolb::D3Q19, double>,
                                                     kolb::CSoA<8>, Kokkos::HostSpace>>::value,
              "so do CSoA ones (padded rows, populations contiguous)");
static_assert(!kolb::impl::has_flat_bulk<kolb::AAPull<kolb::IsothermalModel<kolb::D3Q19, double>,
                                                      kolb::AoS, Kokkos::HostSpace>>::value,
              "other layouts keep bulk()");

template <class Lattice, class S, class Layout = kolb::SoA>
struct Case {
  using L = Lattice;
  using Scalar = S;
  using Lay = Layout;
};
template <class C>
class FlatPointers : public ::testing::Test {};
using Cases =
    ::testing::Types<Case<kolb::D3Q19, double>, Case<kolb::D3Q19, float>,
                     Case<kolb::D3Q19, kolb::fp16>, Case<kolb::D2Q9, double>,
                     Case<kolb::D2Q9, kolb::fp16>, Case<kolb::D3Q19, double, kolb::CSoA<8>>,
                     Case<kolb::D2Q9, float, kolb::CSoA<16>>>;
TYPED_TEST_SUITE(FlatPointers, Cases);

// Two identical blocks of distinct populations near equilibrium (halos too:
// pulls read them), all fluid.
template <class Lattice, class S, class Layout>
struct Pair {
  using BlockT = kolb::Block<Lattice, S, Layout, Kokkos::HostSpace>;
  kolb::Extents e;
  BlockT a, b;

  explicit Pair(int buffers) : e(extents()), a(e, "a", buffers), b(e, "b", buffers) {
    using P = kolb::Storage<S>;
    auto f = Kokkos::create_mirror_view(a.current());
    for (index_t s = 0; s < e.num_sites(); ++s)
      for (int i = 0; i < Lattice::q; ++i)
        f(a.layout()(s, i)) = P::template store<Lattice>(
            kolb::real_t<S>(Lattice::w(i) * (1.0 + 0.02 * ((s * 7 + i * 13) % 17 - 8) / 8.0)), i);
    Kokkos::deep_copy(a.current(), f);
    Kokkos::deep_copy(b.current(), f);
    auto mat = Kokkos::create_mirror_view(a.material());
    Kokkos::deep_copy(mat, kolb::kFluid);
    Kokkos::deep_copy(a.material(), mat);
    Kokkos::deep_copy(b.material(), mat);
  }
  static kolb::Extents extents() { return kolb::Extents({13, 6, 5}, Lattice::halo, Lattice::dim); }

  // Runs make(block) through bulk on a and bulk_flat on b at every interior
  // site; `twin`: through its unforced twin, as a flat launch's bulk pass
  // does without a body force (policy.hpp, with_bulk_functor).
  template <class Make>
  void step(const Make& make, bool twin) {
    using F = decltype(make(a));
    if constexpr (kolb::impl::has_unforced_twin<F>::value) {
      if (twin) return run(kolb::impl::unforced_twin(make(a)), kolb::impl::unforced_twin(make(b)));
    }
    run(make(a), make(b));
  }
  template <class F>
  void run(const F& fa, const F& fb) {
    for (int z = e.halo[2]; z < e.halo[2] + e.n[2]; ++z)
      for (int y = e.halo[1]; y < e.halo[1] + e.n[1]; ++y)
        for (int x = e.halo[0]; x < e.halo[0] + e.n[0]; ++x) {
          fa.bulk(z, y, x);
          fb.bulk_flat(z, y, x);
        }
  }

  // First population where the two blocks' `which` buffers differ (-1: none).
  long first_difference(bool next) {
    auto ha =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), next ? a.next() : a.current());
    auto hb =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), next ? b.next() : b.current());
    for (std::size_t k = 0; k < ha.extent(0); ++k)
      if (std::memcmp(&ha(k), &hb(k), sizeof(ha(k))) != 0) return long(k);
    return -1;
  }
};

template <class Lattice, class S>
kolb::IsothermalModel<Lattice, S> model(bool forced) {
  kolb::IsothermalModel<Lattice, S> m;
  m.collision.rates.omega = 1.0 / 0.62;
  if (forced) m.collision.forcing.g[0] = 1e-5, m.collision.forcing.g[1] = -2e-5;
  return m;
}

TYPED_TEST(FlatPointers, BulkFlatStoresTheBitsOfBulk) {
  using L = typename TypeParam::L;
  using S = typename TypeParam::Scalar;
  using Lay = typename TypeParam::Lay;
  using M = kolb::IsothermalModel<L, S>;
  for (const bool forced : {true, false}) {
    const M m = model<L, S>(forced);
    const std::string what = forced ? "forced" : "unforced";
    const bool twin = !forced;
    const kolb::WallTerms<L, kolb::real_t<S>> wall{};
    {  // two buffers: current -> next
      Pair<L, S, Lay> p(2);
      p.step(
          [&](auto& block) {
            return kolb::StreamCollide<M, Lay, Kokkos::HostSpace>(block, wall, m);
          },
          twin);
      EXPECT_EQ(p.first_difference(true), -1) << "StreamCollide, " << what;
      // Propagate (current -> next), then Collide in place on next.
      p.step(
          [&](auto& block) { return kolb::Propagate<L, S, Lay, Kokkos::HostSpace>(block, wall); },
          false);
      EXPECT_EQ(p.first_difference(true), -1) << "Propagate, " << what;
      p.step([&](auto& block) { return kolb::Collide<M, Lay, Kokkos::HostSpace>(block, m); }, twin);
      EXPECT_EQ(p.first_difference(true), -1) << "Collide, " << what;
    }
    {  // in place: a pull step, then a local step
      Pair<L, S, Lay> p(1);
      p.step([&](auto& block) { return kolb::AAPull<M, Lay, Kokkos::HostSpace>(block, wall, m); },
             twin);
      EXPECT_EQ(p.first_difference(false), -1) << "AAPull, " << what;
      p.step([&](auto& block) { return kolb::AALocal<M, Lay, Kokkos::HostSpace>(block, m); }, twin);
      EXPECT_EQ(p.first_difference(false), -1) << "AALocal, " << what;
    }
  }
}

// 32-bit site indices reach 2^32 - 1: a bigger block is marked, and flat
// launches refuse it (for_each_site_split) instead of wrapping around.
TEST(FlatPointers, SiteIndicesFitBelow2To32Sites) {
  const kolb::SiteIndex site{1 << 16, kolb::index_t(1) << 32};
  EXPECT_TRUE(kolb::SiteIndex32(site, kolb::index_t(UINT32_MAX)).fits);
  EXPECT_FALSE(kolb::SiteIndex32(site, kolb::index_t(UINT32_MAX) + 1).fits);
  const kolb::SiteIndex32 small({100, 100 * 50}, 100 * 50 * 20);
  EXPECT_EQ(small(7, 3, 2), 7u + 300u + 10000u);
}

}  // namespace
