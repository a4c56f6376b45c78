// Highway implementation of simd_cast.h (Note [Highway dynamic dispatch] in simd.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_cast.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "kernels/cpu/simd_cast.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whole vectors of `d` lanes (the wider of the two types' tags), then the tail through padded copies;
// `convert` maps a loaded vector of From to a vector of To.
template <class DFrom, class DTo, class Convert>
HWY_INLINE void cast_loop(DFrom df, DTo dt, const hn::TFromD<DFrom>* x, hn::TFromD<DTo>* out, int64_t n,
                          Convert convert) {
  using From = hn::TFromD<DFrom>;
  using To = hn::TFromD<DTo>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(convert(hn::LoadU(df, x + i)), dt, out + i);
  if (i < n) {
    HWY_ALIGN From tx[hn::MaxLanes(df)] = {};
    HWY_ALIGN To to[hn::MaxLanes(df)];
    std::memcpy(tx, x + i, static_cast<size_t>(n - i) * sizeof(From));
    hn::Store(convert(hn::Load(df, tx)), dt, to);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(To));
  }
}

// Float to a signed integer of the same width: truncation, saturation (Highway's ConvertTo fixes the
// positive overflow x86 gives as the minimum), and NaN as 0.
template <class F>
HWY_INLINE void float_to_int(const F* x, hwy::MakeSigned<F>* out, int64_t n) {
  const hn::ScalableTag<F> df;
  const hn::RebindToSigned<decltype(df)> di;
  cast_loop(df, di, x, out, n, [&](auto v) {
    return hn::IfThenZeroElse(hn::RebindMask(di, hn::IsNaN(v)), hn::ConvertTo(di, v));
  });
}

// float32 to int64: widened to double (exact), then converted.
HWY_INLINE void float_to_int64(const float* x, int64_t* out, int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::RebindToSigned<decltype(dd)> di;
  cast_loop(df, di, x, out, n, [&](auto v) {
    const auto wide = hn::PromoteTo(dd, v);
    return hn::IfThenZeroElse(hn::RebindMask(di, hn::IsNaN(wide)), hn::ConvertTo(di, wide));
  });
}

// int64 to float32 through double, which is exact below 2^53 in magnitude, so the one rounding is the
// narrowing's (as a direct conversion rounds); a vector with a larger value converts lane by lane.
HWY_INLINE void int64_to_float(const int64_t* x, float* out, int64_t n) {
  const hn::ScalableTag<int64_t> di;
  const hn::RebindToFloat<decltype(di)> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(di));
  const auto limit = hn::Set(di, int64_t{1} << 53), negative_limit = hn::Set(di, -(int64_t{1} << 53));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(di, x + i);
    if (hn::AllTrue(di, hn::And(hn::Lt(v, limit), hn::Gt(v, negative_limit)))) {
      hn::StoreU(hn::DemoteTo(df, hn::ConvertTo(dd, v)), df, out + i);
    } else {
      for (int64_t j = i; j < i + lanes; ++j) out[j] = static_cast<float>(x[j]);
    }
  }
  for (; i < n; ++i) out[i] = static_cast<float>(x[i]);
}

