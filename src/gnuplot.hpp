#pragma once
// Runs a gnuplot script when gnuplot is installed (plots are optional: the
// data files next to them are the results).

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kolb {

inline void run_gnuplot(const std::string& script, const char* who) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return;
  const std::string cmd = "gnuplot '" + script + "'";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "%s: gnuplot failed\n", who);
}

}  // namespace kolb
