// CPU kernels of the unary math ops (ops/math_unary.cc) and the elementwise predicates.
// Floating-point inputs run through the vector math of simd_math.h: contiguous float and double rows
// directly, half types and strided rows through a small stack block converted to float or double on
// the way in and out. Integer inputs (abs, sign, square, round) use plain loops. NanToNum too.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/cpu/math_loops.h"
#include "kernels/cpu/simd_math.h"
#include "kernels/cpu/wrapping_arith.h"
#include "ops/math_nan_to_num.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <MathOp OP, class T>
T integer_math(T x) {
  if constexpr (OP == MathOp::Abs) return std::is_signed_v<T> && x < 0 ? static_cast<T>(-x) : x;
  if constexpr (OP == MathOp::Sign) return static_cast<T>((x > 0) - (x < 0));
  if constexpr (OP == MathOp::Square) return wrap_mul(x, x);
  return x;  // Round: integers are already integral
}

constexpr bool is_cheap(MathOp op) { return op <= MathOp::Trunc; }

// The ops whose infer takes integers (ops/math_unary.cc); Floor and Ceil take floats only and the others'
// PromoteToFloat policy casts integers to Float32, so their integer loops, for eight integer dtypes, would
// be compiled for nothing.
constexpr bool takes_integers(MathOp op) {
  return op == MathOp::Abs || op == MathOp::Sign || op == MathOp::Square || op == MathOp::Round;
}

template <MathOp OP>
void math_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t grain = is_cheap(OP) ? kParallelGrain : kParallelGrain / 8;
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool> || (std::is_integral_v<T> && !takes_integers(OP))) {
      SPROUT_ASSERT(false, "math kernel on ", name(out[0].dtype()), ": infer or the policy lets no such input in");
    } else {
      for_each_broadcast_row<2>(in, out[0], grain, [](auto ptrs, auto strides, int64_t n) {
        T* o = reinterpret_cast<T*>(ptrs[0]);
        const T* x = reinterpret_cast<const T*>(ptrs[1]);
        if constexpr (std::is_integral_v<T>) {
          for (int64_t i = 0; i < n; ++i) o[i * strides[0]] = integer_math<OP>(x[i * strides[1]]);
        } else {
          using C = compute_t<T>;
          if constexpr (std::is_same_v<T, C>) {
            if (strides[0] == 1 && strides[1] == 1) return simd_math(OP, x, o, n);
          }
          run_staged<T, C>(x, strides[1], o, strides[0], n, [](C* buf, int64_t m) { simd_math(OP, buf, buf, m); });
        }
      });
    }
  });
}

enum class Predicate { IsNan, IsInf, IsFinite };

template <Predicate P>
void predicate_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(in[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    for_each_broadcast_row<2>(in, out[0], kParallelGrain, [](auto ptrs, auto strides, int64_t n) {
      bool* o = reinterpret_cast<bool*>(ptrs[0]);
      const T* x = reinterpret_cast<const T*>(ptrs[1]);
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<C>) {
          C v = static_cast<C>(x[i * strides[1]]);
          if constexpr (P == Predicate::IsNan) o[i * strides[0]] = std::isnan(v);
          if constexpr (P == Predicate::IsInf) o[i * strides[0]] = std::isinf(v);
          if constexpr (P == Predicate::IsFinite) o[i * strides[0]] = std::isfinite(v);
        } else {
          o[i * strides[0]] = P == Predicate::IsFinite;  // integers and bools are always finite
        }
      }
    });
  });
}

void logical_not_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  for_each_broadcast_row<2>(in, out[0], kParallelGrain, [](auto ptrs, auto strides, int64_t n) {
    bool* o = reinterpret_cast<bool*>(ptrs[0]);
    const bool* x = reinterpret_cast<const bool*>(ptrs[1]);
    for (int64_t i = 0; i < n; ++i) o[i * strides[0]] = !x[i * strides[1]];
  });
}

