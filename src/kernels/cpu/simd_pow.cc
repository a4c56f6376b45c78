// Highway implementation of simd_pow_scalar (simd_math.h; Note [Highway dynamic dispatch] in simd.cc).
//
// Note [Powers by a scalar]
// x ** e with one exponent for every element (x ** 2 in a loss, x ** 0.5, x ** -1) ran std::pow an
// element at a time: 1024x1024 float32 x ** 2 took 4.3 ms against 0.05 for square(x). The exponents
// users write most get vector formulas that give pow's IEEE answer, edge values included: 0 and 1
// (exact), 2 and -1 (one rounding, as pow's correctly rounded result), 3 and -2 (two roundings: within
// an ulp, as PyTorch's x * x * x), 0.5 (sqrt, as NumPy: -0 for -0 and NaN for -inf, where C's pow gives
// +0 and +inf) and -0.5 (1 / sqrt with pow's +inf for -0 and +0 for -inf, as NumPy). Any other float32 exponent is exp(e * log(x)) computed in double, for lanes with x > 0
// finite and the result inside exp's range (Note [Vector math domains]); other lanes, and other float64
// exponents, take std::pow. The same formula serves float32 exponents that vary by element (simd_pow):
// x ** y of 1M float32, two threads, 5.2 -> 1.8 ms (PyTorch 1.3).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_pow.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/simd_math.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

enum class Power { Zero, One, Two, Three, MinusOne, MinusTwo, Half, MinusHalf, General };

Power power_of(double e) {
  if (e == 0) return Power::Zero;
  if (e == 1) return Power::One;
  if (e == 2) return Power::Two;
  if (e == 3) return Power::Three;
  if (e == -1) return Power::MinusOne;
  if (e == -2) return Power::MinusTwo;
  if (e == 0.5) return Power::Half;
  if (e == -0.5) return Power::MinusHalf;
  return Power::General;
}

template <Power P, class D, class V>
HWY_INLINE V power(D d, V x) {
  const V one = hn::Set(d, 1);
  if constexpr (P == Power::Zero) return one;  // pow(x, 0) = 1, NaN included
  if constexpr (P == Power::One) return x;
  if constexpr (P == Power::Two) return hn::Mul(x, x);
  if constexpr (P == Power::Three) return hn::Mul(hn::Mul(x, x), x);
  if constexpr (P == Power::MinusOne) return hn::Div(one, x);
  if constexpr (P == Power::MinusTwo) return hn::Div(one, hn::Mul(x, x));
  if constexpr (P == Power::Half) return hn::Sqrt(x);  // NumPy's x ** 0.5: sqrt's -0 and NaN for -inf
  if constexpr (P == Power::MinusHalf) {
    // pow's edges, as NumPy's x ** -0.5: +inf for -0 (sqrt(-0) + 0 is +0), +0 for -inf (sqrt's NaN).
    const V root = hn::Add(hn::Sqrt(x), hn::Zero(d));
    const auto minus_inf = hn::Eq(x, hn::Set(d, -std::numeric_limits<hn::TFromD<D>>::infinity()));
    return hn::Div(one, hn::IfThenElse(minus_inf, hn::Set(d, std::numeric_limits<hn::TFromD<D>>::infinity()), root));
  }
}

