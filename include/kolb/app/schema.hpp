#pragma once
// The case file's keys as one declarative table (src/schema.cpp): each
// section with fixed keys (the top level, domain, physics, run, output,
// execution, ...) lists them with their type, default and meaning.
// read_case accepts exactly a section's keys (any other is an error that
// names them), and the key tables of docs/user-guide.md and docs/thermal.md
// are this table as `kolb schema` prints it (test_schema checks they
// match). boundaries, obstacles and initial are keyed by their entries'
// type; src/config.cpp lists each type's keys.

#include <string>
#include <vector>

namespace kolb {

// One key: its YAML name, type ("number", "[integers]", "choice", ...),
// default (or "required") and meaning, as the docs print them.
struct KeySpec {
  std::string key, type, fallback, meaning;  // fallback: the default, or "required"
};

// A section of the case file and its keys.
struct SchemaSection {
  std::string name;  // "execution", "output.checkpoint", "physics (D2Q37)"
  std::vector<KeySpec> keys;
};

// Every section, in the order the user guide gives them. The isothermal
// physics section holds each collision's own keys (collision_parameters).
const std::vector<SchemaSection>& case_schema();
// The keys of a section (read_case's accepted keys); throws for an unknown one.
std::vector<std::string> schema_keys(const std::string& section);
// A section as a Markdown table: | key | type | default | meaning |.
std::string schema_markdown(const SchemaSection& section);

}  // namespace kolb
