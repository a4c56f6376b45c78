// exp_f32, the float32 exp shared by the Highway kernels (simd.cc, nn_act_simd.cc, nn_rnn_cell_simd.cc),
// compiled per target like them: include it after hwy/highway.h in a file that foreach_target.h
// re-includes.
// The guard toggles with HWY_TARGET_TOGGLE, Highway's pattern for per-target headers.
#if defined(SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#undef SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#else
#define SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
#endif

#include <hwy/highway.h>

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

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#endif  // SPROUT_KERNELS_CPU_SIMD_EXP_INL_H_
