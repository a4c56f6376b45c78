// Highway implementation of simd_math.h (Note [Highway dynamic dispatch] in simd.cc;
// Note [Vector math domains] in simd_math.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_math.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/cpu/simd_erf-inl.h"
#include "kernels/cpu/simd_exp-inl.h"
#include "kernels/cpu/simd_math.h"

#if HWY_ONCE
namespace sprout {
template <class T>
T math_scalar_impl(MathOp op, T x) {
  switch (op) {
    case MathOp::Abs: return std::fabs(x);
    case MathOp::Sign: return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x);  // keeps 0 and NaN
    case MathOp::Square: return x * x;
    case MathOp::Reciprocal: return T(1) / x;
    case MathOp::Rsqrt: return T(1) / std::sqrt(x);
    case MathOp::Floor: return std::floor(x);
    case MathOp::Ceil: return std::ceil(x);
    case MathOp::Round: return std::nearbyint(x);  // half to even (default rounding mode)
    case MathOp::Trunc: return std::trunc(x);
    case MathOp::Expm1: return std::expm1(x);
    case MathOp::Log1p: return std::log1p(x);
    case MathOp::Sin: return std::sin(x);
    case MathOp::Cos: return std::cos(x);
    case MathOp::Tan: return std::tan(x);
    case MathOp::Asin: return std::asin(x);
    case MathOp::Acos: return std::acos(x);
    case MathOp::Atan: return std::atan(x);
    case MathOp::Sinh: return std::sinh(x);
    case MathOp::Cosh: return std::cosh(x);
    case MathOp::Tanh: return std::tanh(x);
    case MathOp::Erf: return std::erf(x);
    case MathOp::Erfc: return std::erfc(x);
  }
  return x;
}
double math_scalar(MathOp op, double x) { return math_scalar_impl(op, x); }
float math_scalar(MathOp op, float x) { return math_scalar_impl(op, x); }
}  // namespace sprout
#endif

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Largest |x| for which exp(|x|) stays finite, with margin: the range of sinh, cosh and expm1.
template <class T>
constexpr T kExpLimit = sizeof(T) == 4 ? T(88.0) : T(709.0);
// Highway's sin/cos reduce the argument accurately up to here.
template <class T>
constexpr T kTrigLimit = T(39000);

template <MathOp OP, class D, class V>
HWY_INLINE V apply(D d, V x) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1));
  if constexpr (OP == MathOp::Abs) return hn::Abs(x);
  if constexpr (OP == MathOp::Sign) {
    V s = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), one, x);
    return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Neg(one), s);
  }
  if constexpr (OP == MathOp::Square) return hn::Mul(x, x);
  if constexpr (OP == MathOp::Reciprocal) return hn::Div(one, x);
  if constexpr (OP == MathOp::Rsqrt) return hn::Div(one, hn::Sqrt(x));  // exact, not the ~12-bit estimate
  if constexpr (OP == MathOp::Floor) return hn::Floor(x);
  if constexpr (OP == MathOp::Ceil) return hn::Ceil(x);
  if constexpr (OP == MathOp::Round) return hn::Round(x);  // half to even
  if constexpr (OP == MathOp::Trunc) return hn::Trunc(x);
  if constexpr (OP == MathOp::Expm1) return hn::Expm1(d, x);
  if constexpr (OP == MathOp::Log1p) return hn::Log1p(d, x);
  if constexpr (OP == MathOp::Sin) return hn::Sin(d, x);
  if constexpr (OP == MathOp::Cos) return hn::Cos(d, x);
  if constexpr (OP == MathOp::Tan) return hn::Div(hn::Sin(d, x), hn::Cos(d, x));
  if constexpr (OP == MathOp::Asin) return hn::Asin(d, x);
  if constexpr (OP == MathOp::Acos) return hn::Acos(d, x);
  if constexpr (OP == MathOp::Atan) return hn::Atan(d, x);
  if constexpr (OP == MathOp::Sinh) return hn::Sinh(d, x);
  if constexpr (OP == MathOp::Cosh) {
    const V half = hn::Set(d, T(0.5));
    V e = hn::Exp(d, hn::Abs(x));
    return hn::MulAdd(half, e, hn::Div(half, e));
  }
  if constexpr (OP == MathOp::Tanh) {
    if constexpr (sizeof(T) == 4) {
      return tanh_f32(d, x);  // Note [Float32 tanh]
    } else {
      return hn::Tanh(d, x);
    }
  }
  if constexpr (OP == MathOp::Erf) {
    if constexpr (sizeof(T) == 4) {
      return erf_f32(d, x);  // Note [Float32 erf]
    } else {
      return erf_vec<false>(d, x);
    }
  }
  if constexpr (OP == MathOp::Erfc) return erf_vec<true>(d, x);
}

