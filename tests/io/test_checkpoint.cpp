// Checkpoints: N steps straight give the same populations, bit for bit, as
// N/2 steps, a checkpoint, a new Domain read from it (another layout or
// host/accelerator split) and N/2 more; damaged or mismatched checkpoints
// are clear errors. (Across streaming schemes a restart is as exact as the
// schemes agree: tests/layout/test_layouts.cpp.)
#include "support/cases.hpp"

#include <kolb/app/checkpoint.hpp>
#include <kolb/domain/domain.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using kolb::test::first_difference;

std::string fresh_folder(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("kolb_test_checkpoint_" + name);
  fs::remove_all(p);
  return p.string();
}

struct Restart {
  std::string name, yaml;
  std::vector<std::string> first, second;  // --set overrides of the two halves
};

// Steps 2 x 11 (AA: 2 x 12, checkpoints at even steps only).
void expect_bitwise_restart(const Restart& r) {
  const kolb::Case probe = kolb::test::make_case(r.yaml, r.first);
  const int half = kolb::checkpoint_step_exact(probe, 11) ? 11 : 12;
  const std::string folder = fresh_folder(r.name);
  auto straight = kolb::make_domain(kolb::test::make_case(r.yaml, r.first));
  straight->advance(2 * half);
  const auto expected = straight->populations();

  std::vector<std::string> first = r.first, second = r.second;
  first.push_back("output.folder=" + folder);
  second.push_back("output.folder=" + folder);
  const kolb::Case c1 = kolb::test::make_case(r.yaml, first);
  auto a = kolb::make_domain(c1);
  a->advance(half);
  const std::string written = kolb::write_checkpoint(c1, *a, kolb::input_digests(c1));
  EXPECT_EQ(kolb::find_checkpoint(folder), written);

  const kolb::Case c2 = kolb::test::make_case(r.yaml, second);
  auto b = kolb::make_domain(c2);
  EXPECT_EQ(kolb::read_checkpoint(written, c2, *b, kolb::input_digests(c2)), half);
  EXPECT_EQ(b->step(), half);
  b->advance(half);
  const auto got = b->populations();
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(first_difference(got, expected), got.size()) << r.name;
  fs::remove_all(folder);
}

bool compiled(const std::string& lattice, const std::string& precision, const std::string& layout) {
  for (const auto& v : kolb::compiled_variants())
    if (kolb::to_string(v) == lattice + "/" + precision + "/" + layout) return true;
  return false;
}

TEST(Checkpoint, RestartIsBitwiseD2Q9) {
  const std::string yaml =
      kolb::test::lid_case("D2Q9", true, "[29, 13]", "[{type: sphere, center: [7, 6], radius: 3}]");
  expect_bitwise_restart({"same", yaml, {}, {}});
  expect_bitwise_restart({"split", yaml, {}, {"execution.host_columns=4"}});
  expect_bitwise_restart({"aa", yaml, {"execution.streaming=aa"}, {"execution.streaming=aa"}});
  if (compiled("D2Q9", "double", "csoa8"))
    expect_bitwise_restart(
        {"layout", yaml, {}, {"execution.layout=csoa", "execution.vector_length=8"}});
  if (compiled("D2Q9", "float", "soa"))
    expect_bitwise_restart(
        {"float", yaml, {"precision=float"}, {"precision=float", "execution.host_columns=3"}});
  if (compiled("D2Q9", "fp16", "soa")) {  // its checkpoints hold the 16-bit values exactly
    expect_bitwise_restart(
        {"fp16", yaml, {"precision=fp16"}, {"precision=fp16", "execution.host_columns=3"}});
    expect_bitwise_restart({"fp16 aa",
                            yaml,
                            {"precision=fp16", "execution.streaming=aa"},
                            {"precision=fp16", "execution.streaming=aa"}});
  }
}

TEST(Checkpoint, RestartIsBitwiseD3Q19) {
  if (!compiled("D3Q19", "double", "soa")) GTEST_SKIP() << "D3Q19 not compiled";
  const std::string yaml = kolb::test::lid_case("D3Q19", false, "[17, 9, 7]",
                                                "[{type: box, min: [14, 2, 0], max: [17, 4, 3]}]");
  expect_bitwise_restart({"d3", yaml, {}, {"execution.host_columns=3"}});
  std::vector<std::string> second = {"execution.streaming=aa"};
  if (compiled("D3Q19", "double", "csoa8"))
    second.insert(second.end(), {"execution.layout=csoa", "execution.vector_length=8"});
  expect_bitwise_restart({"d3_aa", yaml, {"execution.streaming=aa"}, second});
}

