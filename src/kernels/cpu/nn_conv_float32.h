// Float16 tensors through float32 kernels: the nn kernels (oneDNN) compute in float32, so a half
// input is widened once on the way in and the result narrowed once on the way out.
#pragma once

#include <cstring>

#include "base/dtype.h"
#include "kernels/cpu/convert.h"
#include "tensor/tensor.h"

namespace sprout {

// `t` as a contiguous float32 or float64 tensor: itself when it already is one, else a converted copy.
inline Tensor contiguous_compute(const Tensor& t) {
  if (t.dtype() == DType::Float32 || t.dtype() == DType::Float64) return t.contiguous();
  return contiguous_as(t, DType::Float32);
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
  convert_into(computed.reshape(out.shape()), out);
}

}  // namespace sprout
