// Layout and kernel-path invariance: every compiled layout (AoS, SoA,
// CSoA<VL>, CAoSoA<VL>), with the fused StreamCollide, with separate
// Propagate + Collide, and with in-place AA streaming, must give bit-for-bit
// the populations of the SoA two-buffer fused run, on a case with walls, a
// moving lid, an obstacle, a body force and a periodic axis (odd sizes, so
// rows need padding). After an even number of steps the AA buffer holds the
// post-collision state itself; after an odd number it is reconstructed from
// the streamed populations, exactly unless a moving wall's term is undone.
#include "support/cases.hpp"

#include <kolb/block/block.hpp>
#include <kolb/block/bulk_rows.hpp>
#include <kolb/core/cache_lines.hpp>
#include <kolb/lattice/d3q19.hpp>
#include <kolb/lattice/d3q27.hpp>
#include <kolb/layout/layouts.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// Every layout this build holds for the lattice and precision (ci/test.sh
// builds all six: KOLB_ALL_VARIANTS).
std::vector<kolb::LayoutId> compiled_layouts(const std::string& lattice,
                                             const std::string& precision) {
  std::vector<kolb::LayoutId> out;
  for (const auto& v : kolb::compiled_variants())
    if (v.lattice == kolb::parse<kolb::LatticeId>(lattice) &&
        v.precision == kolb::parse<kolb::Precision>(precision))
      out.push_back(v.layout);
  return out;
}

// --set overrides selecting a layout.
std::vector<std::string> layout_sets(const kolb::LayoutId& v) {
  std::vector<std::string> sets = {"execution.layout=" + kolb::to_string(v.kind)};
  if (v.vector_length > 1)
    sets.push_back("execution.vector_length=" + std::to_string(v.vector_length));
  return sets;
}

