// Shared strict-YAML helpers: parsing with positions, --set overrides.

#include "yaml_map.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace kolb::yaml {

namespace {

std::string position(const std::string& name, const YAML::Mark& m) {
  return name + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// yaml-cpp keeps both entries of a key given twice and lookups see the
// first, so a repeated key would silently lose the user's second value.
void reject_duplicate_keys(const YAML::Node& n, const std::string& name) {
  if (n.IsSequence())
    for (const auto& item : n) reject_duplicate_keys(item, name);
  if (!n.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : n) {
    if (kv.first.IsScalar()) {
      const auto [it, fresh] = seen.emplace(kv.first.Scalar(), kv.first.Mark());
      if (!fresh)
        throw ConfigError(position(name, kv.first.Mark()), "key " + quoted(kv.first.Scalar()) +
                                                               " given twice (first at " +
                                                               position(name, it->second) + ")");
    }
    reject_duplicate_keys(kv.second, name);
  }
}

}  // namespace

YAML::Node parse(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(position(name, e.mark), "YAML syntax error: " + e.msg);
  }
  reject_duplicate_keys(root, name);
  return root;
}

YAML::Node load_file(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in)
    throw ConfigError(path, "cannot read " + what + " file: " + std::string(std::strerror(errno)));
  std::stringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), path);
}

namespace {

// Applies one "a.b.c=value" override to the document.
void apply_override(YAML::Node root, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text, "expected key=value, e.g. --set run.steps=200");
  const std::string key = text.substr(0, eq);
  YAML::Node value;
  try {
    value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + text, "value is not valid YAML: " + e.msg);
  }
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw ConfigError("--set " + text, "empty key in '" + key + "'");
    parts.push_back(p);
  }
  std::function<void(YAML::Node, std::size_t)> set = [&](YAML::Node node, std::size_t k) {
    if (k + 1 == parts.size()) {
      if (value.IsNull())
        node.remove(parts[k]);  // key=~ deletes the key
      else
        node[parts[k]] = value;
      return;
    }
    YAML::Node child = node[parts[k]];
    if (child.IsDefined() && !child.IsMap() && !child.IsNull())
      throw ConfigError("--set " + text,
                        "'" + parts[k] + "' is not a mapping, cannot set '" + key + "'");
    if (!child.IsDefined() || child.IsNull()) {
      node[parts[k]] = YAML::Node(YAML::NodeType::Map);
      child = node[parts[k]];
    }
    set(child, k + 1);
  };
  set(root, 0);
}

}  // namespace

std::map<std::string, std::string> apply_overrides(YAML::Node& root,
                                                   const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> overridden;
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  for (const auto& o : overrides) {
    if (!root.IsMap()) break;
    apply_override(root, o);
    overridden[o.substr(0, o.find('='))] = o;
  }
  return overridden;
}

}  // namespace kolb::yaml
