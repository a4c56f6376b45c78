// Shared by the activation and softmax kernels: the precision each dtype computes in, and conversion
// of a strided or half-precision run into a contiguous compute buffer (whole tensors: convert.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "base/dtype.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/simd_half.h"
#include "tensor/nd_loop.h"
#include "tensor/tensor.h"

namespace sprout {

// Float16/BFloat16/Float32 compute in float, Float64 in double.
template <class T>
using act_compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Elements per stack buffer when a run must be converted or gathered before the SIMD loop.
inline constexpr int64_t kActBlock = 1024;

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

}  // namespace sprout
