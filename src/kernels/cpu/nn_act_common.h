// Shared by the activation and softmax kernels: the precision each dtype computes in, and conversion
// of a strided or half-precision run into a contiguous compute buffer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "base/dtype.h"
#include "kernels/cpu/simd_half.h"
#include "tensor/nd_loop.h"
#include "tensor/tensor.h"

namespace sprout {

// Float16/BFloat16/Float32 compute in float, Float64 in double.
template <class T>
using act_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Elements per stack buffer when a run must be converted or gathered before the SIMD loop.
inline constexpr int64_t kActBlock = 256;

// Applies fn(const C* in, C* out, m) to x[0..n) (stride sx) into out[0..n) (stride so), directly when
// both are contiguous in the compute type, else through stack buffers of kActBlock elements.
template <class T, class Fn>
void map_in_compute_type(const T* x, int64_t sx, T* out, int64_t so, int64_t n, Fn&& fn) {
  using C = act_compute_t<T>;
  if constexpr (std::is_same_v<T, C>) {
    if (sx == 1 && so == 1) return fn(x, out, n);
  }
  C in[kActBlock], res[kActBlock];
  for (int64_t i = 0; i < n; i += kActBlock) {
    const int64_t m = std::min(kActBlock, n - i);
    widen_run(x + i * sx, sx, in, m);
    fn(in, res, m);
    narrow_run(res, out + i * so, so, m);
  }
}

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
      loop.run(0, loop.rows(), [&](const std::array<int64_t, 2>& off, int64_t n) {
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
}

// `x` as a contiguous tensor of dtype `t`: itself when it already is one, else a converted copy.
inline Tensor contiguous_as(const Tensor& x, DType t) {
  if (x.dtype() == t && x.is_contiguous()) return x;
  Tensor out = Tensor::empty(x.shape(), t);
  convert_into(x, out);
  return out;
}

}  // namespace sprout