struct LayoutInvariance : ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(LayoutInvariance, BitwiseIdenticalPopulations) {
  const auto [lattice, precision] = GetParam();
  KOLB_SKIP_UNLESS_COMPILED(lattice, precision);
  const bool d3 = kolb::test::dim_of(lattice) == 3;
  const std::string yaml =
      "lattice: " + lattice + "\nprecision: " + precision +
      "\ndomain: {size: " + (d3 ? "[37, 11, 9]" : "[37, 23]") +
      "}\nphysics: {tau: 0.7, body_force: " + (d3 ? "[1.0e-5, 0, 0]" : "[1.0e-5, 0]") +
      "}\nboundaries: {x-: periodic, x+: periodic, y-: wall, y+: {type: moving_wall, velocity: " +
      (d3 ? "[0.05, 0, 0.02]}, z-: wall, z+: wall}" : "[0.05, 0]}}") +
      "\nobstacles: [{type: sphere, center: " +
      (d3 ? "[6, 5, 4], radius: 2.5" : "[18, 11], radius: 4") +
      "}]\ninitial: {type: shear_wave, amplitude: 0.02, flow: y, wave: x}\n"
      "run: {steps: 0}\noutput: {folder: unused}\n";
  for (const bool odd : {false, true}) {
    // Odd step counts: resting walls only, so the AA reconstruction is exact.
    const std::vector<std::string> base =
        odd ? std::vector<std::string>{"boundaries.y+=wall"} : std::vector<std::string>{};
    const int steps = odd ? 25 : 26;
    auto reference = kolb::make_domain(kolb::test::make_case(yaml, base));
    reference->advance(steps);
    const auto expected = reference->populations();

    const auto layouts = compiled_layouts(lattice, precision);
    EXPECT_GE(layouts.size(), 2u) << "soa and a clustered layout at least";
    int compared = 0;
    for (const auto& v : layouts)
      for (const std::string kernel : {"fused", "split", "aa"})
        for (const bool beyond_cache : {false, true}) {
          std::vector<std::string> sets = base;
          for (const auto& x : layout_sets(v)) sets.push_back(x);
          sets.push_back(kernel == "aa"      ? "execution.streaming=aa"
                         : kernel == "split" ? "execution.kernel=split"
                                             : "execution.kernel=fused");
          // Beyond the last-level cache fused bulk rows go a line of sites at
          // a time (prefetched; D2Q9 and D3Q19 FP64 and FP32 with
          // non-temporal stores) and in-place rows (AA, split's collide)
          // prefetch a line at a time (RowPrefetch); KOLB_LLC_BYTES=0 takes
          // those paths here (x = 37: whole lines for every precision, and a
          // tail).
          if (beyond_cache) setenv("KOLB_LLC_BYTES", "0", 1);
          auto sim = kolb::make_domain(kolb::test::make_case(yaml, sets));
          sim->advance(steps);
          unsetenv("KOLB_LLC_BYTES");
          const auto got = sim->populations();
          ASSERT_EQ(got.size(), expected.size());
          const std::size_t first_diff = kolb::test::first_difference(got, expected);
          EXPECT_EQ(first_diff, got.size())
              << sim->variant() << " " << kernel << (beyond_cache ? " beyond the cache" : "")
              << " after " << steps << " steps: first difference at population " << first_diff
              << " (" << got[first_diff] << " vs " << expected[first_diff] << ")";
          ++compared;
        }
    EXPECT_EQ(compared, int(6 * layouts.size()));
    // The case must be non-trivial: the flow has moved away from the start.
    EXPECT_GT(reference->observe().kinetic_energy, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, LayoutInvariance,
                         ::testing::Combine(::testing::Values("D2Q9", "D3Q19"),
                                            ::testing::Values("double", "float", "fp16")));

// The layouts whose fused two-buffer rows can start on cache lines
// (pads_rows: one population's sites contiguous, SoA and CSoA) compiled
// for the lattice and precision.
std::vector<kolb::LayoutId> line_row_layouts(const std::string& lattice,
                                             const std::string& precision) {
  std::vector<kolb::LayoutId> out;
  for (const auto& v : compiled_layouts(lattice, precision))
    if (v.kind == kolb::LayoutKind::soa || v.kind == kolb::LayoutKind::csoa) out.push_back(v);
  return out;
}

// Nine steps of `yaml` in `layout` through the split path and, beyond the
// cache (KOLB_LLC_BYTES=0, so the fused rows go by lines), through the
// fused path: the same bits, and a flow that moved. `what` names the case.
void expect_fused_lines_as_split(const std::string& yaml, const kolb::LayoutId& layout,
                                 const std::string& what) {
  auto sets = [&](const char* kernel) {
    std::vector<std::string> out = layout_sets(layout);
    out.push_back(std::string("execution.kernel=") + kernel);
    return out;
  };
  auto reference = kolb::make_domain(kolb::test::make_case(yaml, sets("split")));
  reference->advance(9);
  setenv("KOLB_LLC_BYTES", "0", 1);
  auto lines = kolb::make_domain(kolb::test::make_case(yaml, sets("fused")));
  lines->advance(9);
  unsetenv("KOLB_LLC_BYTES");
  const auto expected = reference->populations(), got = lines->populations();
  ASSERT_EQ(got.size(), expected.size());
  const std::size_t first_diff = kolb::test::first_difference(got, expected);
  EXPECT_EQ(first_diff, got.size())
      << lines->variant() << " " << what << ": first difference at population " << first_diff;
  EXPECT_GT(reference->observe().kinetic_energy, 0.0);
}

// A periodic box whose rows are whole cache lines (32 sites: FP64, FP32
// and 16-bit lines): beyond the cache (KOLB_LLC_BYTES=0) the fused rows wrap
// x themselves, each row's first and last line reading the populations that
// cross x from their images, and no x halo is filled
// (the plan's EndLane::image). Bit for bit the split path, which reads
// halos the per-axis passes filled; with and without a body force (the
// unforced twin of the bulk rows carries the wrap too), in SoA and CSoA.
TEST(WrappedRows, BitwiseIdenticalToHaloFills) {
  for (const std::string lattice : {"D2Q9", "D3Q19"})
    for (const std::string precision : {"double", "float", "fp16"}) {
      const bool d3 = kolb::test::dim_of(lattice) == 3;
      for (const auto& layout : line_row_layouts(lattice, precision))
        for (const std::string force : {"0", "1.0e-5"}) {
          const std::string yaml =
              "lattice: " + lattice + "\nprecision: " + precision +
              "\ndomain: {size: " + (d3 ? "[32, 6, 5]" : "[32, 9]") +
              "}\nphysics: {tau: 0.8, body_force: " +
              (d3 ? "[" + force + ", 0, 0]" : "[" + force + ", 0]") +
              "}\nboundaries: {x-: periodic, x+: periodic, y-: periodic, y+: periodic" +
              (d3 ? ", z-: periodic, z+: periodic}" : "}") +
              "\ninitial: {type: shear_wave, amplitude: 0.05, flow: y, wave: x}\n"
              "run: {steps: 0}\noutput: {folder: unused}\n";
          expect_fused_lines_as_split(yaml, layout, "body force " + force);
        }
    }
}

// A box walled on every face (a moving lid, a sphere touching the low x
// wall, a body force, a uniform flow into the walls at the start) whose
// rows start on cache lines: beyond the cache the fused rows bounce the x
// walls in their end lines and no x face's ghosts are filled
// (the plan's EndLane::wall); 32 sites a row give both ends whole lines, 36
// only the first. Bit for bit the split path, whose pull reads the ghosts
// a pass filled, in SoA and CSoA.
TEST(WalledRows, BitwiseIdenticalToGhostPasses) {
  for (const std::string lattice : {"D2Q9", "D3Q19"})
    for (const std::string precision : {"double", "float", "fp16"}) {
      const bool d3 = kolb::test::dim_of(lattice) == 3;
      for (const auto& layout : line_row_layouts(lattice, precision))
        for (const int nx : {32, 36}) {
          const std::string n = std::to_string(nx);
          const std::string yaml =
              "lattice: " + lattice + "\nprecision: " + precision +
              "\ndomain: {size: " + (d3 ? "[" + n + ", 6, 5]" : "[" + n + ", 9]") +
              "}\nphysics: {tau: 0.8, body_force: " + (d3 ? "[1.0e-5, 0, 0]" : "[1.0e-5, 0]") +
              "}\nboundaries: {x-: wall, x+: wall, y-: wall, y+: {type: moving_wall, velocity: " +
              (d3 ? "[0.05, 0, 0.02]}, z-: wall, z+: wall}" : "[0.05, 0]}}") +
              "\nobstacles: [{type: sphere, center: " +
              (d3 ? "[1.5, 3, 2], radius: 1.5" : "[2, 4], radius: 2") +
              "}]\ninitial: {type: uniform, velocity: " +
              (d3 ? "[0.03, -0.02, 0.01]" : "[0.03, -0.02]") +
              "}\nrun: {steps: 0}\noutput: {folder: unused}\n";
          expect_fused_lines_as_split(yaml, layout, "n_x " + n);
        }
    }
}

// D2Q37: a Rayleigh-Taylor start between thermal walls (one adiabatic, one
// fixed temperature) with gravity, both collisions, fused and split paths.
TEST(LayoutInvarianceD2Q37, BitwiseIdenticalPopulations) {
  const auto layouts = compiled_layouts("D2Q37", "double");
  if (layouts.empty()) GTEST_SKIP() << "D2Q37 not compiled";
  EXPECT_GE(layouts.size(), 2u);
  const std::string yaml = R"(
lattice: D2Q37
domain: {size: [37, 29]}
physics: {collision: bgk, tau: 0.7, gravity: [0, -1.0e-3]}
boundaries: {x-: periodic, x+: periodic, y-: {type: wall, temperature: 1.1}, y+: wall}
initial: {type: rayleigh_taylor, temperature_bottom: 1.1, temperature_top: 0.9,
          interface_width: 2, amplitude: 2, seed: 5}
run: {steps: 0}
output: {folder: unused}
)";
  for (const std::string collision : {"bgk", "regularized"}) {
    const std::vector<std::string> base =
        collision == "bgk" ? std::vector<std::string>{}
                           : std::vector<std::string>{"physics.collision=regularized",
                                                      "physics.tau=[0.7, 0.6, 0.9]"};
    auto reference = kolb::make_domain(kolb::test::make_case(yaml, base));
    reference->advance(21);
    const auto expected = reference->populations();
    EXPECT_GT(reference->observe().kinetic_energy, 0.0);
    // Fused bulk rows go by cache lines (prefetch, non-temporal stores) only
    // beyond the last-level cache; KOLB_LLC_BYTES=0 takes that path here.
    for (const bool lines : {false, true})
      for (const auto& v : layouts)
        for (const std::string kernel : {"fused", "split"}) {
          if (lines)
            setenv("KOLB_LLC_BYTES", "0", 1);
          else
            unsetenv("KOLB_LLC_BYTES");
          std::vector<std::string> sets = base;
          for (const auto& x : layout_sets(v)) sets.push_back(x);
          sets.push_back("execution.kernel=" + kernel);
          auto sim = kolb::make_domain(kolb::test::make_case(yaml, sets));
          sim->advance(21);
          const auto got = sim->populations();
          ASSERT_EQ(got.size(), expected.size());
          const std::size_t first_diff = kolb::test::first_difference(got, expected);
          EXPECT_EQ(first_diff, got.size())
              << sim->variant() << " " << collision << " " << kernel << (lines ? " by lines" : "")
              << ": first difference at population " << first_diff;
        }
    unsetenv("KOLB_LLC_BYTES");
  }
}

// A lid case run AA and two-buffer for 1, 2, 7 and 12 steps: bit for bit
// the same populations. Odd step counts take resting walls only, so the AA
// reconstruction is exact; even ones keep the moving lid.
// `base`: settings of both runs (then no lid is changed).
void expect_aa_matches_two_buffer(const std::string& yaml, const std::string& what,
                                  const std::vector<std::string>& base = {}) {
  for (const int steps : {1, 2, 7, 12}) {
    std::vector<std::string> sets = base;
    if (steps % 2 == 1 && base.empty()) sets.push_back("boundaries.y+=wall");
    auto reference = kolb::make_domain(kolb::test::make_case(yaml, sets));
    reference->advance(steps);
    sets.push_back("execution.streaming=aa");
    auto aa = kolb::make_domain(kolb::test::make_case(yaml, sets));
    aa->advance(steps);
    const auto a = reference->populations(), b = aa->populations();
    const std::size_t k = kolb::test::first_difference(a, b);
    EXPECT_EQ(k, a.size()) << what << ", " << steps << " steps: first difference at population "
                           << k << " of " << a.size();
  }
}

}  // namespace

