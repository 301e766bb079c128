#pragma once
// How a block stores its populations. A variant's scalar S names both its
// arithmetic and its storage: double and float are stored as computed;
// kolb::fp16 computes in float and stores each population as a 16-bit half
// of its deviation from the lattice weight, scaled by 2^15 (the range shift
// of FluidX3D's FP16S: f_i - w_i is small, so the half's 11 significant
// bits go to the deviation rather than to w_i, and 2^15 lifts deviations
// down to ~1e-9 out of the half's subnormal range while |f_i - w_i| < 2
// stays finite). Kernels load and store through Storage<S>; copies between
// slots of one population, or of opposite ones (equal weights), move the
// stored bits unchanged. A load then a store need not give back the stored
// bits (w_i + a tiny deviation rounds in float), so every kernel path moves
// a population through the same conversions: a streamed population is
// copied, and one bounced off a wall is stored with the wall's term added
// (bounce() below), as the in-place scheme stores it, so that the two-buffer
// and in-place schemes agree bit for bit.

#include <kolb/core/half.hpp>
#include <kolb/core/variant.hpp>  // fp16

namespace kolb {

template <class S>
struct Storage {
  using value_type = S;   // what kernels compute with
  using stored_type = S;  // what the population arrays hold
  // Loads and stores convert (so kernels copy stored bits where they only move a value).
  static constexpr bool converts = false;
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static S load(S stored, int) {
    return stored;
  }
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static S store(S value, int) {
    return value;
  }
  // The stored population i bounced off a wall whose momentum term is `wall`.
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static S bounce(S stored, S wall, int) {
    return stored + wall;
  }
  // The inverse: the stored population before bounce() added `wall`.
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static S unbounce(S stored, S wall, int) {
    return stored - wall;
  }
  // The stored value exactly as a double, and back (checkpoints, host copies).
  template <class Lattice>
  static double exact(S stored, int) {
    return double(stored);
  }
  template <class Lattice>
  static S from_exact(double value, int) {
    return S(value);
  }
};

template <>
struct Storage<fp16> {
  using value_type = float;
  using stored_type = std::uint16_t;
  static constexpr bool converts = true;
  static constexpr float scale = 32768.0f;
  // The products with 2^-15 and 2^15 are exact: one rounding per load (the
  // sum) and two per store (the difference, the half), wherever it runs.
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static float load(std::uint16_t stored, int i) {
    return float_from_half(stored) * (1.0f / scale) + float(Lattice::w(i));
  }
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static std::uint16_t store(float value, int i) {
    return half_from_float((value - float(Lattice::w(i))) * scale);
  }
  // Resting walls keep the stored bits (a load and a store could change them).
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static std::uint16_t bounce(std::uint16_t stored, float wall, int i) {
    return wall == 0.0f ? stored : store<Lattice>(load<Lattice>(stored, i) + wall, i);
  }
  // Exact for resting walls; for moving ones the subtraction may differ in the last bit.
  template <class Lattice>
  KOKKOS_FORCEINLINE_FUNCTION static std::uint16_t unbounce(std::uint16_t stored, float wall,
                                                            int i) {
    return wall == 0.0f ? stored : store<Lattice>(load<Lattice>(stored, i) - wall, i);
  }
  // A half times 2^-15 plus a float weight needs < 40 significant bits: exact
  // in double, so a checkpoint written from these values restores every bit.
  template <class Lattice>
  static double exact(std::uint16_t stored, int i) {
    return double(float_from_half(stored)) / double(scale) + double(float(Lattice::w(i)));
  }
  template <class Lattice>
  static std::uint16_t from_exact(double value, int i) {
    return half_from_float(float((value - double(float(Lattice::w(i)))) * double(scale)));
  }
};

// The arithmetic type of scalar S, and the element type of its arrays.
template <class S>
using real_t = typename Storage<S>::value_type;
template <class S>
using stored_t = typename Storage<S>::stored_type;

}  // namespace kolb
