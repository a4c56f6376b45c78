// CPU kernels of AddN, ClipByValue, Lerp and Addcmul (ops/math_nary.cc).
// The broadcasting ops share one driver: rows whose inputs are each contiguous or broadcast (stride
// 0: a bound given as a scalar, a weight per channel ...) run in blocks whose loop has unit strides
// only, so the compiler vectorizes it (Lerp and Addcmul of float and double: simd_nary.h); any other layout
// takes a strided loop.
#include <algorithm>
#include <array>
#include <type_traits>

#include "base/parallel.h"
#include "kernels/cpu/math_loops.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/simd_clamp.h"
#include "kernels/cpu/simd_nary.h"
#include "kernels/cpu/unit_strides.h"
#include "kernels/cpu/wrapping_arith.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

constexpr int64_t kBlock = 256;

// Computes o = fn(in...) over a row of N inputs.
template <class T, size_t N, class Fn>
void nary_row(const std::array<char*, N + 1>& p, const std::array<int64_t, N + 1>& s, int64_t n, Fn fn) {
  using C = compute_t<T>;
  T* o = reinterpret_cast<T*>(p[0]);
  std::array<const T*, N> x;
  for (size_t k = 0; k < N; ++k) x[k] = reinterpret_cast<const T*>(p[k + 1]);
  bool unit = s[0] == 1;
  for (size_t k = 0; k < N; ++k) unit = unit && (s[k + 1] == 0 || s[k + 1] == 1);
  if (!unit) {
    for (int64_t i = 0; i < n; ++i)
      o[i * s[0]] = static_cast<T>([&]<size_t... K>(std::index_sequence<K...>) {
        return fn(static_cast<C>(x[K][i * s[K + 1]])...);
      }(std::make_index_sequence<N>{}));
    return;
  }
  // Blocks with unit strides only: a contiguous input is read in place when it already has the
  // compute type (else converted into its block); a broadcast one is a block holding its value.
  std::array<std::array<C, kBlock>, N> blocks;
  for (size_t k = 0; k < N; ++k)
    if (s[k + 1] == 0) blocks[k].fill(static_cast<C>(x[k][0]));
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    std::array<const C*, N> src;
    for (size_t k = 0; k < N; ++k) {
      src[k] = blocks[k].data();
      if (s[k + 1] == 1) {
        if constexpr (std::is_same_v<T, C>) {
          src[k] = x[k] + i;
        } else {
          for (int64_t j = 0; j < m; ++j) blocks[k][j] = static_cast<C>(x[k][i + j]);
        }
      }
    }
    T* dst = o + i;
    [&]<size_t... K>(std::index_sequence<K...>) {
#pragma GCC ivdep
      for (int64_t j = 0; j < m; ++j) dst[j] = static_cast<T>(fn(src[K][j]...));
    }(std::make_index_sequence<N>{});
  }
}

// A row run by `vector_row` (simd_nary.h) instead, when it is float or double with every operand contiguous or
// broadcast: vector_row(out, inputs, strides, n). None by default.
struct NoVectorRow {};

template <size_t N, class Fn, class VectorRow = NoVectorRow>
void nary_kernel(std::span<const Tensor> in, const Tensor& out, Fn fn, VectorRow vector_row = {}) {
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "arithmetic kernel on Bool");
    } else {
      for_each_broadcast_row<N + 1>(in, out, kParallelGrain, [&](const auto& p, const auto& s, int64_t n) {
        if constexpr ((std::is_same_v<T, float> || std::is_same_v<T, double>) &&
                      !std::is_same_v<VectorRow, NoVectorRow>) {
          if (s[0] == 1 && std::all_of(s.begin() + 1, s.end(), is_unit_or_zero)) {
            std::array<const T*, N> x;
            for (size_t k = 0; k < N; ++k) x[k] = reinterpret_cast<const T*>(p[k + 1]);
            return vector_row(reinterpret_cast<T*>(p[0]), x, s, n);
          }
        }
        nary_row<T, N>(p, s, n, fn);
      });
    }
  });
}