// Obstacles touching a periodic border (and a wall): a fluid site
// next to the obstacle's periodic image bounces into its own slot, which the
// AA step's periodic push-back once overwrote from a solid source (found by
// the restart tests' case; 4e-3 after one step).
TEST(AAInvariance, ObstacleAcrossPeriodicBorder) {
  for (const auto& [periodic_x, box] : std::vector<std::pair<bool, std::string>>{
           {false, "[{type: box, min: [14, 2, 0], max: [17, 4, 3]}]"},  // at the x+ wall and z-
           {false, "[{type: box, min: [6, 2, 5], max: [10, 5, 7]}]"},   // at z+, inside in x
           {true, "[{type: box, min: [0, 2, 0], max: [3, 4, 3]}]"},     // at x- and z-
       })
    expect_aa_matches_two_buffer(kolb::test::lid_case("D3Q19", periodic_x, "[17, 9, 7]", box),
                                 box + (periodic_x ? " periodic x" : " x walls"));
}

// AA local steps of a part periodic onto itself along x, every row fluid,
// take what the pull pushed into their x halos at their rows' starts
// (Collide::row_start) and fill the x halos at their rows' ends
// (Collide::row_end); the passes after and before the pull skip those. A
// lattice of fewer rows than 4 per thread (rows cut into pieces) keeps the
// passes. With walls along y (pushes from their ghosts stay with the
// ghosts) and in a box periodic along every axis, where the rows next to
// the y and z faces take and fill those halos too (take_yz_halos_in_rows):
// there a Taylor-Green field varies along every axis, so a value taken from
// or put into the wrong row differs. Boxes one and two rows high have rows
// that are the image of halo rows on both sides. Rows by sites, and by
// lines with prefetches (KOLB_LLC_BYTES=0; row_last before the last line).
TEST(AAInvariance, HalosFilledByTheLocalRows) {
  for (const bool lines : {false, true}) {
    if (lines) setenv("KOLB_LLC_BYTES", "0", 1);
    for (const auto& [lattice, size] :
         std::vector<std::pair<std::string, std::string>>{{"D3Q19", "[17, 9, 7]"},
                                                          {"D3Q19", "[16, 1, 2]"},
                                                          {"D2Q9", "[23, 11]"},
                                                          {"D2Q9", "[256, 2]"},
                                                          {"D2Q9", "[24, 1]"}}) {
      const std::string yaml = kolb::test::lid_case(lattice, true, size, "[]");
      const std::string what = lattice + " " + size + (lines ? " by lines" : "");
      const std::vector<std::string> periodic = {"boundaries.y-=periodic",
                                                 "boundaries.y+=periodic"};
      expect_aa_matches_two_buffer(yaml, what);
      expect_aa_matches_two_buffer(yaml, what + " periodic", periodic);
      auto taylor_green = periodic;
      taylor_green.push_back(kolb::test::dim_of(lattice) == 3
                                 ? "initial={type: taylor_green_3d, amplitude: 0.02}"
                                 : "initial={type: taylor_green, amplitude: 0.02}");
      expect_aa_matches_two_buffer(yaml, what + " periodic Taylor-Green", taylor_green);
    }
    unsetenv("KOLB_LLC_BYTES");
  }
}

