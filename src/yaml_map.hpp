#pragma once
// Strict YAML reading shared by the case and benchmark parsers (internal to
// src/): a Reader knows where nodes came from (file:line:column or a --set
// override); a Map is a mapping with a fixed set of allowed keys whose typed
// getters fail with a ConfigError naming the key path.

#include <kolb/io/case.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kolb::yaml {

inline std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> d(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = d[0];
    d[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cur = d[j];
      d[j] = std::min({d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return d[b.size()];
}

// How a value from the input is quoted in messages (escaped, at most 40
// characters).
inline std::string quoted(const std::string& s) { return "'" + printable(s, 40) + "'"; }

inline std::string yaml_text(const YAML::Node& n) {
  if (n.IsScalar()) return quoted(n.Scalar());
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "nothing";
}

// Knows where nodes came from: the file, or a --set override.
class Reader {
 public:
  Reader(std::string file, std::map<std::string, std::string> overrides)
      : m_file(std::move(file)), m_overrides(std::move(overrides)) {}

  std::string where(const YAML::Node& n, const std::string& path) const {
    for (const auto& [key, text] : m_overrides)
      if (path == key || path.rfind(key + ".", 0) == 0 || path.rfind(key + "[", 0) == 0)
        return "--set " + text + ": " + path;
    std::string loc = m_file;
    if (n.IsDefined() && n.Mark().line >= 0)
      loc += ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
    return path.empty() ? loc : loc + ": " + path;
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& path,
                         const std::string& msg) const {
    throw ConfigError(where(n, path), msg);
  }

 private:
  std::string m_file;
  std::map<std::string, std::string> m_overrides;
};

inline std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

// A mapping key as text: a plain name, else an error at the key.
inline std::string key_text(const Reader& r, const YAML::Node& key, const std::string& path) {
  if (!key.IsScalar()) r.fail(key, path, "a key must be a plain name, got " + yaml_text(key));
  return key.Scalar();
}

// A YAML mapping with a fixed set of allowed keys. Unknown keys are reported
// when the map is opened, before anything else, so typos come first.
class Map {
 public:
  Map(const Reader& r, const YAML::Node& node, std::string path,
      const std::vector<std::string>& allowed)
      : m_r(r), m_node(node), m_path(std::move(path)) {
    if (!node.IsMap()) m_r.fail(node, m_path, "expected a mapping, got " + yaml_text(node));
    for (const auto& kv : node) {
      const std::string key = key_text(m_r, kv.first, m_path);
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string hint;
      std::size_t best = 3;
      for (const auto& a : allowed) {
        const std::size_t d = edit_distance(key, a);
        if (d < best) best = d, hint = "; did you mean '" + a + "'?";
      }
      m_r.fail(kv.first, child_path(m_path, printable(key, 40)),
               "unknown key " + quoted(key) + " (allowed here: " + join(allowed) + ")" + hint);
    }
  }

  bool has(const std::string& key) const { return bool(m_node[key]); }
  YAML::Node get(const std::string& key) const {
    const YAML::Node n = m_node[key];
    if (!n) m_r.fail(m_node, m_path, "missing required key '" + key + "'");
    return n;
  }
  std::string path(const std::string& key) const { return child_path(m_path, key); }
  // A ConfigError at the key's value.
  [[noreturn]] void fail(const std::string& key, const std::string& msg) const {
    m_r.fail(get(key), path(key), msg);
  }
  const YAML::Node& node() const { return m_node; }
  const Reader& reader() const { return m_r; }

  double number(const std::string& key) const { return as_number(get(key), path(key)); }
  double number(const std::string& key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }
  // A number > 0; `note` follows the error ("reference_length must be > 0 ...").
  double positive(const std::string& key, const std::string& note = "") const {
    const double v = number(key);
    if (!(v > 0)) fail(key, key + " must be > 0" + note);
    return v;
  }
  double positive(const std::string& key, double fallback) const {
    return has(key) ? positive(key) : fallback;
  }
  std::int64_t integer(const std::string& key) const { return as_integer(get(key), path(key)); }
  std::int64_t integer(const std::string& key, std::int64_t fallback) const {
    return has(key) ? integer(key) : fallback;
  }
  // An integer >= `min`; `fallback` where the key is absent (else it is required).
  std::int64_t at_least(const std::string& key, std::int64_t min,
                        std::optional<std::int64_t> fallback = std::nullopt) const {
    if (fallback && !has(key)) return *fallback;
    const std::int64_t v = integer(key);
    if (v < min) fail(key, key + " must be >= " + std::to_string(min));
    return v;
  }
  std::string text(const std::string& key) const { return as_text(get(key), path(key)); }
  std::vector<double> numbers(const std::string& key, std::size_t count) const {
    const YAML::Node n = get(key);
    if (!n.IsSequence() || n.size() != count)
      m_r.fail(n, path(key),
               "expected a list of " + std::to_string(count) + " numbers, got " +
                   (n.IsSequence() ? "a list of " + std::to_string(n.size()) : yaml_text(n)));
    std::vector<double> v;
    for (std::size_t i = 0; i < count; ++i)
      v.push_back(as_number(n[i], path(key) + "[" + std::to_string(i) + "]"));
    return v;
  }

  double as_number(const YAML::Node& n, const std::string& p) const {
    double v = 0;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v))
      m_r.fail(n, p, "expected a number, got " + yaml_text(n));
    return v;
  }
  std::int64_t as_integer(const YAML::Node& n, const std::string& p) const {
    const double v = as_number(n, p);
    if (v != std::floor(v) || std::abs(v) > 9.0e15)
      m_r.fail(n, p, "expected an integer, got " + yaml_text(n));
    return std::int64_t(v);
  }
  std::string as_text(const YAML::Node& n, const std::string& p) const {
    if (!n.IsScalar()) m_r.fail(n, p, "expected a string, got " + yaml_text(n));
    return n.Scalar();
  }
  std::string choice(const std::string& key, const std::vector<std::string>& options) const {
    const std::string v = text(key);
    if (std::find(options.begin(), options.end(), v) == options.end())
      fail(key, quoted(v) + " is not one of: " + join(options));
    return v;
  }
  // The enum value (core/variant.hpp) the key names.
  template <class E>
  E choice(const std::string& key) const {
    return *parse<E>(choice(key, names<E>()));
  }

 private:
  const Reader& m_r;
  YAML::Node m_node;
  std::string m_path;
};

// Parses YAML text; a syntax error or a key given twice in one mapping is a
// ConfigError at name:line:column.
YAML::Node parse(const std::string& text, const std::string& name);
// Reads and parses a file; an unreadable file is "cannot read <what> file".
YAML::Node load_file(const std::string& path, const std::string& what);
// Applies "a.b=value" overrides (YAML values; key=~ deletes) to a mapping
// document; returns override key -> override text, for Reader.
std::map<std::string, std::string> apply_overrides(YAML::Node& root,
                                                   const std::vector<std::string>& overrides);

}  // namespace kolb::yaml