// Bounds given as one number each (ops.clamp(x, -1, 1)), neither NaN, over a contiguous x: the
// per-element NaN tests of the bounds go, and the loop is a vector max and min (1M float32, two threads:
// 0.17 -> 0.08 ms; PyTorch 0.09; integers through simd_clamp.h).
template <class T>
bool clip_by_numbers(std::span<const Tensor> in, const Tensor& out) {
  if (in[0].dtype() != dtype_of<T>() || !in[0].is_contiguous() || in[0].shape() != out.shape() ||
      in[1].numel() != 1 || in[2].numel() != 1 || in[1].dtype() != in[0].dtype() || in[2].dtype() != in[0].dtype() ||
      !out.is_contiguous())
    return false;
  const T lo = *in[1].contiguous().data<T>(), hi = *in[2].contiguous().data<T>();
  if (lo != lo || hi != hi) return false;
  const T* x = in[0].data<T>();
  T* o = out.data<T>();
  parallel_for(out.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
    simd_clamp(x + begin, lo, hi, o + begin, end - begin);
  });
  return true;
}

void clip_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  if (clip_by_numbers<float>(in, out[0]) || clip_by_numbers<double>(in, out[0]) ||
      clip_by_numbers<int64_t>(in, out[0]) || clip_by_numbers<int32_t>(in, out[0]) ||
      clip_by_numbers<int16_t>(in, out[0]) || clip_by_numbers<int8_t>(in, out[0]) ||
      clip_by_numbers<uint8_t>(in, out[0]))
    return;
  // NaN in x stays NaN: both comparisons are false for it. A NaN bound makes the result NaN, as in
  // PyTorch (the comparisons alone would ignore it).
  nary_kernel<3>(in, out[0], [](auto x, auto lo, auto hi) {
    auto m = x < lo || lo != lo ? lo : x;
    return m > hi || hi != hi ? hi : m;
  });
}

void lerp_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  nary_kernel<3>(
      in, out[0], [](auto start, auto end, auto w) { return wrap_add(start, wrap_mul(w, wrap_sub(end, start))); },
      [](auto* o, const auto& x, const auto& s, int64_t n) { simd_lerp(x[0], s[1], x[1], s[2], x[2], s[3], o, n); });
}

void addcmul_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  nary_kernel<4>(
      in, out[0], [](auto a, auto x1, auto x2, auto v) { return wrap_add(a, wrap_mul(wrap_mul(v, x1), x2)); },
      [](auto* o, const auto& x, const auto& s, int64_t n) {
        simd_addcmul(x[0], s[1], x[1], s[2], x[2], s[3], x[3], s[4], o, n);
      });
}

// AddN: inputs share one shape (infer checks), so after making them contiguous the sum is a flat
// loop: float and double add pairwise in SIMD into the output; other dtypes accumulate per block in
// their compute type and round once.
void add_n_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  std::vector<Tensor> xs;
  xs.reserve(in.size());
  for (const Tensor& t : in) xs.push_back(t.contiguous());
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "AddN kernel on Bool");
    } else {
      using C = compute_t<T>;
      T* o = out[0].data<T>();
      const int64_t grain = std::max<int64_t>(kBlock, kParallelGrain / static_cast<int64_t>(xs.size()));
      parallel_for(out[0].numel(), grain, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          const T* first = xs[0].data<T>() + begin;
          if (xs.size() == 1) std::copy(first, first + (end - begin), o + begin);
          for (size_t k = 1; k < xs.size(); ++k)
            simd_binary(BinaryOp::Add, k == 1 ? first : o + begin, 1, xs[k].data<T>() + begin, 1, o + begin,
                        end - begin);
        } else {
          C acc[kBlock];
          for (int64_t i = begin; i < end; i += kBlock) {
            const int64_t m = std::min(kBlock, end - i);
            const T* x0 = xs[0].data<T>() + i;
            for (int64_t j = 0; j < m; ++j) acc[j] = static_cast<C>(x0[j]);
            for (size_t k = 1; k < xs.size(); ++k) {
              const T* xk = xs[k].data<T>() + i;
              for (int64_t j = 0; j < m; ++j) acc[j] = wrap_add(acc[j], static_cast<C>(xk[j]));
            }
            for (int64_t j = 0; j < m; ++j) o[i + j] = static_cast<T>(acc[j]);
          }
        }
      });
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_math_nary) {
  register_kernel<NoAttrs>("AddN", Device::CPU, add_n_kernel);
  register_kernel<NoAttrs>("ClipByValue", Device::CPU, clip_kernel);
  register_kernel<NoAttrs>("Lerp", Device::CPU, lerp_kernel);
  register_kernel<NoAttrs>("Addcmul", Device::CPU, addcmul_kernel);
}

}  // namespace sprout