// Population strides (layout/population_stride.hpp): every array of the
// SoA-like layouts starts on a cache line, and the arrays spread evenly over
// the 64-byte slots of a 4 KiB page: no two share a slot or sit fewer than
// 64 / Q slots apart, where a store to one and a load from another one line
// on would alias. CSoA clusters longer than a line (FP64 CSoA16) do not
// change that: D3Q19's arrays sit 3 lines apart in every layout. Among the
// site counts, those whose padding to 64 values put every array on one slot
// before: 68040 (162 x 42 x 10, D3Q19 160x40x8, FP64), 128^3 (D3Q19 126^3),
// 2048^2 (D2Q9 2046^2) and 1024 x 64 (D2Q9 1022x62); the rest are ordinary
// sizes.
template <class Layout>
void expect_spread_page_slots(const char* name) {
  for (const long long sites : {68040LL, 128LL * 128 * 128, 2048LL * 2048, 1024LL * 64,
                                130LL * 130 * 130, 258LL * 258, 2050LL * 2050, 1000LL, 7LL})
    for (const int bytes : {2, 4, 8})
      for (const int q : {9, 19, 37}) {
        const Layout layout(sites, q, bytes);
        const long long stride = layout(0, 1) - layout(0, 0);
        const int slots = 4096 / 64;
        const int spacing = std::max(1, slots / q);  // in 64-byte lines
        const std::string what = std::string(name) + " (" + std::to_string(sites) + " sites, " +
                                 std::to_string(bytes) + " bytes, Q " + std::to_string(q) + ")";
        EXPECT_GE(stride, sites) << what;
        EXPECT_LT(stride * bytes, sites * bytes + 64 + 4096) << what << ": padding";
        EXPECT_EQ(layout.allocation_size(), stride * q) << what;
        std::vector<int> line(q);  // q <= slots: every array has a slot of its own
        for (int i = 0; i < q; ++i) {
          const long long offset = (layout(0, i) - layout(0, 0)) * bytes;
          ASSERT_EQ(offset % 64, 0) << what << ": population " << i;
          line[i] = int(offset % 4096 / 64);
        }
        for (int i = 0; i < q; ++i)
          for (int j = 0; j < q; ++j) {
            if (i == j) continue;
            const int ahead = ((line[j] - line[i]) % 64 + 64) % 64;  // j's slot, lines after i's
            EXPECT_GE(ahead, spacing) << what << ": population " << j << " starts " << ahead
                                      << " lines after " << i << " in the page";
          }
      }
}