// Where apply<OP> is exact (Note [Vector math domains]); false for NaN wherever NaN needs libm. The
// float32 tanh is exact everywhere, infinities and NaN included (Note [Float32 tanh]).
template <MathOp OP, class T>
constexpr bool kHasDomain = OP >= MathOp::Expm1 && !(OP == MathOp::Tanh && sizeof(T) == 4);

template <MathOp OP, class D, class V>
HWY_INLINE auto in_domain(D d, V x) {
  using T = hn::TFromD<D>;
  const V ax = hn::Abs(x);
  if constexpr (OP == MathOp::Expm1) return hn::Lt(x, hn::Set(d, kExpLimit<T>));
  if constexpr (OP == MathOp::Log1p)
    return hn::And(hn::Gt(x, hn::Set(d, T(-1))), hn::Lt(x, hn::Set(d, std::numeric_limits<T>::infinity())));
  if constexpr (OP == MathOp::Sin || OP == MathOp::Cos || OP == MathOp::Tan)
    return hn::Le(ax, hn::Set(d, kTrigLimit<T>));
  if constexpr (OP == MathOp::Asin || OP == MathOp::Acos) return hn::Le(ax, hn::Set(d, T(1)));
  if constexpr (OP == MathOp::Atan || OP == MathOp::Tanh) return hn::Le(ax, hn::Set(d, std::numeric_limits<T>::max()));
  if constexpr (OP == MathOp::Sinh || OP == MathOp::Cosh) return hn::Le(ax, hn::Set(d, kExpLimit<T>));
  if constexpr (OP == MathOp::Erf || OP == MathOp::Erfc) return hn::Le(ax, hn::Set(d, kErfLimit<T>));
  return hn::Eq(x, x);
}

template <MathOp OP, class T>
HWY_INLINE void fix_lanes(const T* x, T* out, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    T v = x[j];
    bool ok;
    if constexpr (OP == MathOp::Expm1) ok = v < kExpLimit<T>;
    else if constexpr (OP == MathOp::Log1p) ok = v > T(-1) && v < std::numeric_limits<T>::infinity();
    else if constexpr (OP == MathOp::Sin || OP == MathOp::Cos || OP == MathOp::Tan) ok = std::fabs(v) <= kTrigLimit<T>;
    else if constexpr (OP == MathOp::Asin || OP == MathOp::Acos) ok = std::fabs(v) <= T(1);
    else if constexpr (OP == MathOp::Sinh || OP == MathOp::Cosh) ok = std::fabs(v) <= kExpLimit<T>;
    else if constexpr (OP == MathOp::Erf || OP == MathOp::Erfc) ok = std::fabs(v) <= kErfLimit<T>;
    else ok = std::fabs(v) <= std::numeric_limits<T>::max();
    if (!ok) out[j] = math_scalar(OP, v);
  }
}

template <MathOp OP, class T>
HWY_INLINE void math_loop(const T* x, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN T tx[hn::MaxLanes(d)], to[hn::MaxLanes(d)];
  for (int64_t i = 0; i < n; i += lanes) {
    const int64_t m = std::min(lanes, n - i);
    const T* src = x + i;
    T* dst = out + i;
    if (m < lanes) {  // tail: pad with a value inside every op's domain
      std::fill(tx, tx + lanes, T(0.5));
      std::memcpy(tx, x + i, static_cast<size_t>(m) * sizeof(T));
      src = tx;
      dst = to;
    }
    const auto v = hn::LoadU(d, src);
    hn::StoreU(apply<OP>(d, v), d, dst);
    if constexpr (kHasDomain<OP, T>) {
      if (!hn::AllTrue(d, in_domain<OP>(d, v))) {  // rare: fix from a copy, as dst may alias src
        HWY_ALIGN T saved[hn::MaxLanes(d)];
        hn::Store(v, d, saved);
        fix_lanes<OP>(saved, dst, m);
      }
    }
    if (m < lanes) std::memcpy(out + i, to, static_cast<size_t>(m) * sizeof(T));
  }
}