template <class To, class From>
void CastImpl(const From* x, To* out, int64_t n) {
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, int32_t>) {
    float_to_int(x, out, n);
  } else if constexpr (std::is_same_v<From, double> && std::is_same_v<To, int64_t>) {
    float_to_int(x, out, n);
  } else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, int64_t>) {
    float_to_int64(x, out, n);
  } else if constexpr (std::is_same_v<From, int32_t> && std::is_same_v<To, float>) {
    const hn::ScalableTag<int32_t> di;
    const hn::RebindToFloat<decltype(di)> df;
    cast_loop(di, df, x, out, n, [&](auto v) { return hn::ConvertTo(df, v); });
  } else if constexpr (std::is_same_v<From, int64_t> && std::is_same_v<To, float>) {
    int64_to_float(x, out, n);
  } else if constexpr (std::is_same_v<From, int64_t> && std::is_same_v<To, double>) {
    const hn::ScalableTag<int64_t> di;
    const hn::RebindToFloat<decltype(di)> dd;
    cast_loop(di, dd, x, out, n, [&](auto v) { return hn::ConvertTo(dd, v); });
  } else if constexpr (std::is_same_v<From, int32_t> && std::is_same_v<To, double>) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<int32_t, decltype(dd)> di;
    cast_loop(di, dd, x, out, n, [&](auto v) { return hn::PromoteTo(dd, v); });
  } else if constexpr ((std::is_same_v<From, uint8_t> || std::is_same_v<From, bool>) && std::is_same_v<To, float>) {
    // Images and masks: bytes widened to int32, then converted (bool's bytes are 0 or 1).
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Rebind<uint8_t, decltype(df)> du8;
    const auto* bytes = reinterpret_cast<const uint8_t*>(x);
    cast_loop(du8, df, bytes, out, n, [&](auto v) { return hn::ConvertTo(df, hn::PromoteTo(di, v)); });
  } else if constexpr (std::is_same_v<From, int32_t> && std::is_same_v<To, int64_t>) {
    const hn::ScalableTag<int64_t> dl;
    const hn::Rebind<int32_t, decltype(dl)> di;
    cast_loop(di, dl, x, out, n, [&](auto v) { return hn::PromoteTo(dl, v); });
  } else if constexpr ((std::is_same_v<From, uint8_t> || std::is_same_v<From, bool>) && std::is_same_v<To, int32_t>) {
    const hn::ScalableTag<int32_t> di;
    const hn::Rebind<uint8_t, decltype(di)> du8;
    cast_loop(du8, di, reinterpret_cast<const uint8_t*>(x), out, n, [&](auto v) { return hn::PromoteTo(di, v); });
  } else if constexpr ((std::is_same_v<From, uint8_t> || std::is_same_v<From, bool>) && std::is_same_v<To, int64_t>) {
    // Bytes to int64 through uint32 (Highway widens by at most four times per step).
    const hn::ScalableTag<int64_t> dl;
    const hn::Rebind<uint32_t, decltype(dl)> du32;
    const hn::Rebind<uint8_t, decltype(dl)> du8;
    const hn::RebindToUnsigned<decltype(dl)> du64;
    cast_loop(du8, dl, reinterpret_cast<const uint8_t*>(x), out, n,
              [&](auto v) { return hn::BitCast(dl, hn::PromoteTo(du64, hn::PromoteTo(du32, v))); });
  } else {
    static_assert(!kHasSimdCast<To, From>, "a pair of kHasSimdCast without a vector form");
  }
}

#define SPROUT_CAST_PAIRS(X) \
  X(int32_t, float) X(int64_t, double) X(int64_t, float) X(float, int32_t) X(double, int64_t) X(double, int32_t) \
  X(float, int64_t) X(float, uint8_t) X(float, bool) X(int64_t, int32_t) X(int32_t, uint8_t) X(int32_t, bool) \
  X(int64_t, uint8_t) X(int64_t, bool)
#define SPROUT_CAST_FN(To, From) \
  void Cast_##From##_##To(const From* x, To* out, int64_t n) { CastImpl<To, From>(x, out, n); }
SPROUT_CAST_PAIRS(SPROUT_CAST_FN)

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
#define SPROUT_CAST_EXPORT(To, From)                            \
  HWY_EXPORT(Cast_##From##_##To);                               \
  template <>                                                   \
  void simd_cast<To, From>(const From* x, To* out, int64_t n) { \
    HWY_DYNAMIC_DISPATCH(Cast_##From##_##To)(x, out, n);        \
  }
SPROUT_CAST_PAIRS(SPROUT_CAST_EXPORT)
}  // namespace sprout
#endif