TEST(PopulationStride, ArraysSpreadOverPageSlots) {
  expect_spread_page_slots<kolb::SoA>("SoA");
  expect_spread_page_slots<kolb::CSoA8>("CSoA8");
  expect_spread_page_slots<kolb::CSoA16>("CSoA16");
}

// Aligned rows (BlockPart's host SoA and CSoA parts of two-buffer runs):
// rows padded to whole lines (and clusters) and the arrays shifted by
// aligned_row_lead start every row's first interior site on a cache line,
// in every population array of both buffers, and the last site of the
// block stays inside the view.
template <class S, class Layout>
void expect_aligned_rows(const std::string& what) {
  using Lattice = kolb::D3Q19;
  using Stored = kolb::stored_t<S>;
  constexpr int line = kolb::host::line_values<Stored>;
  const kolb::Extents e({37, 11, 9}, Lattice::halo, Lattice::dim,
                        std::max(line, Layout::vector_length));
  const int lead = kolb::aligned_row_lead<Stored>(Lattice::halo);
  const kolb::Block<Lattice, S, Layout, Kokkos::HostSpace> b(e, "aligned", 2, true, lead);
  EXPECT_EQ(e.row_length % line, 0) << what;
  EXPECT_EQ(e.row_length % Layout::vector_length, 0) << what;
  for (const auto& f : {b.current(), b.next()}) {
    EXPECT_EQ(f.extent(0), std::size_t(b.layout().allocation_size())) << what;
    EXPECT_LT(b.layout()(e.num_sites() - 1, Lattice::q - 1), kolb::index_t(f.extent(0))) << what;
    int misaligned = 0;
    for (int z = 0; z < e.ext(2); ++z)
      for (int y = 0; y < e.ext(1); ++y)
        for (int i = 0; i < Lattice::q; ++i)
          misaligned +=
              !kolb::host::line_aligned(&f(b.layout()(e.site_index()(e.halo[0], y, z), i)));
    EXPECT_EQ(misaligned, 0) << what << ": rows whose first interior site starts no line";
  }
}

