#pragma once
// kolb's choices as types: lattices, precisions, layouts, kernel paths,
// streaming schemes, collisions. Each enum has one list of names (as YAML,
// the command line and the reports spell them). VariantKey names a compiled
// (lattice, precision, layout) variant: "D2Q9/double/csoa8".

#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace kolb {

// The lattices and collisions: one table line each (core/lattices.def,
// core/collisions.def).
enum class LatticeId {
#define KOLB_LATTICE(name, model) name,
#include <kolb/core/lattices.def>
#undef KOLB_LATTICE
};
// fp16: FP32 arithmetic, populations stored as 16-bit halves (block/storage.hpp).
enum class Precision { float64, float32, fp16 };
enum class LayoutKind { aos, soa, csoa, caosoa };
enum class KernelPath { fused, split };   // StreamCollide, or Propagate + Collide
enum class Streaming { two_buffer, aa };  // pull between two buffers, or in place
enum class Collision {
#define KOLB_COLLISION(name, isothermal, thermal) name,
#include <kolb/core/collisions.def>
#undef KOLB_COLLISION
};
enum class BenchKernel { fused, aa, propagate, collide };

// A collision's YAML key under `physics` beyond tau, with its default
// (model/relaxation.hpp).
struct CollisionParameter {
  std::string key;
  double fallback;
  std::string meaning;
};

// EnumNames<E>::list[int(e)] is the name of e.
template <class E>
struct EnumNames;
#define KOLB_ENUM_NAMES(E, ...)                          \
  template <>                                            \
  struct EnumNames<E> {                                  \
    static constexpr const char* list[] = {__VA_ARGS__}; \
  }
template <>
struct EnumNames<LatticeId> {
  static constexpr const char* list[] = {
#define KOLB_LATTICE(name, model) #name,
#include <kolb/core/lattices.def>
#undef KOLB_LATTICE
  };
};
KOLB_ENUM_NAMES(Precision, "double", "float", "fp16");
KOLB_ENUM_NAMES(LayoutKind, "aos", "soa", "csoa", "caosoa");
KOLB_ENUM_NAMES(KernelPath, "fused", "split");
KOLB_ENUM_NAMES(Streaming, "two_buffer", "aa");
template <>
struct EnumNames<Collision> {
  static constexpr const char* list[] = {
#define KOLB_COLLISION(name, isothermal, thermal) #name,
#include <kolb/core/collisions.def>
#undef KOLB_COLLISION
  };
};
KOLB_ENUM_NAMES(BenchKernel, "fused", "aa", "propagate", "collide");

template <class E>
std::vector<std::string> names() {
  return {std::begin(EnumNames<E>::list), std::end(EnumNames<E>::list)};
}
template <class E, class = decltype(EnumNames<E>::list)>
std::string to_string(E e) {
  return EnumNames<E>::list[int(e)];
}
// The value named `text`, if there is one.
template <class E>
std::optional<E> parse(const std::string& text) {
  for (std::size_t i = 0; i < std::size(EnumNames<E>::list); ++i)
    if (text == EnumNames<E>::list[i]) return E(i);
  return std::nullopt;
}

// The scalar of Precision::fp16 variants: FP32 arithmetic, 16-bit storage
// (block/storage.hpp).
struct fp16 {};

// The precision of a variant's scalar type.
template <class Scalar>
constexpr Precision precision_of = std::is_same<Scalar, fp16>::value ? Precision::fp16
                                   : sizeof(Scalar) == 8             ? Precision::float64
                                                                     : Precision::float32;
// Bytes of one stored population, and whether the arithmetic is single precision.
constexpr int stored_bytes(Precision p) {
  return p == Precision::float64 ? 8 : p == Precision::float32 ? 4 : 2;
}
constexpr bool single_arithmetic(Precision p) { return p != Precision::float64; }

struct LayoutId {
  LayoutKind kind = LayoutKind::soa;
  int vector_length = 1;  // cluster length of csoa and caosoa; 1 otherwise
};
inline bool operator==(const LayoutId& a, const LayoutId& b) {
  return a.kind == b.kind && a.vector_length == b.vector_length;
}
// A layout type's name: "soa", "csoa8".
template <class Layout>
constexpr LayoutId layout_id = {Layout::kind, Layout::vector_length};

struct VariantKey {
  LatticeId lattice = LatticeId::D2Q9;
  Precision precision = Precision::float64;
  LayoutId layout;
};
inline bool operator==(const VariantKey& a, const VariantKey& b) {
  return a.lattice == b.lattice && a.precision == b.precision && a.layout == b.layout;
}

std::string to_string(const LayoutId& layout);  // "soa", "csoa8"
std::string to_string(const VariantKey& key);   // "D2Q9/double/csoa8"
std::optional<LayoutId> parse_layout(const std::string& text);

}  // namespace kolb