// NaN and the infinities replaced; the replacements are converted to the dtype first (so a float16 tensor's
// default, float32's largest, becomes inf, as a cast of it would: ops.nan_to_num passes float16's own).
void nan_to_num_kernel(const NanToNumAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<compute_t<T>>) {
      SPROUT_ASSERT(false, "NanToNum kernel on ", name(out[0].dtype()), ": infer lets no such input in");
    } else {
      using C = compute_t<T>;
      const T nan = static_cast<T>(static_cast<C>(a.nan)), posinf = static_cast<T>(static_cast<C>(a.posinf));
      const T neginf = static_cast<T>(static_cast<C>(a.neginf));
      for_each_broadcast_row<2>(in, out[0], kParallelGrain, [&](auto ptrs, auto strides, int64_t n) {
        T* o = reinterpret_cast<T*>(ptrs[0]);
        const T* x = reinterpret_cast<const T*>(ptrs[1]);
        if constexpr (std::is_same_v<T, C>) {
          if (strides[0] == 1 && strides[1] == 1) return simd_nan_to_num(x, o, n, nan, posinf, neginf);
        }
        for (int64_t i = 0; i < n; ++i) {
          const C v = static_cast<C>(x[i * strides[1]]);
          o[i * strides[0]] = v != v ? nan : v == std::numeric_limits<C>::infinity() ? posinf
                              : v == -std::numeric_limits<C>::infinity()           ? neginf
                                                                                     : x[i * strides[1]];
        }
      });
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_math_unary) {
  register_kernel<NanToNumAttrs>("NanToNum", Device::CPU, nan_to_num_kernel);
  register_kernel<NoAttrs>("Abs", Device::CPU, math_kernel<MathOp::Abs>);
  register_kernel<NoAttrs>("Sign", Device::CPU, math_kernel<MathOp::Sign>);
  register_kernel<NoAttrs>("Square", Device::CPU, math_kernel<MathOp::Square>);
  register_kernel<NoAttrs>("Reciprocal", Device::CPU, math_kernel<MathOp::Reciprocal>);
  register_kernel<NoAttrs>("Rsqrt", Device::CPU, math_kernel<MathOp::Rsqrt>);
  register_kernel<NoAttrs>("Floor", Device::CPU, math_kernel<MathOp::Floor>);
  register_kernel<NoAttrs>("Ceil", Device::CPU, math_kernel<MathOp::Ceil>);
  register_kernel<NoAttrs>("Round", Device::CPU, math_kernel<MathOp::Round>);
  register_kernel<NoAttrs>("Trunc", Device::CPU, math_kernel<MathOp::Trunc>);
  register_kernel<NoAttrs>("Expm1", Device::CPU, math_kernel<MathOp::Expm1>);
  register_kernel<NoAttrs>("Log1p", Device::CPU, math_kernel<MathOp::Log1p>);
  register_kernel<NoAttrs>("Sin", Device::CPU, math_kernel<MathOp::Sin>);
  register_kernel<NoAttrs>("Cos", Device::CPU, math_kernel<MathOp::Cos>);
  register_kernel<NoAttrs>("Tan", Device::CPU, math_kernel<MathOp::Tan>);
  register_kernel<NoAttrs>("Asin", Device::CPU, math_kernel<MathOp::Asin>);
  register_kernel<NoAttrs>("ACos", Device::CPU, math_kernel<MathOp::Acos>);
  register_kernel<NoAttrs>("Atan", Device::CPU, math_kernel<MathOp::Atan>);
  register_kernel<NoAttrs>("Sinh", Device::CPU, math_kernel<MathOp::Sinh>);
  register_kernel<NoAttrs>("Cosh", Device::CPU, math_kernel<MathOp::Cosh>);
  register_kernel<NoAttrs>("Tanh", Device::CPU, math_kernel<MathOp::Tanh>);
  register_kernel<NoAttrs>("Erf", Device::CPU, math_kernel<MathOp::Erf>);
  register_kernel<NoAttrs>("Erfc", Device::CPU, math_kernel<MathOp::Erfc>);
  register_kernel<NoAttrs>("IsNan", Device::CPU, predicate_kernel<Predicate::IsNan>);
  register_kernel<NoAttrs>("IsInf", Device::CPU, predicate_kernel<Predicate::IsInf>);
  register_kernel<NoAttrs>("IsFinite", Device::CPU, predicate_kernel<Predicate::IsFinite>);
  register_kernel<NoAttrs>("LogicalNot", Device::CPU, logical_not_kernel);
}

}  // namespace sprout
