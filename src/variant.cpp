// Variant names: print and parse (core/variant.hpp).

#include <kolb/core/variant.hpp>

namespace kolb {

std::string to_string(const LayoutId& layout) {
  return to_string(layout.kind) +
         (layout.vector_length > 1 ? std::to_string(layout.vector_length) : std::string());
}

std::string to_string(const VariantKey& key) {
  return to_string(key.lattice) + "/" + to_string(key.precision) + "/" + to_string(key.layout);
}

std::optional<LayoutId> parse_layout(const std::string& text) {
  const auto digit = text.find_first_of("0123456789");
  const auto kind = parse<LayoutKind>(text.substr(0, digit));
  if (!kind) return std::nullopt;
  const bool clustered = *kind == LayoutKind::csoa || *kind == LayoutKind::caosoa;
  if (clustered == (digit == std::string::npos)) return std::nullopt;
  const std::string vl = clustered ? text.substr(digit) : "1";
  if (vl.find_first_not_of("0123456789") != std::string::npos || vl.size() > 4) return std::nullopt;
  return LayoutId{*kind, std::stoi(vl)};
}

}  // namespace kolb