TEST(Checkpoint, RestartIsBitwiseWithInletAndOutlet) {
  // Open faces keep no state beyond the populations and the step (the
  // inlet ramps up over 17 steps): a restart mid-ramp goes on bit for bit,
  // in place too.
  const std::string yaml =
      "lattice: D2Q9\nprecision: double\ndomain: {size: [31, 12]}\nphysics: {tau: 0.7}\n"
      "boundaries: {x-: {type: velocity_inlet, velocity: [0.04, 0.005], profile: parabolic, "
      "ramp_steps: 17}, "
      "x+: {type: pressure_outlet, density: 1.002}, y-: wall, y+: wall}\n"
      "obstacles: [{type: sphere, center: [9, 6], radius: 2.5}]\n"
      "run: {steps: 0}\noutput: {folder: unused}\n";
  expect_bitwise_restart({"open", yaml, {}, {"execution.host_columns=4"}});
  expect_bitwise_restart({"open aa", yaml, {"execution.streaming=aa"}, {"execution.streaming=aa"}});
}

TEST(Checkpoint, RestartIsBitwiseD2Q37) {
  if (!compiled("D2Q37", "double", "soa")) GTEST_SKIP() << "D2Q37 not compiled";
  expect_bitwise_restart(
      {"d2q37", kolb::test::thermal_case(24, 40), {}, {"execution.host_columns=6"}});
}

// AA's odd steps are not saved: the run loop takes one more step first.
TEST(Checkpoint, AAOnlyAtEvenSteps) {
  const kolb::Case c = kolb::test::make_case(kolb::test::lid_case("D2Q9", true, "[16, 8]", "[]"),
                                             {"execution.streaming=aa"});
  EXPECT_FALSE(kolb::checkpoint_step_exact(c, 7));
  EXPECT_TRUE(kolb::checkpoint_step_exact(c, 8));
  auto d = kolb::make_domain(c);
  d->advance(1);
  EXPECT_THROW(kolb::write_checkpoint(c, *d, {}), std::logic_error);
}