template <class T>
void math_impl(MathOp op, const T* x, T* out, int64_t n) {
  switch (op) {
#define SPROUT_MATH_CASE(name) \
  case MathOp::name: return math_loop<MathOp::name>(x, out, n);
    SPROUT_MATH_CASE(Abs) SPROUT_MATH_CASE(Sign) SPROUT_MATH_CASE(Square) SPROUT_MATH_CASE(Reciprocal)
    SPROUT_MATH_CASE(Rsqrt) SPROUT_MATH_CASE(Floor) SPROUT_MATH_CASE(Ceil) SPROUT_MATH_CASE(Round) SPROUT_MATH_CASE(Trunc)
    SPROUT_MATH_CASE(Expm1) SPROUT_MATH_CASE(Log1p) SPROUT_MATH_CASE(Sin) SPROUT_MATH_CASE(Cos)
    SPROUT_MATH_CASE(Tan) SPROUT_MATH_CASE(Asin) SPROUT_MATH_CASE(Acos) SPROUT_MATH_CASE(Atan)
    SPROUT_MATH_CASE(Sinh) SPROUT_MATH_CASE(Cosh) SPROUT_MATH_CASE(Tanh) SPROUT_MATH_CASE(Erf)
    SPROUT_MATH_CASE(Erfc)
#undef SPROUT_MATH_CASE
  }
}
void MathF32(MathOp op, const float* x, float* out, int64_t n) { math_impl(op, x, out, n); }
void MathF64(MathOp op, const double* x, double* out, int64_t n) { math_impl(op, x, out, n); }

template <class D, class V>
HWY_INLINE V atan2_vec(D d, V vy, V vx) {
  using T = hn::TFromD<D>;
  const V r = hn::Atan(d, hn::Div(vy, vx));
  const V half_turn = hn::Or(hn::Set(d, T(3.14159265358979323846)), hn::And(hn::SignBit(d), vy));  // +-pi by y
  return hn::IfThenElse(hn::Lt(vx, hn::Zero(d)), hn::Add(r, half_turn), r);
}

template <class D, class V>
HWY_INLINE auto atan2_exact(D d, V vy, V vx) {
  using T = hn::TFromD<D>;
  const V big = hn::Set(d, std::numeric_limits<T>::max());
  return hn::And(hn::And(hn::Le(hn::Abs(vy), big), hn::Le(hn::Abs(vx), big)), hn::Ne(vx, hn::Zero(d)));
}

