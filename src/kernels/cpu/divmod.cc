// Highway implementation of divmod.h (Note [Highway dynamic dispatch] in simd.cc; Note [Vector fmod]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/divmod.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "kernels/cpu/divmod.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Quotients below this in magnitude are integers when truncated and within one of the true quotient.
template <class T>
constexpr T kExactQuotient = sizeof(T) == 4 ? T(8388608.0) : T(4503599627370496.0);  // 2^23, 2^52

// divide<OP> on a vector; `exact` reports the lanes the formula covers (the caller redoes the others).
template <Division OP, class D, class V>
HWY_INLINE V divide_vec(D d, V a, V b, hn::Mask<D>& exact) {
  using T = hn::TFromD<D>;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const V quotient = hn::Div(a, b);
  exact = hn::And(hn::Lt(hn::Abs(quotient), hn::Set(d, kExactQuotient<T>)), hn::Ne(b, zero));
  exact = hn::And(exact, hn::And(hn::IsFinite(a), hn::IsFinite(b)));  // a / inf is 0, but a - 0 * inf is not a
  V mod = hn::NegMulAdd(hn::Trunc(quotient), b, a);  // a - q b, exact (Note [Vector fmod])
  const V step = hn::CopySign(hn::Abs(b), a);
  const auto negative_a = hn::Lt(a, zero);
  const auto past_zero = hn::And(hn::Ne(mod, zero), hn::Xor(hn::Lt(mod, zero), negative_a));  // q one too far
  mod = hn::IfThenElse(past_zero, hn::Add(mod, step), mod);
  mod = hn::IfThenElse(hn::Ge(hn::Abs(mod), hn::Abs(b)), hn::Sub(mod, step), mod);
  mod = hn::CopySign(mod, a);  // fmod's zero has a's sign
  if constexpr (OP == Division::Mod) return mod;
  V div = hn::Div(hn::Sub(a, mod), b);
  const auto nonzero = hn::Ne(mod, zero);
  const auto wrong_sign = hn::And(nonzero, hn::Xor(hn::Lt(mod, zero), hn::Lt(b, zero)));  // mod's sign is not b's
  mod = hn::IfThenElse(wrong_sign, hn::Add(mod, b), hn::IfThenElse(nonzero, mod, hn::CopySign(zero, b)));
  if constexpr (OP == Division::FloorMod) return mod;
  div = hn::IfThenElse(wrong_sign, hn::Sub(div, one), div);
  V floordiv = hn::Floor(div);
  floordiv = hn::IfThenElse(hn::Gt(hn::Sub(div, floordiv), hn::Set(d, T(0.5))), hn::Add(floordiv, one), floordiv);
  return hn::IfThenElse(hn::Eq(div, zero), hn::CopySign(zero, quotient), floordiv);
}

template <Division OP, class T>
HWY_INLINE void divide_loop(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN T ta[hn::MaxLanes(d)], tb[hn::MaxLanes(d)], to[hn::MaxLanes(d)], covered[hn::MaxLanes(d)];
  for (int64_t i = 0; i < n; i += lanes) {
    const int64_t m = std::min(lanes, n - i);
    const bool whole = m == lanes;
    if (!whole) {  // a partial vector goes through copies padded with 1 / 1
      for (int64_t j = 0; j < lanes; ++j) {
        ta[j] = j < m ? a[(i + j) * sa] : T(1);
        tb[j] = j < m ? b[(i + j) * sb] : T(1);
      }
    }
    const auto x = !whole ? hn::Load(d, ta) : sa ? hn::LoadU(d, a + i) : hn::Set(d, a[0]);
    const auto y = !whole ? hn::Load(d, tb) : sb ? hn::LoadU(d, b + i) : hn::Set(d, b[0]);
    hn::Mask<decltype(d)> exact;
    const auto r = divide_vec<OP>(d, x, y, exact);
    const bool all_exact = hn::AllTrue(d, exact);
    if (!all_exact) {  // rare: the scalar definition from copies (out may alias a or b)
      hn::Store(x, d, ta);
      hn::Store(y, d, tb);
      hn::Store(hn::IfThenElseZero(exact, hn::Set(d, T(1))), d, covered);
    }
    T* dst = whole ? out + i : to;
    hn::StoreU(r, d, dst);
    if (!all_exact) {
      for (int64_t j = 0; j < m; ++j)
        if (covered[j] == T(0)) dst[j] = divide<OP, T>(ta[j], tb[j]);
    }
    if (!whole) std::memcpy(out + i, to, static_cast<size_t>(m) * sizeof(T));
  }
}

template <class T>
void divide_impl(Division op, const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  switch (op) {
    case Division::FloorDiv: return divide_loop<Division::FloorDiv>(a, sa, b, sb, out, n);
    case Division::FloorMod: return divide_loop<Division::FloorMod>(a, sa, b, sb, out, n);
    case Division::Mod: return divide_loop<Division::Mod>(a, sa, b, sb, out, n);
  }
}
void DivideF32(Division op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n) {
  divide_impl(op, a, sa, b, sb, out, n);
}
void DivideF64(Division op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n) {
  divide_impl(op, a, sa, b, sb, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(DivideF32);
HWY_EXPORT(DivideF64);

void simd_divide(Division op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(DivideF32)(op, a, sa, b, sb, out, n);
}
void simd_divide(Division op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(DivideF64)(op, a, sa, b, sb, out, n);
}
}  // namespace sprout
#endif