template <class Layout>
void expect_aligned_rows_every_precision(const std::string& layout) {
  expect_aligned_rows<double, Layout>(layout + " FP64");
  expect_aligned_rows<float, Layout>(layout + " FP32");
  expect_aligned_rows<kolb::fp16, Layout>(layout + " 16-bit storage");
}

TEST(AlignedRows, EveryRowsFirstInteriorSiteStartsALine) {
  expect_aligned_rows_every_precision<kolb::SoA>("SoA");
  expect_aligned_rows_every_precision<kolb::CSoA8>("CSoA8");
  expect_aligned_rows_every_precision<kolb::CSoA16>("CSoA16");
}

// Which parts pad their rows (the plan's RowStorage), seen from the size
// of a Domain's population allocations (Kokkos' allocate hook): host SoA
// and CSoA parts of fused two-buffer runs whose buffers exceed the cache
// (KOLB_LLC_BYTES=0 here) do; in the cache, in place (AA), with the split
// kernel, or with a population's sites apart (AoS, CAoSoA), the same
// lattice is not padded, nor are rows shorter than a line.
std::vector<std::uint64_t>* g_population_allocations = nullptr;

void record_population_allocation(const Kokkos::Tools::SpaceHandle, const char* label, const void*,
                                  const std::uint64_t bytes) {
  const std::string name(label);
  if (g_population_allocations && name.size() > 3 && name.substr(name.size() - 3) == ".f0")
    g_population_allocations->push_back(bytes);
}

// Bytes of the first population array of a Domain of `sets`, with the cache
// taken to be `llc` bytes.
std::uint64_t population_array_bytes(const std::vector<std::string>& sets, const char* llc) {
  const std::string yaml = R"(
lattice: D3Q19
precision: double
domain: {size: [37, 11, 9]}
physics: {tau: 0.8}
boundaries: {x-: periodic, x+: periodic, y-: periodic, y+: periodic, z-: periodic, z+: periodic}
initial: {type: uniform, velocity: [0.01, 0, 0]}
run: {steps: 0}
output: {folder: unused}
)";
  std::vector<std::uint64_t> sizes;
  g_population_allocations = &sizes;
  setenv("KOLB_LLC_BYTES", llc, 1);
  Kokkos::Tools::Experimental::set_allocate_data_callback(record_population_allocation);
  kolb::make_domain(kolb::test::make_case(yaml, sets));
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  unsetenv("KOLB_LLC_BYTES");
  g_population_allocations = nullptr;
  EXPECT_EQ(sizes.size(), 1u) << "one part, one first population array";
  return sizes.empty() ? 0 : sizes.front();
}