// atan2 as atan(y / x) moved to the right quadrant: exact wherever x is finite and nonzero and y is
// finite; the other lanes (axes, infinities, NaN) take libm's IEEE answer.
template <class T>
HWY_INLINE void atan2_loop(const T* y, int64_t sy, const T* x, int64_t sx, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  // Lanes outside atan2_exact take libm's answer; computed from copies, as out may alias y or x.
  auto fix = [&](decltype(hn::Zero(d)) vy, decltype(hn::Zero(d)) vx, T* o, int64_t m) {
    if (hn::AllTrue(d, atan2_exact(d, vy, vx))) return;
    HWY_ALIGN T ty[hn::MaxLanes(d)], tx[hn::MaxLanes(d)];
    hn::Store(vy, d, ty);
    hn::Store(vx, d, tx);
    for (int64_t j = 0; j < m; ++j)
      if (!(std::fabs(ty[j]) <= std::numeric_limits<T>::max() && std::fabs(tx[j]) <= std::numeric_limits<T>::max() &&
            tx[j] != T(0)))
        o[j] = std::atan2(ty[j], tx[j]);
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto vy = sy ? hn::LoadU(d, y + i) : hn::Set(d, y[0]);
    const auto vx = sx ? hn::LoadU(d, x + i) : hn::Set(d, x[0]);
    hn::StoreU(atan2_vec(d, vy, vx), d, out + i);
    fix(vy, vx, out + i, lanes);
  }
  if (i < n) {  // tail: padded copies through the same vector code
    HWY_ALIGN T ty[hn::MaxLanes(d)], tx[hn::MaxLanes(d)], to[hn::MaxLanes(d)];
    for (int64_t j = 0; j < lanes; ++j) {
      ty[j] = i + j < n ? y[(i + j) * sy] : T(1);
      tx[j] = i + j < n ? x[(i + j) * sx] : T(1);
    }
    const auto vy = hn::Load(d, ty), vx = hn::Load(d, tx);
    hn::Store(atan2_vec(d, vy, vx), d, to);
    fix(vy, vx, to, n - i);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(T));
  }
}
// Double hypot(x, y) = big * sqrt(1 + (small / big)^2), which neither overflows nor underflows where
// x^2 + y^2 would; 0 for two zeros, +inf where either side is infinite (even with NaN on the other, as C's
// hypot), NaN where either is NaN otherwise. Within two ulp.
template <class D, class V>
HWY_INLINE V hypot_vec(D d, V vx, V vy) {
  using T = hn::TFromD<D>;
  const V ax = hn::Abs(vx), ay = hn::Abs(vy), zero = hn::Zero(d);
  const V big = hn::Max(ax, ay), small = hn::Min(ax, ay);
  const V ratio = hn::IfThenElse(hn::Eq(big, zero), zero, hn::Div(small, big));
  V h = hn::Mul(big, hn::Sqrt(hn::MulAdd(ratio, ratio, hn::Set(d, T(1)))));
  h = hn::IfThenElse(hn::Or(hn::IsNaN(vx), hn::IsNaN(vy)), hn::Set(d, std::numeric_limits<T>::quiet_NaN()), h);
  const V inf = hn::Set(d, std::numeric_limits<T>::infinity());
  return hn::IfThenElse(hn::Or(hn::Eq(ax, inf), hn::Eq(ay, inf)), inf, h);
}

template <class T>
HWY_INLINE void hypot_loop(const T* x, int64_t sx, const T* y, int64_t sy, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto vx = sx ? hn::LoadU(d, x + i) : hn::Set(d, x[0]);
    const auto vy = sy ? hn::LoadU(d, y + i) : hn::Set(d, y[0]);
    hn::StoreU(hypot_vec(d, vx, vy), d, out + i);
  }
  if (i < n) {  // tail: padded copies through the same vector code
    HWY_ALIGN T tx[hn::MaxLanes(d)], ty[hn::MaxLanes(d)];
    for (int64_t j = 0; j < lanes; ++j) {
      tx[j] = i + j < n ? x[(i + j) * sx] : T(1);
      ty[j] = i + j < n ? y[(i + j) * sy] : T(1);
    }
    hn::Store(hypot_vec(d, hn::Load(d, tx), hn::Load(d, ty)), d, tx);
    std::memcpy(out + i, tx, static_cast<size_t>(n - i) * sizeof(T));
  }
}
// Float32: x^2 + y^2 in double neither overflows nor underflows, and its square root rounded to float is
// correctly rounded but for rare double roundings (hypot(5, 12) is 13 exactly, where the scaled formula is
// an ulp off).
void HypotF32(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto inf = hn::Set(dd, std::numeric_limits<double>::infinity());
  auto hypot = [&](auto vx, auto vy) {
    const auto h = hn::Sqrt(hn::MulAdd(vx, vx, hn::Mul(vy, vy)));
    return hn::DemoteTo(df, hn::IfThenElse(hn::Or(hn::Eq(hn::Abs(vx), inf), hn::Eq(hn::Abs(vy), inf)), inf, h));
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto vx = sx ? hn::PromoteTo(dd, hn::LoadU(df, x + i)) : hn::Set(dd, double(x[0]));
    const auto vy = sy ? hn::PromoteTo(dd, hn::LoadU(df, y + i)) : hn::Set(dd, double(y[0]));
    hn::StoreU(hypot(vx, vy), df, out + i);
  }
  if (i < n) {
    HWY_ALIGN double tx[hn::MaxLanes(dd)] = {}, ty[hn::MaxLanes(dd)] = {};
    HWY_ALIGN float to[hn::MaxLanes(dd)];
    for (int64_t j = i; j < n; ++j) {
      tx[j - i] = x[j * sx];
      ty[j - i] = y[j * sy];
    }
    hn::Store(hypot(hn::Load(dd, tx), hn::Load(dd, ty)), df, to);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(float));
  }
}
void HypotF64(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n) {
  hypot_loop(x, sx, y, sy, out, n);
}

