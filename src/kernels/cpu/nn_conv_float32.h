// Float16 tensors through float32 kernels: the nn kernels (oneDNN) compute in float32, so a half
// input is widened once on the way in and the result narrowed once on the way out.
#pragma once

#include <cstring>

#include "base/dtype.h"
#include "tensor/tensor.h"

namespace sprout {

// `t` as a contiguous float32 or float64 tensor: itself when it already is one, else a converted copy.
inline Tensor contiguous_compute(const Tensor& t) {
  if (t.dtype() == DType::Float32 || t.dtype() == DType::Float64) return t.contiguous();
  Tensor c = t.contiguous();
  Tensor out = Tensor::empty(t.shape(), DType::Float32);
  float* po = out.data<float>();
  visit_dtype(t.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = static_cast<const T*>(c.raw_data());
    for (int64_t i = 0, n = c.numel(); i < n; ++i) po[i] = static_cast<float>(static_cast<compute_t<T>>(p[i]));
  });
  return out;
}

// A contiguous buffer to compute `out` in: `out` itself for float32/float64, else a float32 scratch
// tensor that store_result() narrows into `out`.
inline Tensor compute_buffer(const Tensor& out) {
  return out.dtype() == DType::Float32 || out.dtype() == DType::Float64 ? out : Tensor::empty(out.shape(), DType::Float32);
}

// Copies a contiguous float32/float64 result into the contiguous `out` of the same element count,
// narrowing float32 to out's dtype where they differ.
inline void store_result(const Tensor& computed, const Tensor& out) {
  if (computed.shares_storage(out)) return;
  if (computed.dtype() == out.dtype()) {
    std::memcpy(out.raw_data(), computed.raw_data(), out.nbytes());
    return;
  }
  const float* src = computed.data<float>();
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* dst = static_cast<T*>(out.raw_data());
    for (int64_t i = 0, n = out.numel(); i < n; ++i) dst[i] = static_cast<T>(src[i]);
  });
}

}  // namespace sprout
