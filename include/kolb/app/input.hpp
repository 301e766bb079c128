#pragma once
// read_case: a YAML case file into a validated Case (src/config.cpp). The
// input layer checks the case against this build too (its compiled
// variants, the tilings of the ranks), so it sits on top of the layers.

#include <kolb/io/case.hpp>

#include <string>
#include <vector>

namespace kolb {

// Reads and validates a case. `overrides` are "dotted.key=value" strings
// applied on top of the file (YAML syntax for the value). Throws ConfigError.
Case read_case(const std::string& path, const std::vector<std::string>& overrides = {});
Case read_case_string(const std::string& yaml, const std::string& name = "<string>",
                      const std::vector<std::string>& overrides = {});

}  // namespace kolb
