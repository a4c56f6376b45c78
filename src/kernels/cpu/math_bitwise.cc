// CPU kernels of the bit operations, Gcd and Lcm (ops/math_bitwise.cc). The bitwise ops and the shifts
// are plain loops with the common strides as constants (unit_strides.h), which GCC vectorizes (variable
// shifts included, as AVX2's per-lane shifts); Gcd and Lcm divide, so they stay scalar.
#include <type_traits>

#include "kernels/cpu/math_loops.h"
#include "kernels/cpu/unit_strides.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

enum class BitOp { And, Or, Xor, LeftShift, RightShift, Gcd, Lcm };

// The type C computes x << n in for x of type T (int for the types narrower than it).
template <class T>
using Promoted = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;

// Note [Shift counts]: the count modulo the promoted type's width, then narrowed back to T. The left
// shift is done on the unsigned type so that no value is undefined even before C++20.
template <bool LEFT, class T>
T shift(T x, T n) {
  using P = Promoted<T>;
  using U = std::make_unsigned_t<P>;
  constexpr U kMask = sizeof(P) * 8 - 1;
  const unsigned c = static_cast<unsigned>(static_cast<U>(static_cast<P>(n)) & kMask);
  if constexpr (LEFT) return static_cast<T>(static_cast<P>(static_cast<U>(static_cast<P>(x)) << c));
  else return static_cast<T>(static_cast<P>(x) >> c);
}

// NumPy's gcd and lcm: gcd on the magnitudes as unsigned numbers (|MIN| fits there), lcm as |x| / g * |y|,
// each taken back into T with wrap-around, as NumPy's signed arithmetic gives them: gcd(MIN, 0) and
// lcm(MIN, 1) are MIN, and an lcm that overflows is the wrapped product (negative, perhaps).
template <class T>
std::make_unsigned_t<T> magnitude(T x) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_unsigned_v<T>) return x;
  else return x < 0 ? static_cast<U>(U(0) - static_cast<U>(x)) : static_cast<U>(x);
}

template <class U>
U gcd_unsigned(U a, U b) {
  while (a != 0) {
    U c = a;
    a = static_cast<U>(b % a);
    b = c;
  }
  return b;
}

template <class T>
T gcd(T x, T y) {
  return static_cast<T>(gcd_unsigned(magnitude(x), magnitude(y)));
}

template <class T>
T lcm(T x, T y) {
  using U = std::make_unsigned_t<T>;
  const U a = magnitude(x), b = magnitude(y), g = gcd_unsigned(a, b);
  return g == 0 ? T(0) : static_cast<T>(static_cast<U>(a / g * b));
}

template <BitOp OP, class T>
T bit_op(T a, T b) {
  if constexpr (OP == BitOp::And) return static_cast<T>(a & b);
  if constexpr (OP == BitOp::Or) return static_cast<T>(a | b);
  if constexpr (OP == BitOp::Xor) return static_cast<T>(a ^ b);
  if constexpr (OP == BitOp::LeftShift) return shift<true>(a, b);
  if constexpr (OP == BitOp::RightShift) return shift<false>(a, b);
  if constexpr (OP == BitOp::Gcd) return gcd(a, b);
  if constexpr (OP == BitOp::Lcm) return lcm(a, b);
}

template <BitOp OP>
void bit_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    constexpr bool kBitwise = OP == BitOp::And || OP == BitOp::Or || OP == BitOp::Xor;
    if constexpr (std::is_integral_v<T> && (kBitwise || !std::is_same_v<T, bool>)) {
      constexpr bool kDivides = OP == BitOp::Gcd || OP == BitOp::Lcm;
      for_each_broadcast_row<3>(in, out[0], kDivides ? kParallelGrain / 16 : kParallelGrain,
                                [](auto p, auto s, int64_t n) {
        T* o = reinterpret_cast<T*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        with_unit_strides<2>(s[0], {s[1], s[2]}, [&](auto so, auto sa, auto sb) {
          for (int64_t i = 0; i < n; ++i) o[i * so] = bit_op<OP, T>(a[i * sa], b[i * sb]);
        });
      });
    } else {
      SPROUT_ASSERT(false, "bit operation kernel on ", name(out[0].dtype()));
    }
  });
}

void invert_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      for_each_broadcast_row<2>(in, out[0], kParallelGrain, [](auto p, auto s, int64_t n) {
        T* o = reinterpret_cast<T*>(p[0]);
        const T* x = reinterpret_cast<const T*>(p[1]);
        with_unit_strides<1>(s[0], {s[1]}, [&](auto so, auto sx) {
          for (int64_t i = 0; i < n; ++i) o[i * so] = static_cast<T>(~x[i * sx]);
        });
      });
    } else {
      SPROUT_ASSERT(false, "Invert kernel on ", name(out[0].dtype()));
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_math_bitwise) {
  register_kernel<NoAttrs>("BitwiseAnd", Device::CPU, bit_kernel<BitOp::And>);
  register_kernel<NoAttrs>("BitwiseOr", Device::CPU, bit_kernel<BitOp::Or>);
  register_kernel<NoAttrs>("BitwiseXor", Device::CPU, bit_kernel<BitOp::Xor>);
  register_kernel<NoAttrs>("LeftShift", Device::CPU, bit_kernel<BitOp::LeftShift>);
  register_kernel<NoAttrs>("RightShift", Device::CPU, bit_kernel<BitOp::RightShift>);
  register_kernel<NoAttrs>("Gcd", Device::CPU, bit_kernel<BitOp::Gcd>);
  register_kernel<NoAttrs>("Lcm", Device::CPU, bit_kernel<BitOp::Lcm>);
  register_kernel<NoAttrs>("Invert", Device::CPU, invert_kernel);
}

}  // namespace sprout
