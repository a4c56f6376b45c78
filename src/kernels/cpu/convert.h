// Conversion between floating dtypes, into a given tensor or a contiguous copy, or a block of rows at
// a time: how a kernel that computes in float32 takes half-precision inputs and returns its output.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "base/aligned_vector.h"
#include "base/dtype.h"
#include "base/parallel.h"
#include "kernels/cpu/simd_half.h"
#include "tensor/nd_loop.h"
#include "tensor/tensor.h"

namespace sprout {

// Copies `src` into `dst` (same shape, any layouts), converting between floating dtypes.
inline void convert_into(const Tensor& src, const Tensor& dst) {
  // The same dtype is a copy: Tensor::copy_from's runs are memcpy or fill (a broadcast gradient made
  // contiguous), where the loop below goes element by element (8x slower on a broadcast 64 x 32000).
  if (src.dtype() == dst.dtype()) return dst.copy_from(src);
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

// Runs fn(in, out, first_row, count) over blocks of rows of a contiguous half-precision [rows, n] x:
// each block widened into a float buffer `in`, fn's float results `out` narrowed into the contiguous
// o of x's dtype. Blocks split across threads (fn runs inside the parallel region: its own
// parallel_for calls run serially). Rows of a block fit in L2, so a half-precision op costs one pass
// over memory, not three (widen, compute, narrow as whole tensors): LayerNorm over 4096 x 1024
// float16 2.4 -> 1.0 ms.
template <class Fn>
void half_rows_in_float(const Tensor& x, const Tensor& o, int64_t rows, int64_t n, Fn&& fn) {
  constexpr int64_t kBlockFloats = 32768;
  const int64_t block_rows = std::max<int64_t>(1, kBlockFloats / std::max<int64_t>(n, 1));
  visit_dtype(x.dtype(), [&](auto zero) {
    using H = decltype(zero);
    if constexpr (is_half_v<H>) {
      const H* px = x.data<H>();
      H* po = o.data<H>();
      parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
        AlignedVector<float> in(static_cast<size_t>(std::min(block_rows, e - b) * n)), out(in.size());  // Note [Aligned scratch]
        for (int64_t r = b; r < e; r += block_rows) {
          const int64_t count = std::min(block_rows, e - r);
          simd_widen(px + r * n, in.data(), count * n);
          fn(in.data(), out.data(), r, count);
          simd_narrow(out.data(), po + r * n, count * n);
        }
      });
    } else {
      SPROUT_ASSERT(false, "half_rows_in_float on ", name(x.dtype()));
    }
  });
}

}  // namespace sprout
