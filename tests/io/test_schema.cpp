// The schema (app/schema.hpp) is the one list of a case file's keys: the
// user guide's key tables are it, read_case accepts its keys and rejects
// any other with the section's list.
#include "support/cases.hpp"

#include <kolb/app/schema.hpp>

#include <gtest/gtest.h>

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
        << "the docs' table of '" << section.name << "' differs from `kolb schema`; it is:\n"
        << kolb::schema_markdown(section);
  }
}

TEST(Schema, ReadCaseTakesTheSchemaKeysAndNoOther) {
  const std::string yaml =
      "lattice: D2Q9\ndomain: {size: [8, 8]}\nphysics: {tau: 0.8}\nboundaries: {x-: periodic, "
      "x+: periodic, y-: wall, y+: wall}\nrun: {steps: 2}\noutput: {folder: unused}\n";
  for (const std::string section : {"physics", "run", "output", "execution"}) {
    const auto keys = kolb::schema_keys(section);
    EXPECT_FALSE(keys.empty());
    try {
      kolb::test::make_case(yaml, {section + ".no_such_key=1"});
      ADD_FAILURE() << section << ".no_such_key was accepted";
    } catch (const kolb::ConfigError& e) {
      // The error lists the section's keys: the schema's.
      for (const auto& k : keys) EXPECT_NE(e.problem().find(k), std::string::npos) << e.what();
    }
  }
  // A collision's own key is in the physics section: TRT's magic.
  const auto physics = kolb::schema_keys("physics");
  EXPECT_NE(std::find(physics.begin(), physics.end(), "magic"), physics.end());
}

}  // namespace
