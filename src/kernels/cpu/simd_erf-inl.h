// erf and erfc on Highway vectors (erf_f32, erf_vec) and the polynomial helpers they are built from,
// shared by simd_math.cc (the Erf and Erfc ops) and simd_special.cc (erfinv's Newton-Halley steps).
// Per-target like simd_exp-inl.h: include it after hwy/highway.h in a file foreach_target.h re-includes.
#if defined(SPROUT_KERNELS_CPU_SIMD_ERF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SPROUT_KERNELS_CPU_SIMD_ERF_INL_H_
#undef SPROUT_KERNELS_CPU_SIMD_ERF_INL_H_
#else
#define SPROUT_KERNELS_CPU_SIMD_ERF_INL_H_
#endif

#include <hwy/highway.h>

#include <iterator>

#include "kernels/cpu/simd_erf_coefficients.h"
#include "kernels/cpu/simd_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Beyond this |x|, erfc's result is subnormal (float) or about to be (double): libm takes over.
template <class T>
constexpr T kErfLimit = sizeof(T) == 4 ? T(9) : T(26);

// Clenshaw's recurrence: the sum of the first N Chebyshev coefficients c at t in [-1, 1].
template <int N, class D, class V>
HWY_INLINE V chebyshev(D d, const double* c, V t) {
  using T = hn::TFromD<D>;
  const V t2 = hn::Add(t, t);
  V b1 = hn::Zero(d), b2 = hn::Zero(d);
  for (int k = N - 1; k >= 1; --k) {
    V b0 = hn::MulAdd(t2, b1, hn::Sub(hn::Set(d, static_cast<T>(c[k])), b2));
    b2 = b1;
    b1 = b0;
  }
  return hn::MulAdd(t, b1, hn::Sub(hn::Set(d, static_cast<T>(c[0])), b2));
}

// exp(-x^2) without the rounding error of x^2 (which exp would magnify by x^2): x = hi + lo with hi
// short enough that hi^2 is exact, and x^2 = hi^2 + (x - hi)(x + hi).
template <class D, class V>
HWY_INLINE V exp_neg_square(D d, V x) {
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  using U = hn::TFromD<decltype(du)>;
  const U keep = sizeof(T) == 4 ? U(0xFFFFF000u) : U(0xFFFFFFFFF8000000ull);
  const V hi = hn::BitCast(d, hn::And(hn::BitCast(du, x), hn::Set(du, keep)));
  const V lo = hn::Mul(hn::Sub(x, hi), hn::Add(x, hi));
  // erf's |x| <= kErfLimit keeps -x^2 inside exp_f32's range.
  return hn::Mul(exp_vec(d, hn::Neg(hn::Mul(hi, hi))), exp_vec(d, hn::Neg(lo)));
}

// p_F + p_{F+1} t + ... + p_{N-1} t^{N-1-F} by Horner's rule.
template <int F = 0, int N, class D, class V>
HWY_INLINE V horner(D d, const double (&p)[N], V t) {
  using T = hn::TFromD<D>;
  V acc = hn::Set(d, static_cast<T>(p[N - 1]));
  for (int k = N - 2; k >= F; --k) acc = hn::MulAdd(acc, t, hn::Set(d, static_cast<T>(p[k])));
  return acc;
}

// Note [Float32 erf]
// erfc's pieces must keep relative accuracy far out in the tail, which costs a 12-term middle piece and
// two exps. erf only needs accuracy relative to its own value, which is at least erf(1) = 0.84 beyond
// |x| = 1, so there 1 - erfc(x) with erfc(x) = exp(L(x)) and L = log erfc a smooth degree-9 polynomial
// suffices: an absolute error e in L is a relative error e in erfc, at most 0.16 e in erf. Below 1,
// x G(x^2) with G of degree 6. erf(4) rounds to 1, so |x| is clamped at 4. Coefficients:
// scripts/gen_erf_coefficients.py. Against float64 erf over every float in [0, 9]:
// at most 2.08 ulp. 256K standard normal floats in cache, 2 threads, Zen 4: 183 -> 101 us (PyTorch 184).
template <class D, class V>
HWY_INLINE V erf_f32(D d, V x) {
  namespace ec = erf_coefficients;
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1)), ax = hn::Abs(x);
  const auto small = hn::Lt(ax, one);
  V small_erf = hn::Zero(d), big_erf = hn::Zero(d);
  if (!hn::AllFalse(d, small)) {  // |x| p_0 + |x| s (p_1 + p_2 s + ...): the leading term rounded once
    const V s = hn::Mul(x, x);
    const V rest = hn::Mul(hn::Mul(ax, s), horner<1>(d, ec::kErfSmallF32, s));
    small_erf = hn::MulAdd(ax, hn::Set(d, T(ec::kErfSmallF32[0])), rest);
  }
  if (!hn::AllTrue(d, small)) {
    const V u = hn::Sub(hn::Min(ax, hn::Set(d, T(4))), hn::Set(d, T(2.5)));
    big_erf = hn::Sub(one, exp_f32(d, horner(d, ec::kErfTailF32, u)));
  }
  return hn::CopySign(hn::IfThenElse(small, small_erf, big_erf), x);
}

