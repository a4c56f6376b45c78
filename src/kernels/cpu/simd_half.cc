// Highway implementation of simd_half.h (Note [Highway dynamic dispatch] in simd.cc). float16 goes
// through the CPU's conversion instructions (F16C) on the AVX2 and AVX-512 targets; older targets keep
// the scalar conversion, because Highway's emulated narrowing truncates where float16(float) rounds.
// bfloat16 is float's upper half: widening shifts, narrowing adds the rounding bias first.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_half.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "kernels/cpu/simd_half.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET < HWY_SSE4 && !defined(HWY_DISABLE_F16C)
constexpr bool kHardwareF16 = true;
#else
constexpr bool kHardwareF16 = false;
#endif

void WidenF16(const float16* x, float* out, int64_t n) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto* h = reinterpret_cast<const hwy::float16_t*>(x);
  int64_t i = 0;
  if constexpr (kHardwareF16) {
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::PromoteTo(df, hn::LoadU(dh, h + i)), df, out + i);
  }
  for (; i < n; ++i) out[i] = static_cast<float>(x[i]);
}

void NarrowF16(const float* x, float16* out, int64_t n) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  auto* h = reinterpret_cast<hwy::float16_t*>(out);
  int64_t i = 0;
  if constexpr (kHardwareF16) {
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::DemoteTo(dh, hn::LoadU(df, x + i)), dh, h + i);
  }
  for (; i < n; ++i) out[i] = float16(x[i]);
}

void WidenBF16(const bfloat16* x, float* out, int64_t n) {
  const hn::ScalableTag<uint32_t> du;
  const hn::Rebind<uint16_t, decltype(du)> dh;
  const hn::RebindToFloat<decltype(du)> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(du));
  const auto* bits = reinterpret_cast<const uint16_t*>(x);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(dh, bits + i)))), df, out + i);
  for (; i < n; ++i) out[i] = static_cast<float>(x[i]);
}

// bfloat16::from_float per vector: a NaN stays a (quiet) NaN, everything else rounds to nearest even.
void NarrowBF16(const float* x, bfloat16* out, int64_t n) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::RebindToSigned<decltype(df)> di;
  const hn::Rebind<uint16_t, decltype(df)> dh;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  auto* bits = reinterpret_cast<uint16_t*>(out);
  const auto bias = hn::Set(du, 0x7fffu), one = hn::Set(du, 1u), quiet = hn::Set(du, 0x40u);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(df, x + i);
    const auto f = hn::BitCast(du, v);
    const auto rounded = hn::ShiftRight<16>(hn::Add(f, hn::Add(bias, hn::And(hn::ShiftRight<16>(f), one))));
    const auto nan = hn::Or(hn::ShiftRight<16>(f), quiet);
    const auto upper = hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), nan, rounded);
    hn::StoreU(hn::DemoteTo(dh, hn::BitCast(di, upper)), dh, bits + i);  // every value < 2^16: no saturation
  }
  for (; i < n; ++i) out[i] = bfloat16(x[i]);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(WidenF16);
HWY_EXPORT(NarrowF16);
HWY_EXPORT(WidenBF16);
HWY_EXPORT(NarrowBF16);

void simd_widen(const float16* x, float* out, int64_t n) { HWY_DYNAMIC_DISPATCH(WidenF16)(x, out, n); }
void simd_widen(const bfloat16* x, float* out, int64_t n) { HWY_DYNAMIC_DISPATCH(WidenBF16)(x, out, n); }
void simd_narrow(const float* x, float16* out, int64_t n) { HWY_DYNAMIC_DISPATCH(NarrowF16)(x, out, n); }
void simd_narrow(const float* x, bfloat16* out, int64_t n) { HWY_DYNAMIC_DISPATCH(NarrowBF16)(x, out, n); }
}  // namespace sprout
#endif
