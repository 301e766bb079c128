#pragma once
// Division of non-negative 32-bit ints by a divisor fixed at launch, as one
// 64-bit multiply and a shift (Granlund & Montgomery 1994, Theorem 4.2 with
// N = 31): for d >= 1 let l = ceil(log2 d) and m = floor(2^(31+l) / d) + 1,
// which fits in 32 bits; then n / d = (m n) >> (31 + l) for every
// 0 <= n < 2^31. A GPU's integer division of runtime values is a ~25-
// instruction sequence (a reciprocal, a correction, the sign handling);
// device launches of one thread per site did two of them per thread.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kolb {

class FastDivisor {
 public:
  FastDivisor() = default;
  // Throws std::invalid_argument for d < 1.
  explicit FastDivisor(int d) : m_d(d) {
    if (d < 1) throw std::invalid_argument("FastDivisor: divisor " + std::to_string(d) + " < 1");
    int l = 0;
    while ((std::uint64_t(1) << l) < std::uint64_t(d)) ++l;
    m_shift = 31 + l;
    m_magic = std::uint32_t((std::uint64_t(1) << m_shift) / std::uint64_t(d) + 1);
  }

  /// n / d for 0 <= n < 2^31.
  KOKKOS_FORCEINLINE_FUNCTION int divide(int n) const {
    return int((std::uint64_t(std::uint32_t(n)) * m_magic) >> m_shift);
  }
  /// n / d and n % d for 0 <= n < 2^31.
  KOKKOS_FORCEINLINE_FUNCTION void divide(int n, int& quotient, int& remainder) const {
    quotient = divide(n);
    remainder = n - quotient * m_d;
  }

 private:
  std::uint32_t m_magic = 0;
  int m_shift = 31;
  int m_d = 1;
};

}  // namespace kolb