// erfc, and double erf, from three Chebyshev pieces (scripts/gen_erf_coefficients.py):
//   |x| < 1: erf(x) = x g(x^2);  1 <= |x| < 3: erfc(|x|) = exp(-x^2) h(|x|);
//   |x| >= 3: erfc(|x|) = exp(-x^2) u k(u) with u = 1/|x|.
// erf(-x) = -erf(x) and erfc(-x) = 2 - erfc(x) give the rest. Only the pieces some lane needs are
// evaluated. Float32 uses the leading coefficients, double all of them.
template <class V>
struct ErfPieces {
  V small_erf;  // erf(x) where |x| < 1, else 0
  V tail;       // erfc(|x|) where |x| >= 1, else 0
};

// `exp_neg_sq`, when given, is exp(-x^2) for every lane (a caller that has it already); else the accurate
// exp_neg_square is taken where some lane needs the tail.
template <class D, class V>
HWY_INLINE ErfPieces<V> erf_pieces(D d, V x, const V* exp_neg_sq = nullptr) {
  namespace ec = erf_coefficients;
  using T = hn::TFromD<D>;
  constexpr bool f32 = sizeof(T) == 4;
  const V one = hn::Set(d, T(1)), three = hn::Set(d, T(3));
  const V ax = hn::Abs(x);
  const auto small = hn::Lt(ax, one), large = hn::Ge(ax, three);
  V small_erf = hn::Zero(d), tail = hn::Zero(d);
  if (!hn::AllFalse(d, small)) {
    const V t = hn::MulSub(hn::Set(d, T(2)), hn::Mul(x, x), one);  // x^2 in [0, 1] -> [-1, 1]
    small_erf = hn::Mul(x, f32 ? chebyshev<ec::kErfSmallTerms32>(d, ec::kErfSmall, t)
                               : chebyshev<std::size(ec::kErfSmall)>(d, ec::kErfSmall, t));
  }
  if (!hn::AllTrue(d, small)) {
    V poly = hn::Zero(d);
    if (!hn::AllTrue(d, hn::Or(small, large))) {
      const V t = hn::Sub(ax, hn::Set(d, T(2)));  // [1, 3] -> [-1, 1]
      poly = f32 ? chebyshev<ec::kErfcMiddleTerms32>(d, ec::kErfcMiddle, t)
                 : chebyshev<std::size(ec::kErfcMiddle)>(d, ec::kErfcMiddle, t);
    }
    if (!hn::AllFalse(d, large)) {
      const V u = hn::Div(one, ax);
      const V t = hn::MulSub(hn::Set(d, T(6)), u, one);  // [0, 1/3] -> [-1, 1]
      const V k = f32 ? chebyshev<ec::kErfcLargeTerms32>(d, ec::kErfcLarge, t)
                      : chebyshev<std::size(ec::kErfcLarge)>(d, ec::kErfcLarge, t);
      poly = hn::IfThenElse(large, hn::Mul(u, k), poly);
    }
    tail = hn::Mul(exp_neg_sq ? *exp_neg_sq : exp_neg_square(d, ax), poly);  // erfc(|x|) where |x| >= 1
  }
  return {small_erf, tail};
}

template <bool COMPLEMENT, class D, class V>
HWY_INLINE V erf_vec(D d, V x) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, T(1));
  const auto small = hn::Lt(hn::Abs(x), one);
  const auto [small_erf, tail] = erf_pieces(d, x);
  const auto negative = hn::Lt(x, hn::Zero(d));
  if constexpr (COMPLEMENT) {
    const V reflected = hn::IfThenElse(negative, hn::Sub(hn::Set(d, T(2)), tail), tail);
    return hn::IfThenElse(small, hn::Sub(one, small_erf), reflected);
  } else {
    const V big = hn::Sub(one, tail);
    return hn::IfThenElse(small, small_erf, hn::IfThenElse(negative, hn::Neg(big), big));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#endif  // SPROUT_KERNELS_CPU_SIMD_ERF_INL_H_
