// Highway loops over interleaved RGB pixels: a vector of pixels is loaded as three de-interleaved
// channel vectors (LoadInterleaved3), so each channel gets its own constants or its own plane.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "data/image_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <type_traits>

#include "data/image_simd.h"

HWY_BEFORE_NAMESPACE();
namespace sprout::data {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One channel of `lanes` pixels, as float.
template <class DF, class V>
HWY_INLINE hn::Vec<DF> as_float(DF df, V channel) {
  if constexpr (std::is_same_v<hn::TFromV<V>, float>)
    return channel;
  else
    return hn::ConvertTo(df, hn::PromoteTo(hn::Rebind<int32_t, DF>(), channel));
}

template <class T>
void NormalizeRgb(const T* src, float* dst, int64_t pixels, const float* mean, const float* inv_std) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<T, decltype(df)> ds;  // as many source lanes as float lanes
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto m0 = hn::Set(df, mean[0]), m1 = hn::Set(df, mean[1]), m2 = hn::Set(df, mean[2]);
  const auto s0 = hn::Set(df, inv_std[0]), s1 = hn::Set(df, inv_std[1]), s2 = hn::Set(df, inv_std[2]);
  int64_t p = 0;
  for (; p + lanes <= pixels; p += lanes) {
    hn::Vec<decltype(ds)> r, g, b;
    hn::LoadInterleaved3(ds, src + 3 * p, r, g, b);
    hn::StoreInterleaved3(hn::Mul(hn::Sub(as_float(df, r), m0), s0), hn::Mul(hn::Sub(as_float(df, g), m1), s1),
                          hn::Mul(hn::Sub(as_float(df, b), m2), s2), df, dst + 3 * p);
  }
  for (; p < pixels; ++p)
    for (int c = 0; c < 3; ++c) dst[3 * p + c] = (static_cast<float>(src[3 * p + c]) - mean[c]) * inv_std[c];
}

template <class T>
void DeinterleaveRgb(const T* src, T* planes, int64_t pixels) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  T* r_plane = planes;
  T* g_plane = planes + pixels;
  T* b_plane = planes + 2 * pixels;
  int64_t p = 0;
  for (; p + lanes <= pixels; p += lanes) {
    hn::Vec<decltype(d)> r, g, b;
    hn::LoadInterleaved3(d, src + 3 * p, r, g, b);
    hn::StoreU(r, d, r_plane + p);
    hn::StoreU(g, d, g_plane + p);
    hn::StoreU(b, d, b_plane + p);
  }
  for (; p < pixels; ++p) {
    r_plane[p] = src[3 * p];
    g_plane[p] = src[3 * p + 1];
    b_plane[p] = src[3 * p + 2];
  }
}

void NormalizeRgbU8(const uint8_t* src, float* dst, int64_t pixels, const float* mean, const float* inv_std) {
  NormalizeRgb(src, dst, pixels, mean, inv_std);
}
void NormalizeRgbF32(const float* src, float* dst, int64_t pixels, const float* mean, const float* inv_std) {
  NormalizeRgb(src, dst, pixels, mean, inv_std);
}
void DeinterleaveRgbU8(const uint8_t* src, uint8_t* planes, int64_t pixels) { DeinterleaveRgb(src, planes, pixels); }
void DeinterleaveRgbF32(const float* src, float* planes, int64_t pixels) { DeinterleaveRgb(src, planes, pixels); }

}  // namespace HWY_NAMESPACE
}  // namespace sprout::data
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout::data {
HWY_EXPORT(NormalizeRgbU8);
HWY_EXPORT(NormalizeRgbF32);
HWY_EXPORT(DeinterleaveRgbU8);
HWY_EXPORT(DeinterleaveRgbF32);

void simd_normalize_rgb(const uint8_t* src, float* dst, int64_t pixels, const float mean[3], const float inv_std[3]) {
  HWY_DYNAMIC_DISPATCH(NormalizeRgbU8)(src, dst, pixels, mean, inv_std);
}
void simd_normalize_rgb(const float* src, float* dst, int64_t pixels, const float mean[3], const float inv_std[3]) {
  HWY_DYNAMIC_DISPATCH(NormalizeRgbF32)(src, dst, pixels, mean, inv_std);
}
void simd_deinterleave_rgb(const uint8_t* src, uint8_t* planes, int64_t pixels) {
  HWY_DYNAMIC_DISPATCH(DeinterleaveRgbU8)(src, planes, pixels);
}
void simd_deinterleave_rgb(const float* src, float* planes, int64_t pixels) {
  HWY_DYNAMIC_DISPATCH(DeinterleaveRgbF32)(src, planes, pixels);
}
}  // namespace sprout::data
#endif  // HWY_ONCE