// Flips one byte of a piece, then truncates it: both are named as corrupt.
TEST(Checkpoint, DamageAndMismatchAreErrors) {
  const std::string folder = fresh_folder("damage");
  const std::string yaml = kolb::test::lid_case("D2Q9", true, "[16, 8]", "[]");
  const kolb::Case c = kolb::test::make_case(yaml, {"output.folder=" + folder});
  auto d = kolb::make_domain(c);
  d->advance(3);
  const std::string dir = kolb::write_checkpoint(c, *d, kolb::input_digests(c));
  auto expect_error = [&](const kolb::Case& with, const std::string& words) {
    auto fresh = kolb::make_domain(with);
    try {
      kolb::read_checkpoint(dir, with, *fresh, kolb::input_digests(with));
      ADD_FAILURE() << "no error; expected one with '" << words << "'";
    } catch (const kolb::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  // Another viscosity is another case; run and output settings are not.
  expect_error(kolb::test::make_case(yaml, {"output.folder=" + folder, "physics.tau=0.8"}),
               "physics differ");
  expect_error(kolb::test::make_case(yaml, {"output.folder=" + folder, "domain.size=[16, 9]"}),
               "domain differ");
  const std::string piece = dir + "/rank_00000.bin";
  {
    std::fstream f(piece, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');
  }
  expect_error(c, "corrupt checkpoint piece");
  fs::resize_file(piece, 64);
  expect_error(c, "corrupt checkpoint piece");
  fs::remove(dir + "/manifest.json");
  EXPECT_THROW(kolb::find_checkpoint(folder), kolb::ConfigError);  // incomplete: not found
  fs::remove_all(folder);
}

// A checkpoint holds digests of what the case reads from files: a restart
// after the STL mesh, the mask or the inlet's profile table was edited is an
// error naming the key; an edit the run does not read (the solid's name, a
// comment) is not, nor is anything for a checkpoint from before the
// digests. The digests are the run's, taken as it read its files: a file
// edited while it ran does not pass for the one it read.
TEST(Checkpoint, EditedInputFilesAreAnotherCase) {
  if (!kolb::test::compiled("D3Q19", "double")) GTEST_SKIP() << "D3Q19 double not compiled";
  const std::string folder = fresh_folder("files");
  fs::create_directories(folder);
  const std::string stl = folder + "/body.stl", pbm = folder + "/mask.pbm",
                    csv = folder + "/inlet.csv";
  // A closed tetrahedron, a 3 x 2 mask (extruded along z) and a table of
  // u_x over y and z at 0, 4, 8.
  struct Files {
    std::string solid = "one", comment = "first";
    double tip = 6, centre = 0.04;
    char pixel = '1';
  };
  const auto write = [&](const Files& f) {
    std::ofstream m(stl);
    m << "solid " << f.solid << "\n";
    const double v[4][3] = {{3, 3, 3}, {f.tip, 3, 3}, {3, 6, 3}, {3, 3, 6}};
    const int faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    for (const auto& t : faces) {
      m << "facet normal 0 0 0\nouter loop\n";
      for (const int k : t) m << "vertex " << v[k][0] << " " << v[k][1] << " " << v[k][2] << "\n";
      m << "endloop\nendfacet\n";
    }
    m << "endsolid " << f.solid << "\n";
    std::ofstream(pbm) << "P1\n# " << f.comment << "\n3 2\n1 1 " << f.pixel << "\n0 1 0\n";
    std::ofstream t(csv);
    t << "# " << f.comment << "\ny, z, ux, uy, uz\n";
    for (const int z : {0, 4, 8})
      for (const int y : {0, 4, 8})
        t << y << ", " << z << ", " << (y == 4 && z == 4 ? f.centre : 0.01) << ", 0, 0\n";
  };
  write({});
  const std::string yaml =
      "lattice: D3Q19\nprecision: double\ndomain: {size: [12, 8, 8]}\nphysics: {tau: 0.8}\n"
      "boundaries: {x-: {type: velocity_inlet, profile: file, file: " +
      csv +
      "}, x+: pressure_outlet, y-: wall, y+: wall, z-: wall, z+: wall}\nobstacles:\n"
      "  - {type: stl, file: " +
      stl + "}\n  - {type: mask, file: " + pbm + ", offset: [8, 1, 0]}\nrun: {steps: 0}\n" +
      "output: {folder: " + folder + "}\n";
  const kolb::Case c = kolb::test::make_case(yaml);
  const kolb::InputDigests read = kolb::input_digests(c);
  ASSERT_EQ(read.size(), 3u);
  auto d = kolb::make_domain(c);
  d->advance(2);
  const std::string dir = kolb::write_checkpoint(c, *d, read);
  const auto restart = [&](const std::string& from, const std::string& words) {
    const kolb::Case now = kolb::test::make_case(yaml);
    auto fresh = kolb::make_domain(now);
    try {
      kolb::read_checkpoint(from, now, *fresh, kolb::input_digests(now));
      if (!words.empty()) ADD_FAILURE() << "no error; expected one with '" << words << "'";
    } catch (const kolb::ConfigError& e) {
      if (words.empty()) ADD_FAILURE() << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  Files f;
  f.solid = "renamed", f.comment = "another comment";
  write(f);
  restart(dir, "");
  f.tip = 7;
  write(f);
  restart(dir, "the file of obstacles[0].file changed");
  f.tip = 6, f.pixel = '0';
  write(f);
  restart(dir, "the file of obstacles[1].file changed");
  f.pixel = '1', f.centre = 0.05;
  write(f);
  restart(dir, "the file of boundaries.x-.file changed");
  // Edited while a run went on: its next checkpoint keeps what it read.
  d->advance(2);
  const std::string later = kolb::write_checkpoint(c, *d, read);
  restart(later, "the file of boundaries.x-.file changed");
  // A manifest without digests (before them) passes whatever the files.
  const std::string manifest = later + "/manifest.json";
  nlohmann::json m = nlohmann::json::parse(std::ifstream(manifest));
  m["case"].erase("files");
  std::ofstream(manifest) << m.dump(2);
  restart(later, "");
  fs::remove_all(folder);
}

// Only the newest `keep` checkpoints stay; an unfinished .tmp is ignored;
// a restart drops the ones after its step.
TEST(Checkpoint, KeepsTheNewest) {
  const std::string folder = fresh_folder("keep");
  const kolb::Case c = kolb::test::make_case(kolb::test::lid_case("D2Q9", true, "[16, 8]", "[]"),
                                             {"output.folder=" + folder});
  auto d = kolb::make_domain(c);
  std::string last;
  for (int k = 0; k < 4; ++k) {
    d->advance(2);
    last = kolb::write_checkpoint(c, *d, {});
  }
  fs::create_directories(folder + "/checkpoints/step_000000100.tmp");
  EXPECT_EQ(kolb::find_checkpoint(folder), last);
  int kept = 0;
  for (const auto& e : fs::directory_iterator(folder + "/checkpoints"))
    kept += e.path().extension() != ".tmp";
  EXPECT_EQ(kept, c.output.checkpoints_kept);
  // A restart from step 6 makes step 8 stale.
  kolb::drop_checkpoints_after(c, 6);
  EXPECT_EQ(kolb::find_checkpoint(folder), folder + "/checkpoints/step_000000006");
  EXPECT_FALSE(fs::exists(last));
  fs::remove_all(folder);
}

}  // namespace
