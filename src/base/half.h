// 16-bit floating point storage types. Arithmetic happens in float: kernels convert on load and
// round to nearest even on store, which is what the hardware conversions (F16C, AVX512-BF16) do.
#pragma once

#include <bit>
#include <cstdint>

namespace sprout {

struct float16 {
  uint16_t bits = 0;
  float16() = default;
  float16(float value) : bits(from_float(value)) {}
  operator float() const { return to_float(bits); }

  static uint16_t from_float(float value) {
    uint32_t f = std::bit_cast<uint32_t>(value);
    uint32_t sign = (f >> 16) & 0x8000u;
    uint32_t abs = f & 0x7fffffffu;
    if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflows to inf
    if (abs < 0x38800000u) {  // result is subnormal or zero: add a magic number to round
      float rounded = std::bit_cast<float>(abs) + 0.5f;
      return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(rounded) - 0x3f000000u));
    }
    uint32_t mant_odd = (abs >> 13) & 1u;
    abs += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
    return static_cast<uint16_t>(sign | (abs >> 13));
  }
  static float to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {  // zero or subnormal: mant * 2^-24
      float magnitude = static_cast<float>(mant) * 5.9604644775390625e-8f;
      return sign ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  bfloat16(float value) : bits(from_float(value)) {}
  operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

  static uint16_t from_float(float value) {
    uint32_t f = std::bit_cast<uint32_t>(value);
    if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((f >> 16) | 0x40u);  // quiet NaN
    f += 0x7fffu + ((f >> 16) & 1u);  // round to nearest even
    return static_cast<uint16_t>(f >> 16);
  }
};

}  // namespace sprout
