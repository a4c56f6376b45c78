// Vectorized conversions between the dtypes casts use most (Highway, dispatched at run time like
// simd.h): float to integer (truncating, saturating, NaN to 0, as cast.cc defines them), integer to
// float, int32 to int64, and uint8 / bool (images, masks) to float32, int32 and int64. The build's
// baseline code converts one element at a time (cvttss2si and its range checks; no SSE2 sign or zero
// extension). 1M elements, two threads: float32 -> int32 0.17 -> 0.06 ms, int64 -> float32 0.30 -> 0.11,
// int32 -> int64 0.55 -> 0.15, bool -> int64 0.56 -> 0.10 (PyTorch 0.05, 0.15, 0.27, 0.07).
#pragma once

#include <cstdint>

namespace sprout {

// The pairs with a vector form.
template <class To, class From>
inline constexpr bool kHasSimdCast = false;
template <> inline constexpr bool kHasSimdCast<int32_t, float> = true;
template <> inline constexpr bool kHasSimdCast<int64_t, float> = true;
template <> inline constexpr bool kHasSimdCast<int64_t, double> = true;
template <> inline constexpr bool kHasSimdCast<float, int32_t> = true;
template <> inline constexpr bool kHasSimdCast<double, int32_t> = true;
template <> inline constexpr bool kHasSimdCast<double, int64_t> = true;
template <> inline constexpr bool kHasSimdCast<float, int64_t> = true;
template <> inline constexpr bool kHasSimdCast<float, uint8_t> = true;
template <> inline constexpr bool kHasSimdCast<float, bool> = true;
template <> inline constexpr bool kHasSimdCast<int64_t, int32_t> = true;
template <> inline constexpr bool kHasSimdCast<int32_t, uint8_t> = true;
template <> inline constexpr bool kHasSimdCast<int32_t, bool> = true;
template <> inline constexpr bool kHasSimdCast<int64_t, uint8_t> = true;
template <> inline constexpr bool kHasSimdCast<int64_t, bool> = true;

// out[i] = x[i] converted, for contiguous rows of a pair with kHasSimdCast.
template <class To, class From>
void simd_cast(const From* x, To* out, int64_t n);

}  // namespace sprout
