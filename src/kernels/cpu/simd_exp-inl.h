// exp_f32, log_f32 and tanh_f32, the float32 exp, log and tanh shared by the Highway kernels (simd.cc,
// simd_math.cc, nn_act_simd.cc, nn_rnn_cell_simd.cc), and the exp-based pieces built on them (exp_vec,
// exp_flush, sigmoid). Compiled per target like those files: include it after hwy/highway.h in a file
// that foreach_target.h re-includes.
// The guard toggles with HWY_TARGET_TOGGLE, Highway's pattern for per-target headers.
#if defined(SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#undef SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#else
#define SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Note [Float32 exp]
// Highway's Exp runs a longer polynomial than float32 needs; on AVX-512 it made Exp the one unary op
// slower than PyTorch's (Sleef). This is Cephes' expf: n = round(x / ln 2), r = x - n ln 2 with ln 2
// split in two so n * hi is exact, e^r by a degree-7 polynomial (relative error below 2e-7, about
// 1.5 ulp), times 2^n by adding n to the exponent bits. Valid for x in (-87.33654, 88.72283), where
// 2^n e^r stays a normal float: callers handle the lanes outside (simd.cc redoes them with libm,
// nn_act_simd.cc's exp_flush clamps and flushes to 0).
// n comes from adding 1.5 * 2^23, which rounds x / ln 2 to an integer in the low mantissa bits (to
// nearest even, as Round does): its bits minus the constant's are n as an integer, so neither a round
// nor a conversion instruction is needed.
template <class D, class V>
HWY_INLINE V exp_f32(D d, V x) {
  const hn::RebindToSigned<D> di;
  const V magic = hn::Set(d, 12582912.0f);  // 1.5 * 2^23
  const V shifted = hn::MulAdd(x, hn::Set(d, 1.44269504088896341f), magic);
  const V n = hn::Sub(shifted, magic);
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), x);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.9875691500e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3981999507e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.3334519073e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.1665795894e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.6666665459e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.0000001201e-1f));
  const V e_r = hn::MulAdd(hn::Mul(p, r), r, hn::Add(r, hn::Set(d, 1.0f)));  // 1 + r + r^2 p(r)
  const auto n_int = hn::Sub(hn::BitCast(di, shifted), hn::BitCast(di, magic));
  const auto scaled = hn::Add(hn::BitCast(di, e_r), hn::ShiftLeft<23>(n_int));
  return hn::BitCast(d, scaled);
}

// Note [Float32 exp by VSCALEFPS]
// AVX-512's VSCALEFPS multiplies by 2^floor(t) with IEEE overflow to inf and gradual underflow, which the
// exponent-bits add of exp_f32 cannot do: with it exp covers every float (inf for x > 88.72,
// subnormals below -87.34, 0 from -104, NaN kept), and callers drop their domain checks and flush-to-zero
// masks. exp-bound kernels (softmax, sigmoid, exp of a cache-resident tensor) are compute-bound on Zen 4,
// where a 512-bit FMA or multiply takes both FMA pipes, so their speed is this function's count of them.
// It reduces by sixteenths of ln 2 with a table, which VPERMPS reads from a register: t = n / 16 nearest
// x / ln 2, r = x - t ln 2 in [-ln2/32, ln2/32], exp(x) = 2^floor(t) 2^(j/16) e^r with j = n mod 16. On
// so short an interval e^r needs only its Taylor terms through r^3 (the next is below 1e-8 relative), and
// 2^(j/16) (1 + p) with p = e^r - 1 small rounds once. VSCALEFPS takes the FMA pipes too: 8 ops there
// where Cephes' degree-7 polynomial (Note [Float32 exp]) took 11, 11.1 -> 8.3 cycles per vector (4096
// floats in L1, one thread; a 1M-float Exp 207 -> 161 us), and at most 1.07 ulp from float64 exp over
// every float in [-104, 89] (1.26 before).
// t comes from adding 1.5 * 2^19, whose ulp is 1/16: the sum's low mantissa bits are n, so its bits are
// VPERMPS's index as they are (it reads the low four), and the sum minus the constant is t exactly.
// r = x - t ln 2 in two steps (ln 2 as a float plus its remainder), each an FMA, so t ln 2 is exact.
// The clamp to [-104, 89] keeps t finite (-inf would make r NaN); x86's max and min return their second
// operand when either is NaN, so with x second a NaN passes through both.
#undef SPROUT_EXP_F32_SCALEF  // set per target: this header is compiled once for each
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define SPROUT_EXP_F32_SCALEF 1
// x must lie in [-1000, 89] here (|x / ln 2| far below 2^18, where adding 1.5 * 2^19 would stop rounding
// to sixteenths): exp_f32_scalef clamps to that, callers that know their range skip the clamp.
HWY_INLINE hn::Vec512<float> exp_f32_scalef_finite(hn::Vec512<float> x) {
  const __m512 two_to_sixteenths =  // 2^(j/16), j = 0 .. 15
      _mm512_setr_ps(1.0f, 1.0442737824274138f, 1.0905077326652577f, 1.1387886347566916f, 1.189207115002721f,
                     1.241857812073484f, 1.2968395546510096f, 1.3542555469368927f, 1.4142135623730951f,
                     1.4768261459394993f, 1.5422108254079407f, 1.6104903319492543f, 1.681792830507429f,
                     1.7562521603732995f, 1.8340080864093424f, 1.9152065613971474f);
  const __m512 magic = _mm512_set1_ps(786432.0f);  // 1.5 * 2^19
  const __m512 shifted = _mm512_fmadd_ps(x.raw, _mm512_set1_ps(1.44269504088896341f), magic);
  const __m512 t = _mm512_sub_ps(shifted, magic);
  __m512 r = _mm512_fnmadd_ps(t, _mm512_set1_ps(0.693147182464599609375f), x.raw);
  r = _mm512_fnmadd_ps(t, _mm512_set1_ps(-1.904654323148236e-09f), r);
  __m512 q = _mm512_fmadd_ps(_mm512_set1_ps(1.0f / 6), r, _mm512_set1_ps(0.5f));
  q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(1.0f));
  const __m512 p = _mm512_mul_ps(q, r);  // e^r - 1
  const __m512 s = _mm512_permutexvar_ps(_mm512_castps_si512(shifted), two_to_sixteenths);
  return hn::Vec512<float>{_mm512_scalef_ps(_mm512_fmadd_ps(s, p, s), t)};
}

