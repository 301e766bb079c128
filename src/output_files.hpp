#pragma once
// Helpers for the result files kolb writes (internal to src/): atomic
// writes, CSV tables from JSON rows, and optional gnuplot pictures.

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kolb {

// Writes a file through a temporary file and a rename: `write(out)` puts
// the contents into the open stream. Readers never see half a file, and a
// failed write (full disk, file size limit) throws, naming the file, and
// leaves the previous version intact.
template <class Writer>
void write_atomically_with(const std::string& path, const Writer& write) {
  const std::string tmp = path + ".tmp";
  errno = 0;
  std::ofstream out(tmp, std::ios::binary);
  write(out);
  out.close();
  if (!out) {
    const std::string why = errno ? std::strerror(errno) : "write failed";
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path + ": " + why);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + std::strerror(errno));
}

// The same for `parts` written one after another.
inline void write_atomically(const std::string& path,
                             std::initializer_list<std::string_view> parts) {
  write_atomically_with(path, [&](std::ofstream& out) {
    for (const auto& p : parts) out.write(p.data(), std::streamsize(p.size()));
  });
}
inline void write_atomically(const std::string& path, const std::string& text) {
  write_atomically(path, {std::string_view(text)});
}

// A CSV field: quoted (quotes doubled) when it holds a comma, quote or newline.
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// Flat JSON rows as CSV: the first row's keys are the header; booleans are
// 1/0, arrays their numbers joined by 'x' (sizes: 160x160x160).
inline std::string csv_of(const std::vector<nlohmann::ordered_json>& rows) {
  std::ostringstream out;
  out.precision(9);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const char* sep = "";
    if (r == 0)
      for (const auto& item : rows[r].items()) out << std::exchange(sep, ",") << item.key();
    if (r == 0) out << '\n', sep = "";
    for (const auto& item : rows[r].items()) {
      const auto& v = item.value();
      out << std::exchange(sep, ",");
      if (v.is_string()) out << csv_field(v.get<std::string>());
      if (v.is_boolean()) out << (v.get<bool>() ? 1 : 0);
      if (v.is_number()) out << v.get<double>();
      for (std::size_t k = 0; v.is_array() && k < v.size(); ++k) out << (k ? "x" : "") << v[k];
    }
    out << '\n';
  }
  return out.str();
}

// Runs a gnuplot script when gnuplot is installed (the pictures are
// optional: the data files next to them are the results).
inline void run_gnuplot(const std::string& script, const char* who) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return;
  const std::string cmd = "gnuplot '" + script + "'";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "%s: gnuplot failed\n", who);
}

}  // namespace kolb