template <class T>
HWY_INLINE void nan_to_num_loop(const T* x, T* out, int64_t n, T nan, T posinf, T neginf) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto vnan = hn::Set(d, nan), vpos = hn::Set(d, posinf), vneg = hn::Set(d, neginf);
  const auto inf = hn::Set(d, std::numeric_limits<T>::infinity());
  auto replace = [&](auto v) {
    v = hn::IfThenElse(hn::Eq(v, inf), vpos, hn::IfThenElse(hn::Eq(v, hn::Neg(inf)), vneg, v));
    return hn::IfThenElse(hn::IsNaN(v), vnan, v);
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(replace(hn::LoadU(d, x + i)), d, out + i);
  if (i < n) {
    HWY_ALIGN T t[hn::MaxLanes(d)] = {};
    std::memcpy(t, x + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(replace(hn::Load(d, t)), d, t);
    std::memcpy(out + i, t, static_cast<size_t>(n - i) * sizeof(T));
  }
}
void NanToNumF32(const float* x, float* out, int64_t n, float nan, float posinf, float neginf) {
  nan_to_num_loop(x, out, n, nan, posinf, neginf);
}
void NanToNumF64(const double* x, double* out, int64_t n, double nan, double posinf, double neginf) {
  nan_to_num_loop(x, out, n, nan, posinf, neginf);
}

void Atan2F32(const float* y, int64_t sy, const float* x, int64_t sx, float* out, int64_t n) {
  atan2_loop(y, sy, x, sx, out, n);
}
void Atan2F64(const double* y, int64_t sy, const double* x, int64_t sx, double* out, int64_t n) {
  atan2_loop(y, sy, x, sx, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(MathF32);
HWY_EXPORT(MathF64);
HWY_EXPORT(Atan2F32);
HWY_EXPORT(Atan2F64);
HWY_EXPORT(NanToNumF32);
HWY_EXPORT(HypotF32);
HWY_EXPORT(HypotF64);

void simd_hypot(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(HypotF32)(x, sx, y, sy, out, n);
}
void simd_hypot(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(HypotF64)(x, sx, y, sy, out, n);
}
HWY_EXPORT(NanToNumF64);

void simd_nan_to_num(const float* x, float* out, int64_t n, float nan, float posinf, float neginf) {
  HWY_DYNAMIC_DISPATCH(NanToNumF32)(x, out, n, nan, posinf, neginf);
}
void simd_nan_to_num(const double* x, double* out, int64_t n, double nan, double posinf, double neginf) {
  HWY_DYNAMIC_DISPATCH(NanToNumF64)(x, out, n, nan, posinf, neginf);
}

void simd_math(MathOp op, const float* x, float* out, int64_t n) { HWY_DYNAMIC_DISPATCH(MathF32)(op, x, out, n); }
void simd_math(MathOp op, const double* x, double* out, int64_t n) { HWY_DYNAMIC_DISPATCH(MathF64)(op, x, out, n); }
void simd_atan2(const float* y, int64_t sy, const float* x, int64_t sx, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(Atan2F32)(y, sy, x, sx, out, n);
}
void simd_atan2(const double* y, int64_t sy, const double* x, int64_t sx, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(Atan2F64)(y, sy, x, sx, out, n);
}
}  // namespace sprout
#endif