HWY_INLINE hn::Vec512<float> exp_f32_scalef(hn::Vec512<float> x) {
  return exp_f32_scalef_finite(hn::Vec512<float>{
      _mm512_min_ps(_mm512_set1_ps(89.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x.raw))});
}
#endif

// Whether exp_vec of this vector type is exact IEEE exp over every input (inf, 0, subnormals, NaN), so
// callers need no domain check: float32 vectors of AVX-512 (Note [Float32 exp by VSCALEFPS]).
template <class V>
constexpr bool exp_vec_covers_all_inputs() {
#ifdef SPROUT_EXP_F32_SCALEF
  return std::is_same_v<V, hn::Vec512<float>>;
#else
  return false;
#endif
}

// exp of either float type: float32 by exp_f32_scalef or by exp_f32 (inside its domain, see above),
// double by Highway's Exp.
template <class D, class V>
HWY_INLINE V exp_vec(D d, V x) {
  if constexpr (exp_vec_covers_all_inputs<V>()) {
#ifdef SPROUT_EXP_F32_SCALEF
    return exp_f32_scalef(x);
#endif
  } else if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return exp_f32(d, x);
  } else {
    return hn::Exp(d, x);
  }
}

// exp(x) for x <= 20 (the callers' arguments are at most 0, Mish's 20); NaN stays NaN (a softmax row
// holding NaN is all NaN, as in PyTorch). Where the result is not a normal number it is flushed to
// exactly 0. With VSCALEFPS too: a subnormal or underflowing result costs a microcode assist per
// vector on Intel cores (a causal softmax, half its scores -1e9, 0.20 -> 0.90 ms on Emerald Rapids),
// so the argument is clamped to the normal range and the lanes below it zeroed. -87.3 is inside
// exp_f32's domain.
template <class D, class V>
HWY_INLINE V exp_flush(D d, V x) {
  using T = hn::TFromD<D>;
  const V lo = hn::Set(d, sizeof(T) == 4 ? T(-87.3) : T(-708.0));
  if constexpr (exp_vec_covers_all_inputs<V>()) {
#ifdef SPROUT_EXP_F32_SCALEF
    const V e = exp_f32_scalef_finite(V{_mm512_max_ps(lo.raw, x.raw)});  // x second: NaN kept
    return hn::IfThenZeroElse(hn::Lt(x, lo), e);
#endif
  } else {
    const V e = exp_vec(d, hn::Max(x, lo));
    return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenZeroElse(hn::Lt(x, lo), e));
  }
}

// 1 / (1 + exp(-x)) from e = exp(-|x|): sigmoid(|x|) = 1 / (1 + e), sigmoid(-|x|) = e / (1 + e); NaN
// stays NaN.
template <class D, class V>
HWY_INLINE V sigmoid(D d, V x) {
  const V one = hn::Set(d, 1);
  V e = exp_flush(d, hn::Neg(hn::Abs(x)));
  V r = hn::Div(one, hn::Add(one, e));
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Mul(e, r), r);
}