TEST(AlignedRows, OnlyFusedTwoBufferSoAAndCSoAPartsBeyondTheCachePad) {
  KOLB_SKIP_UNLESS_COMPILED("D3Q19", "double");
  if (!std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value)
    GTEST_SKIP() << "one block runs on the accelerator here, whose rows are never padded";
  const std::vector<std::string> fused = {"execution.layout=soa", "execution.kernel=fused"};
  const std::uint64_t in_cache = population_array_bytes(fused, "1G");
  // 37 + 2 halo sites a row, 13 x 11 rows: padded to 40 (whole FP64 lines).
  const std::uint64_t row_padding = 19 * (40 - 39) * 13 * 11 * sizeof(double);
  EXPECT_GE(population_array_bytes(fused, "0"), in_cache + row_padding);
  EXPECT_EQ(population_array_bytes({"execution.layout=soa", "execution.streaming=aa"}, "0"),
            in_cache);
  EXPECT_EQ(population_array_bytes({"execution.layout=soa", "execution.kernel=split"}, "0"),
            in_cache);
  // Rows shorter than a line (7 sites, FP64) store no whole line.
  const std::vector<std::string> short_rows = {"execution.layout=soa", "execution.kernel=fused",
                                               "domain.size=[7, 11, 9]"};
  EXPECT_EQ(population_array_bytes(short_rows, "0"), population_array_bytes(short_rows, "1G"));
  for (const auto& v : compiled_layouts("D3Q19", "double")) {
    if (v.kind == kolb::LayoutKind::soa) continue;
    std::vector<std::string> sets = layout_sets(v);
    sets.push_back("execution.kernel=fused");
    const std::uint64_t padded = population_array_bytes(sets, "0"),
                        plain = population_array_bytes(sets, "1G");
    const std::string what = kolb::to_string(v.kind) + std::to_string(v.vector_length);
    if (v.kind == kolb::LayoutKind::csoa) {
      // Rows of 39 sites are whole clusters of 40 (CSoA8) or 48 (CSoA16)
      // sites, whole FP64 lines already: only the lead is added.
      const int lead = kolb::aligned_row_lead<double>(kolb::D3Q19::halo);
      EXPECT_EQ(padded, plain + lead * sizeof(double)) << what;
    } else {
      EXPECT_EQ(padded, plain) << what;
    }
  }
}

// Rows stored without x halos (fully periodic fused storage) wrap x: a
// site's upstream neighbour across x is the row's other end. One solid site
// at the high x end; each row's bulk run must be the longest run of sites
// whose upstream neighbours, wrapped in x, are all fluid. D3Q27's corner
// velocities pull across x and y and z at once.
template <class Lattice>
void expect_wrapped_bulk_rows() {
  const int n = 8;
  const kolb::Extents e({n, 4, 4}, Lattice::halo, 3, 1, 0, /*x_halo=*/false);
  Kokkos::View<kolb::material_t*, Kokkos::HostSpace> mat("mat", e.num_sites());
  const kolb::SiteIndex site = e.site_index();
  mat(site(n - 1, 2, 2)) = kolb::kSolid;
  const kolb::BulkRows rows = kolb::find_bulk_rows<Lattice>(
      e, Kokkos::View<const kolb::material_t*, Kokkos::HostSpace>(mat));
  EXPECT_FALSE(rows.whole);
  for (int z = 1; z <= 4; ++z)
    for (int y = 1; y <= 4; ++y) {
      int best_begin = 0, best_end = 0, begin = -1;
      for (int x = 0; x <= n; ++x) {
        bool bulk = x < n && mat(site(x, y, z)) == kolb::kFluid;
        for (int i = 0; bulk && i < Lattice::q; ++i) {
          const int xn = (x - Lattice::c(i, 0) + n) % n;
          bulk = mat(site(xn, y - Lattice::c(i, 1), z - Lattice::c(i, 2))) == kolb::kFluid;
        }
        if (bulk && begin < 0) begin = x;
        if (!bulk && begin >= 0) {
          if (x - begin > best_end - best_begin) best_begin = begin, best_end = x;
          begin = -1;
        }
      }
      EXPECT_EQ(rows(y, z, 0), best_begin) << "row y " << y << " z " << z;
      EXPECT_EQ(rows(y, z, 1), best_end) << "row y " << y << " z " << z;
    }
  // The row the corner (1, 1, 1) pulls into across x loses its first site.
  if (Lattice::q == 27) {
    EXPECT_EQ(rows(3, 3, 0), 1);
  }
}