template <Power P, class T>
void power_loop(const T* x, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(power<P>(d, hn::LoadU(d, x + i)), d, out + i);
  if (i < n) {  // the tail through padded copies
    HWY_ALIGN T tx[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
    std::copy(x + i, x + n, tx);
    hn::Store(power<P>(d, hn::Load(d, tx)), d, to);
    std::copy(to, to + (n - i), out + i);
  }
}

// Float32 x ** e for any e: exp(e * log(x)) in double, a double vector's worth of floats at a time; lanes
// outside (x not positive and finite, or the product beyond exp's range) take std::pow. x and e each have
// stride 1 or 0 (one value for every element).
void general_power(const float* x, int64_t sx, const float* e, int64_t se, float* out, int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
  const auto limit = hn::Set(dd, 700.0);
  const auto fixed_x = hn::Set(dd, static_cast<double>(x[0])), fixed_e = hn::Set(dd, static_cast<double>(e[0]));
  // A whole vector from xs, es to dst; m of its lanes are wanted (the others are padding of 1).
  auto block = [&](const float* xs, const float* es, float* dst, int64_t m) {
    const auto xd = sx ? hn::PromoteTo(dd, hn::LoadU(df, xs)) : fixed_x;
    const auto ed = se ? hn::PromoteTo(dd, hn::LoadU(df, es)) : fixed_e;
    const auto t = hn::Mul(ed, hn::Log(dd, xd));
    const auto inside = hn::And(hn::And(hn::Gt(xd, hn::Zero(dd)), hn::Lt(xd, hn::Set(dd, HUGE_VAL))),
                                hn::Lt(hn::Abs(t), limit));  // NaN in t (an exponent of NaN or inf) fails too
    const bool all_inside = hn::AllTrue(dd, inside);
    HWY_ALIGN float bases[hn::MaxLanes(dd)], powers[hn::MaxLanes(dd)];
    if (!all_inside) {  // copies first: dst may alias xs or es
      for (int64_t j = 0; j < m; ++j) {
        bases[j] = xs[j * sx];
        powers[j] = es[j * se];
      }
    }
    hn::StoreU(hn::DemoteTo(df, hn::Exp(dd, t)), df, dst);
    if (!all_inside) {  // rare: recompute the lanes outside (NaN, 0, negatives, infinities)
      for (int64_t j = 0; j < m; ++j) {
        const float v = bases[j], p = powers[j];
        if (!(v > 0 && v < HUGE_VALF && std::fabs(p * std::log(static_cast<double>(v))) < 700.0))
          dst[j] = std::pow(v, p);
      }
    }
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) block(x + i * sx, e + i * se, out + i, lanes);
  if (i < n) {
    HWY_ALIGN float tx[hn::MaxLanes(dd)], te[hn::MaxLanes(dd)], to[hn::MaxLanes(dd)];
    std::fill(tx, tx + hn::MaxLanes(dd), 1.0f);
    std::fill(te, te + hn::MaxLanes(dd), 1.0f);
    for (int64_t j = i; j < n; ++j) {
      tx[j - i] = x[j * sx];
      te[j - i] = e[j * se];
    }
    block(tx, te, to, n - i);  // a stride of 0 reads the copy's first value, which is x[0] (or e[0])
    std::copy(to, to + (n - i), out + i);
  }
}

template <class T>
bool pow_scalar_impl(const T* x, T e, T* out, int64_t n) {
  switch (power_of(static_cast<double>(e))) {
    case Power::Zero: return power_loop<Power::Zero>(x, out, n), true;
    case Power::One: return power_loop<Power::One>(x, out, n), true;
    case Power::Two: return power_loop<Power::Two>(x, out, n), true;
    case Power::Three: return power_loop<Power::Three>(x, out, n), true;
    case Power::MinusOne: return power_loop<Power::MinusOne>(x, out, n), true;
    case Power::MinusTwo: return power_loop<Power::MinusTwo>(x, out, n), true;
    case Power::Half: return power_loop<Power::Half>(x, out, n), true;
    case Power::MinusHalf: return power_loop<Power::MinusHalf>(x, out, n), true;
    case Power::General:
      if constexpr (sizeof(T) == 4) {
        if (std::isfinite(e)) return general_power(x, 1, &e, 0, out, n), true;
      }
      return false;
  }
  return false;
}

bool PowScalarF32(const float* x, float e, float* out, int64_t n) { return pow_scalar_impl(x, e, out, n); }
bool PowScalarF64(const double* x, double e, double* out, int64_t n) { return pow_scalar_impl(x, e, out, n); }
void PowF32(const float* x, int64_t sx, const float* e, int64_t se, float* out, int64_t n) {
  general_power(x, sx, e, se, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(PowScalarF32);
HWY_EXPORT(PowScalarF64);
HWY_EXPORT(PowF32);

bool simd_pow_scalar(const float* x, float e, float* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(PowScalarF32)(x, e, out, n);
}
bool simd_pow_scalar(const double* x, double e, double* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(PowScalarF64)(x, e, out, n);
}
void simd_pow(const float* x, int64_t sx, const float* e, int64_t se, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(PowF32)(x, sx, e, se, out, n);
}
}  // namespace sprout
#endif  // HWY_ONCE
