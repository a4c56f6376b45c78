// Highway implementation of simd_clamp.h (Note [Highway dynamic dispatch] in simd.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_clamp.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <type_traits>

#include "kernels/cpu/simd_clamp.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
void clamp_impl(const T* x, T lo, T hi, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(d, x + i);
    auto clamped = hn::Min(hn::Max(v, vlo), vhi);
    if constexpr (std::is_floating_point_v<T>) clamped = hn::IfThenElse(hn::IsNaN(v), v, clamped);  // NaN stays NaN
    hn::StoreU(clamped, d, out + i);
  }
  for (; i < n; ++i) {
    const T m = x[i] < lo ? lo : x[i];
    out[i] = m > hi ? hi : m;
  }
}

void ClampI64(const int64_t* x, int64_t lo, int64_t hi, int64_t* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampI32(const int32_t* x, int32_t lo, int32_t hi, int32_t* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampI16(const int16_t* x, int16_t lo, int16_t hi, int16_t* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampI8(const int8_t* x, int8_t lo, int8_t hi, int8_t* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampF32(const float* x, float lo, float hi, float* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampF64(const double* x, double lo, double hi, double* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }
void ClampU8(const uint8_t* x, uint8_t lo, uint8_t hi, uint8_t* out, int64_t n) { clamp_impl(x, lo, hi, out, n); }

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(ClampI64);
HWY_EXPORT(ClampI32);
HWY_EXPORT(ClampI16);
HWY_EXPORT(ClampI8);
HWY_EXPORT(ClampU8);
HWY_EXPORT(ClampF32);
HWY_EXPORT(ClampF64);

void simd_clamp(const float* x, float lo, float hi, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampF32)(x, lo, hi, out, n);
}
void simd_clamp(const double* x, double lo, double hi, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampF64)(x, lo, hi, out, n);
}

void simd_clamp(const int64_t* x, int64_t lo, int64_t hi, int64_t* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampI64)(x, lo, hi, out, n);
}
void simd_clamp(const int32_t* x, int32_t lo, int32_t hi, int32_t* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampI32)(x, lo, hi, out, n);
}
void simd_clamp(const int16_t* x, int16_t lo, int16_t hi, int16_t* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampI16)(x, lo, hi, out, n);
}
void simd_clamp(const int8_t* x, int8_t lo, int8_t hi, int8_t* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampI8)(x, lo, hi, out, n);
}
void simd_clamp(const uint8_t* x, uint8_t lo, uint8_t hi, uint8_t* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ClampU8)(x, lo, hi, out, n);
}
}  // namespace sprout
#endif