TEST(BulkRows, WrapXWithoutXHalos) {
  expect_wrapped_bulk_rows<kolb::D3Q19>();
  expect_wrapped_bulk_rows<kolb::D3Q27>();
}

// Rows stored without x halos (RowStorage::aligned_without_x_halo), seen from
// the population allocation: a fused SoA part beyond the cache, periodic
// onto itself on every axis, all fluid, n_x a whole number of lines, keeps
// 32 sites a row; in the cache, with walls, with an obstacle or with rows
// not whole lines, its rows keep their x halos (and their padding). The
// results are WrappedRows' (bit for bit the split path).
TEST(AlignedRows, FullyPeriodicFluidPartsDropTheirXHalos) {
  KOLB_SKIP_UNLESS_COMPILED("D3Q19", "double");
  if (!std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value)
    GTEST_SKIP() << "one block runs on the accelerator here, whose rows are never padded";
  auto bytes_of = [](int row, int lead = 0) {  // 13 x 11 rows of `row` stored sites
    return std::uint64_t(kolb::SoA(row * 13 * 11, 19, sizeof(double)).allocation_size() + lead) *
           sizeof(double);
  };
  const int lead = kolb::aligned_row_lead<double>(kolb::D3Q19::halo);
  const std::vector<std::string> fused = {"execution.layout=soa", "execution.kernel=fused",
                                          "domain.size=[32, 11, 9]"};
  EXPECT_EQ(population_array_bytes(fused, "0"), bytes_of(32));
  EXPECT_EQ(population_array_bytes(fused, "1G"), bytes_of(34));
  auto with = [&](const std::vector<std::string>& more) {
    std::vector<std::string> sets = fused;
    sets.insert(sets.end(), more.begin(), more.end());
    return sets;
  };
  EXPECT_EQ(population_array_bytes(with({"boundaries.y-=wall", "boundaries.y+=wall"}), "0"),
            bytes_of(40, lead));
  EXPECT_EQ(population_array_bytes(
                with({"obstacles=[{type: sphere, center: [16, 5, 4], radius: 2}]"}), "0"),
            bytes_of(40, lead));
  EXPECT_EQ(population_array_bytes(with({"domain.size=[36, 11, 9]"}), "0"), bytes_of(40, lead));
}

// The cache size the line rule compares against (StreamCollide): a kernel's
// cap bounds what sysfs reports, and KOLB_LLC_BYTES overrides both.
TEST(LastLevelCache, CapBoundsTheDetectedSizeAndTheOverrideWins) {
  unsetenv("KOLB_LLC_BYTES");
  const std::size_t detected = kolb::host::last_level_cache_bytes();
  ASSERT_GT(detected, 0u);
  EXPECT_EQ(kolb::host::last_level_cache_bytes(detected / 2), detected / 2);
  EXPECT_EQ(kolb::host::last_level_cache_bytes(2 * detected), detected);
  setenv("KOLB_LLC_BYTES", "1G", 1);
  EXPECT_EQ(kolb::host::last_level_cache_bytes(std::size_t(32) << 20), std::size_t(1) << 30);
  unsetenv("KOLB_LLC_BYTES");
}
