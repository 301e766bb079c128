// The schema (app/schema.hpp) is the one list of a case file's keys: the
// user guide's key tables are it, read_case accepts its keys and rejects
// any other with the section's list.
#include "support/cases.hpp"

#include <kolb/app/schema.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {

std::string read_doc(const std::string& name) {
  const char* root = std::getenv("KOLB_SOURCE_DIR");
  std::ifstream in(std::string(root ? root : ".") + "/docs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The table between "<!-- schema: NAME -->" and "<!-- end schema -->" of
// the docs that hold it, or "" (found: how many docs hold the marker).
std::string documented(const std::string& section, int& found) {
  const std::string open = "<!-- schema: " + section + " -->\n", close = "<!-- end schema -->";
  std::string table;
  found = 0;
  for (const char* doc : {"user-guide.md", "thermal.md"}) {
    const std::string text = read_doc(doc);
    const auto a = text.find(open);
    if (a == std::string::npos) continue;
    ++found;
    const auto b = text.find(close, a);
    table = text.substr(a + open.size(), b == std::string::npos ? 0 : b - a - open.size());
  }
  return table;
}

TEST(Schema, EverySectionIsTheDocsTable) {
  for (const auto& section : kolb::case_schema()) {
    int found = 0;
    const std::string table = documented(section.name, found);
    EXPECT_EQ(found, 1) << "docs/user-guide.md or docs/thermal.md must hold <!-- schema: "
                        << section.name << " --> once";
    EXPECT_EQ(table, kolb::schema_markdown(section))
        << "the docs' table of '" << section.name
        << "' differs from `kolb schema` (tools/schema_docs.py build/bin/kolb writes it)";
  }
}

TEST(Schema, ReadCaseTakesTheSchemaKeysAndNoOther) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  const std::string isothermal =
      "lattice: D2Q9\ndomain: {size: [8, 8]}\nphysics: {tau: 0.8}\nboundaries: {x-: periodic, "
      "x+: periodic, y-: wall, y+: wall}\nrun: {steps: 2}\noutput: {folder: unused}\n";
  const std::string thermal =
      "lattice: D2Q37\ndomain: {size: [16, 16]}\nphysics: {tau: 0.8}\nboundaries: {x-: "
      "periodic, x+: periodic, y-: periodic, y+: periodic}\nrun: {steps: 2}\noutput: {folder: "
      "unused}\n";
  int tested = 0;
  for (const auto& section : kolb::case_schema()) {
    // The section's YAML path: "top level" is the root, "physics (D2Q37)"
    // the thermal lattice's physics.
    const bool d2q37 = section.name == "physics (D2Q37)";
    if (d2q37 && !kolb::test::compiled("D2Q37", "double")) continue;
    const std::string path = section.name == "top level" ? ""
                             : d2q37                     ? "physics."
                                                         : section.name + ".";
    const auto keys = kolb::schema_keys(section.name);
    EXPECT_FALSE(keys.empty()) << section.name;
    try {
      kolb::test::make_case(d2q37 ? thermal : isothermal, {path + "no_such_key=1"});
      ADD_FAILURE() << section.name << ": no_such_key was accepted";
    } catch (const kolb::ConfigError& e) {
      // The error lists the section's keys: the schema's.
      for (const auto& k : keys)
        EXPECT_NE(e.problem().find(k), std::string::npos) << section.name << ": " << e.what();
    }
    ++tested;
  }
  EXPECT_GE(tested, 8);
  // A collision's own key is in the physics section: TRT's magic.
  const auto physics = kolb::schema_keys("physics");
  EXPECT_NE(std::find(physics.begin(), physics.end(), "magic"), physics.end());
}

// The defaults the docs print are the ones read_case applies.
TEST(Schema, DefaultsAreWhatReadCaseApplies) {
  KOLB_SKIP_UNLESS_COMPILED("D2Q9", "double");
  auto fallback = [](const std::string& section, const std::string& key) {
    for (const auto& s : kolb::case_schema())
      if (s.name == section)
        for (const auto& k : s.keys)
          if (k.key == key) return k.fallback;
    ADD_FAILURE() << "no key " << section << "." << key;
    return std::string();
  };
  auto quoted = [](const std::string& name) { return "`" + name + "`"; };
  const kolb::Case c = kolb::test::make_case(
      "lattice: D2Q9\ndomain: {size: [8, 8]}\nphysics: {tau: 0.8}\nboundaries: {x-: periodic, "
      "x+: periodic, y-: wall, y+: wall}\nrun: {steps: 2, until_steady: {tolerance: 1e-6}}\n"
      "output: {folder: unused, checkpoint: {every: 10}}\n");
  EXPECT_EQ(fallback("top level", "precision"), quoted(kolb::to_string(c.precision)));
  EXPECT_EQ(fallback("physics", "collision"), quoted(kolb::to_string(c.collision)));
  EXPECT_EQ(fallback("run.until_steady", "every"), std::to_string(c.steady.every));
  EXPECT_EQ(fallback("output", "vtk_every"), std::to_string(c.output.vtk_every));
  EXPECT_EQ(fallback("output", "observables_every"), std::to_string(c.output.observables_every));
  EXPECT_EQ(std::stod(fallback("output", "progress_seconds")), c.output.progress_seconds);
  EXPECT_EQ(fallback("output.checkpoint", "keep"), std::to_string(c.output.checkpoints_kept));
  const kolb::ExecutionSettings& e = c.execution;
  EXPECT_EQ(fallback("execution", "layout"), quoted(kolb::to_string(e.layout)));
  EXPECT_EQ(fallback("execution", "streaming"), quoted(kolb::to_string(e.streaming)));
  EXPECT_EQ(fallback("execution", "kernel"), quoted(kolb::to_string(e.kernel)));
  EXPECT_EQ(fallback("execution", "split_axis"), "`auto`");
  EXPECT_EQ(e.split_axis, -1);
  EXPECT_EQ(fallback("execution", "decomposition"), "`auto`");
  EXPECT_EQ(e.decomposition, (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(fallback("execution", "gpu_aware_mpi"), quoted(e.gpu_aware_mpi ? "true" : "false"));
  // A collision's own keys: TRT's magic (where TRT is compiled in the
  // default layout). Both sides come from trt.hpp's constant: this checks
  // that the schema prints it and read_case applies it.
  const auto trt_built = kolb::compiled_collisions(c.variant());
  if (std::find(trt_built.begin(), trt_built.end(), kolb::Collision::trt) == trt_built.end())
    return;
  const kolb::Case trt = kolb::test::make_case(
      "lattice: D2Q9\ndomain: {size: [8, 8]}\nphysics: {tau: 0.8, collision: trt}\nboundaries: "
      "{x-: periodic, x+: periodic, y-: periodic, y+: periodic}\nrun: {steps: 2}\noutput: "
      "{folder: unused}\n");
  ASSERT_EQ(trt.collision_parameters.size(), 1u);
  EXPECT_EQ(std::stod(fallback("physics", "magic")), trt.collision_parameters[0]);
}

}  // namespace
