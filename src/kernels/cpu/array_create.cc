// CPU kernels of the value-creating array ops: fills, Eye, Range, LinSpace, Tril, Triu.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "base/parallel.h"
#include "ops/array_attrs.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// `value` in dtype T. An integer saturates at T's limits: the attribute is a double, in which int64's
// maximum (a common fill, the identity of a running minimum) reads as 2^63, out of int64's range.
template <class T>
T converted(double value) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (std::isnan(value)) return T{0};
    if (value >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (value <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  }
  return static_cast<T>(static_cast<compute_t<T>>(value));
}

// Writes `value` (converted to the output dtype) into every element of the contiguous `out`.
void fill(const Tensor& out, double value) {
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T v = converted<T>(value);
    T* p = out.template data<T>();
    parallel_for(out.numel(), kParallelGrain, [&](int64_t b, int64_t e) { std::fill(p + b, p + e, v); });
  });
}

void ones_like_kernel(const NoAttrs&, std::span<const Tensor>, std::span<Tensor> out) { fill(out[0], 1); }
void zeros_like_kernel(const NoAttrs&, std::span<const Tensor>, std::span<Tensor> out) { fill(out[0], 0); }
void ones_kernel(const ShapeTypeAttrs&, std::span<const Tensor>, std::span<Tensor> out) { fill(out[0], 1); }
void zeros_kernel(const ShapeTypeAttrs&, std::span<const Tensor>, std::span<Tensor> out) { fill(out[0], 0); }
void fill_kernel(const FillAttrs& a, std::span<const Tensor>, std::span<Tensor> out) { fill(out[0], a.value); }

void eye_kernel(const EyeAttrs& a, std::span<const Tensor>, std::span<Tensor> out) {
  fill(out[0], 0);
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* p = out[0].template data<T>();
    for (int64_t i = 0; i < std::min(a.n, a.m); ++i) p[i * a.m + i] = static_cast<T>(compute_t<T>(1));
  });
}

// Integer ranges are computed in int64 so large bounds stay exact; float ranges as start + i * delta
// (not by repeated addition, which drifts).
void range_kernel(const RangeAttrs& a, std::span<const Tensor>, std::span<Tensor> out) {
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* p = out[0].template data<T>();
    const int64_t n = out[0].numel();
    if constexpr (std::is_integral_v<T>) {
      const auto start = static_cast<int64_t>(a.start), delta = static_cast<int64_t>(a.delta);
      if (static_cast<double>(start) == a.start && static_cast<double>(delta) == a.delta) {
        for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + i * delta);
        return;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      p[i] = static_cast<T>(static_cast<compute_t<T>>(a.start + static_cast<double>(i) * a.delta));
  });
}

void linspace_kernel(const LinSpaceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const double start = in[0].element_as_double(0), stop = in[1].element_as_double(0);
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* p = out[0].template data<T>();
    const double step = a.num > 1 ? (stop - start) / static_cast<double>(a.num - 1) : 0.0;
    for (int64_t i = 0; i < a.num; ++i)
      p[i] = static_cast<T>(static_cast<compute_t<T>>(start + static_cast<double>(i) * step));
    if (a.num > 1) p[a.num - 1] = static_cast<T>(static_cast<compute_t<T>>(stop));  // exactly `stop`
  });
}

// Tril keeps column c of row r when c - r <= diagonal; Triu when c - r >= diagonal. Each row is one
// copy of its kept run and one fill of the rest.
template <bool LOWER>
void triangle_kernel(const DiagonalAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  const int64_t rows = x.shape()[x.ndim() - 2], cols = x.shape()[x.ndim() - 1];
  if (rows == 0 || cols == 0) return;
  const int64_t total_rows = x.numel() / cols;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* src = x.template data<T>();
    T* dst = out[0].template data<T>();
    const T z = static_cast<T>(compute_t<T>(0));
    parallel_for(total_rows, std::max<int64_t>(1, kParallelGrain / cols), [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t r = row % rows;
        // Kept columns: [0, r + diagonal] for Tril, [r + diagonal, cols) for Triu.
        int64_t keep_begin = LOWER ? 0 : std::clamp<int64_t>(r + a.diagonal, 0, cols);
        int64_t keep_end = LOWER ? std::clamp<int64_t>(r + a.diagonal + 1, 0, cols) : cols;
        const T* s = src + row * cols;
        T* d = dst + row * cols;
        std::fill(d, d + keep_begin, z);
        std::copy(s + keep_begin, s + keep_end, d + keep_begin);
        std::fill(d + keep_end, d + cols, z);
      }
    });
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_create) {
  register_kernel<NoAttrs>("OnesLike", Device::CPU, ones_like_kernel);
  register_kernel<NoAttrs>("ZerosLike", Device::CPU, zeros_like_kernel);
  register_kernel<ShapeTypeAttrs>("Ones", Device::CPU, ones_kernel);
  register_kernel<ShapeTypeAttrs>("Zeros", Device::CPU, zeros_kernel);
  register_kernel<FillAttrs>("Fill", Device::CPU, fill_kernel);
  register_kernel<EyeAttrs>("Eye", Device::CPU, eye_kernel);
  register_kernel<RangeAttrs>("Range", Device::CPU, range_kernel);
  register_kernel<LinSpaceAttrs>("LinSpace", Device::CPU, linspace_kernel);
  register_kernel<DiagonalAttrs>("Tril", Device::CPU, triangle_kernel<true>);
  register_kernel<DiagonalAttrs>("Triu", Device::CPU, triangle_kernel<false>);
}

}  // namespace sprout
