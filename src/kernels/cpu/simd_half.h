// float16 and bfloat16 <-> float over contiguous runs, vectorized, rounding to nearest even exactly as
// float16(float) and bfloat16(float) do; and the block loop that lets a half-precision kernel run the
// float SIMD loops. The scalar conversions (half.h) branch per element: float16 x + y over 4M
// elements took 11 ms, 8x PyTorch's, most of it converting.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "base/half.h"

namespace sprout {

void simd_widen(const float16* x, float* out, int64_t n);
void simd_widen(const bfloat16* x, float* out, int64_t n);
void simd_narrow(const float* x, float16* out, int64_t n);
void simd_narrow(const float* x, bfloat16* out, int64_t n);

template <class T>
constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// dst[j] = src[j * stride] as C, for j < m: a contiguous half run to float widened with SIMD.
template <class T, class C>
void widen_run(const T* src, int64_t stride, C* dst, int64_t m) {
  if constexpr (is_half_v<T> && std::is_same_v<C, float>) {
    if (stride == 1) return simd_widen(src, dst, m);
  }
  for (int64_t j = 0; j < m; ++j) dst[j] = static_cast<C>(src[j * stride]);
}

// dst[j * stride] = src[j] as T, for j < m: float to a contiguous half run narrowed with SIMD.
template <class C, class T>
void narrow_run(const C* src, T* dst, int64_t stride, int64_t m) {
  if constexpr (is_half_v<T> && std::is_same_v<C, float>) {
    if (stride == 1) return simd_narrow(src, dst, m);
  }
  for (int64_t j = 0; j < m; ++j) dst[j * stride] = static_cast<T>(src[j]);
}

// Elements per block: small enough for the stack and L1, large enough to amortize a call.
inline constexpr int64_t kHalfBlock = 512;

// Calls fn(widened, i, m) for each block [i, i + m) of n elements, widened[k] holding input k's block as
// floats. Each input's stride is 1, or 0 for one value broadcast (widened once, still read with stride
// 0 by fn).
template <size_t K, class H, class Fn>
void for_each_widened_block(const std::array<const H*, K>& in, const std::array<int64_t, K>& strides, int64_t n,
                            Fn&& fn) {
  alignas(64) float buffers[K][kHalfBlock];
  std::array<const float*, K> widened;
  for (size_t k = 0; k < K; ++k) {
    widened[k] = buffers[k];
    if (strides[k] == 0) buffers[k][0] = static_cast<float>(in[k][0]);
  }
  for (int64_t i = 0; i < n; i += kHalfBlock) {
    const int64_t m = std::min(kHalfBlock, n - i);
    for (size_t k = 0; k < K; ++k)
      if (strides[k] != 0) simd_widen(in[k] + i, buffers[k], m);
    fn(widened, i, m);
  }
}

}  // namespace sprout
