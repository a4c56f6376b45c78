// Whole-tensor conversion between floating dtypes, into a given tensor or a contiguous copy: how a
// kernel that computes in float32 takes half-precision inputs and returns its output.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "base/dtype.h"
#include "base/parallel.h"
#include "kernels/cpu/simd_half.h"
#include "tensor/nd_loop.h"
#include "tensor/tensor.h"

namespace sprout {

// Copies `src` into `dst` (same shape, any layouts), converting between floating dtypes.
inline void convert_into(const Tensor& src, const Tensor& dst) {
  NdLoop<2> loop(dst.shape(), {std::span<const int64_t>(dst.strides()), std::span<const int64_t>(src.strides())});
  const int64_t sd = loop.inner_stride(0), ss = loop.inner_stride(1);
  visit_dtype(src.dtype(), [&](auto from_zero) {
    using From = decltype(from_zero);
    visit_dtype(dst.dtype(), [&](auto to_zero) {
      using To = decltype(to_zero);
      const From* ps = static_cast<const From*>(src.raw_data());
      To* pd = static_cast<To*>(dst.raw_data());
      parallel_for(dst.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
          if constexpr (std::is_same_v<From, float> || std::is_same_v<To, float>) {
            if (sd == 1 && ss == 1) {  // float to or from a half type: vectorized
              if constexpr (std::is_same_v<From, float>) return narrow_run(ps + off[1], pd + off[0], 1, n);
              else return widen_run(ps + off[1], 1, pd + off[0], n);
            }
          }
          for (int64_t i = 0; i < n; ++i)
            pd[off[0] + i * sd] = static_cast<To>(static_cast<compute_t<From>>(ps[off[1] + i * ss]));
        });
      });
    });
  });
}

// `x` as a contiguous tensor of dtype `t`: itself when it already is one, else a converted copy.
inline Tensor contiguous_as(const Tensor& x, DType t) {
  if (x.dtype() == t && x.is_contiguous()) return x;
  Tensor out = Tensor::empty(x.shape(), t);
  convert_into(x, out);
  return out;
}

}  // namespace sprout