// Note [Float32 log]
// Highway's Log made Log 1.4x slower than PyTorch's on AVX-512. This is Cephes' logf: x = m 2^e with
// m in [sqrt(1/2), sqrt(2)) read off the bits, f = m - 1, log(1 + f) = f - f^2/2 + f^3 P(f) with P of
// degree 8, and e ln 2 added in two parts (hi exact in float). Valid for normal positive finite x:
// callers redo zero, negatives, subnormals, inf and NaN with libm.
template <class D, class V>
HWY_INLINE V log_f32(D d, V x) {
  const hn::RebindToSigned<D> di;
  const auto bits = hn::BitCast(di, x);
  // m in [0.5, 1) and e with x = m 2^e, as frexp gives them.
  const V m = hn::BitCast(d, hn::Or(hn::And(bits, hn::Set(di, 0x007fffff)), hn::Set(di, 0x3f000000)));
  V e = hn::ConvertTo(d, hn::Sub(hn::ShiftRight<23>(bits), hn::Set(di, 126)));
  const auto small = hn::Lt(m, hn::Set(d, 0.707106781186547524f));
  e = hn::IfThenElse(small, hn::Sub(e, hn::Set(d, 1.0f)), e);
  const V f = hn::Sub(hn::IfThenElse(small, hn::Add(m, m), m), hn::Set(d, 1.0f));
  const V z = hn::Mul(f, f);
  V p = hn::Set(d, 7.0376836292e-2f);
  for (float c : {-1.1514610310e-1f, 1.1676998740e-1f, -1.2420140846e-1f, 1.4249322787e-1f, -1.6668057665e-1f,
                  2.0000714765e-1f, -2.4999993993e-1f, 3.3333331174e-1f})
    p = hn::MulAdd(p, f, hn::Set(d, c));
  V y = hn::Mul(hn::Mul(f, z), p);
  y = hn::MulAdd(e, hn::Set(d, -2.12194440e-4f), y);
  y = hn::MulAdd(z, hn::Set(d, -0.5f), y);
  return hn::MulAdd(e, hn::Set(d, 0.693359375f), hn::Add(f, y));
}

// Note [Float32 tanh]
// Highway's Tanh goes through its Expm1 and made Tanh 1.8x slower than PyTorch's (Sleef) on AVX-512.
// This is Sleef's formulation with exp_f32's reduction: tanh|x| = y / (y + 2) with y = expm1(2|x|),
// which keeps relative accuracy at small |x| (no 1 - 2/(e + 1) cancellation) and near 1 (y/(y+2) is
// well conditioned). expm1 of t = 2|x|: n = round(t / ln 2), r = t - n ln 2 in [-ln2/2, ln2/2],
// expm1(r) by its Taylor series through r^8 (the next term is below 6e-10 of the result), and
// expm1(t) = 2^n expm1(r) + (2^n - 1), exact at n = 0. |x| is clamped to 9.1, where tanh rounds to 1 in
// float32, so 2^n stays a normal float (and +-inf gives +-1); the sign of x is put back last
// (tanh(-0) = -0), and NaN, which the clamp turns into 9.1, is selected back.
template <class D, class V>
HWY_INLINE V tanh_f32(D d, V x) {
  const hn::RebindToSigned<D> di;
  const V sign = hn::And(x, hn::Set(d, -0.0f));
  const V a = hn::Min(hn::Abs(x), hn::Set(d, 9.1f));
  const V t = hn::Add(a, a);
  const V magic = hn::Set(d, 12582912.0f);  // 1.5 * 2^23, as in exp_f32
  const V shifted = hn::MulAdd(t, hn::Set(d, 1.44269504088896341f), magic);
  const V n = hn::Sub(shifted, magic);
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), t);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.0f / 40320);
  for (float c : {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f}) p = hn::MulAdd(p, r, hn::Set(d, c));
  const V expm1_r = hn::MulAdd(hn::Mul(r, r), p, r);
  const auto n_int = hn::Sub(hn::BitCast(di, shifted), hn::BitCast(di, magic));
  const V two_n = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n_int, hn::Set(di, 127))));
  const V y = hn::MulAdd(two_n, expm1_r, hn::Sub(two_n, hn::Set(d, 1.0f)));
  const V result = hn::Or(hn::Div(y, hn::Add(y, hn::Set(d, 2.0f))), sign);
  return hn::IfThenElse(hn::IsNaN(x), x, result);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#endif  // SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
