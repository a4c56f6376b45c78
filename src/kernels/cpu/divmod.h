// Floor division and remainders (FloorDiv, FloorMod, Mod): the scalar definition, and the vector form of
// float and double rows (divmod.cc, Highway).
//
// Note [Vector fmod]
// Float remainders follow NumPy's divmod exactly: fmod first, then a sign fix, so x == q * y + r holds as
// closely as floating point allows. fmod(a, b) is exact in IEEE arithmetic, and so is the vector form
// r = a - trunc(a / b) * b by one fused multiply-add wherever |a / b| < 2^(mantissa bits): trunc(a / b) is
// then an integer within one of the true quotient, and a - q b is the remainder, or the remainder -+ |b|,
// each representable (a multiple of the smaller ulp of a and b, below |b| in magnitude; or, when |a| < |b|
// and a / b rounded up to 1, a - b by Sterbenz's lemma), so the FMA's one rounding is exact and so is the
// step of |b| back into range. Other lanes (a zero or non-finite operand, a larger quotient) take the
// scalar definition. 1024 x 1024 float32, 2 threads: fmod 7.1 -> 0.21 ms, remainder 11.1 -> 0.30,
// floor_divide 12.7 -> 0.40 (PyTorch 1.05, 1.6, 1.8).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace sprout {

enum class Division : uint8_t { FloorDiv, FloorMod, Mod };

template <Division OP, class C>
C divide(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    // Division by zero gives 0, and MIN / -1 (which traps on x86) wraps: defined answers, no crash.
    if (b == 0) return C(0);
    if constexpr (std::is_signed_v<C>) {
      if (b == C(-1)) return OP == Division::FloorDiv ? static_cast<C>(C(0) - a) : C(0);
    }
    C q = static_cast<C>(a / b), r = static_cast<C>(a % b);
    bool fix = r != 0 && ((r < 0) != (b < 0));  // truncation went the wrong way for floor semantics
    if constexpr (OP == Division::FloorDiv) return fix ? static_cast<C>(q - 1) : q;
    if constexpr (OP == Division::FloorMod) return fix ? static_cast<C>(r + b) : r;
    return r;
  } else {
    C mod = std::fmod(a, b);
    if constexpr (OP == Division::Mod) return mod;
    if (b == C(0)) return OP == Division::FloorDiv ? a / b : mod;  // inf or NaN, as IEEE division gives
    C div = (a - mod) / b;
    if (mod != C(0)) {
      if ((b < C(0)) != (mod < C(0))) {
        mod += b;
        div -= C(1);
      }
    } else {
      mod = std::copysign(C(0), b);
    }
    if constexpr (OP == Division::FloorMod) return mod;
    if (div == C(0)) return std::copysign(C(0), a / b);
    C floordiv = std::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);  // div is within rounding of an integer: snap to it
    return floordiv;
  }
}

// out[i] = divide<op>(a[i * sa], b[i * sb]), sa and sb each 0 (one value broadcast) or 1; out may alias
// a or b.
void simd_divide(Division op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n);
void simd_divide(Division op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n);

}  // namespace sprout
