// CPU kernels of ReduceSum/Mean/Max/Min and LpNorm (a sum of squares or absolute values, finished per output).
//
// Note [Reduction layouts]
// Reducing never walks memory with a large stride in its inner loop. The reduced axes R and kept axes
// K are permuted into one of two layouts:
//   rows    [K, R] contiguous: each output reduces one contiguous run (SIMD horizontal reduce);
//   columns [R, K] contiguous: the output row accumulates each input row (SIMD vertical combine) -
//           the bias-gradient case, summing a [N, C] tensor over N; a contiguous [K1, R, K2] (middle
//           axes reduced) is K1 such slabs.
// When neither permutation is contiguous the input is copied into the rows layout first. Outputs split
// across threads; a single output over a long run splits the run and combines the partial results.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/reduce_axes.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/simd_half.h"
#include "kernels/cpu/wrapping_arith.h"
#include "ops/op_def.h"
#include "ops/reduce.h"

namespace sprout {
namespace {

template <ReduceOp OP, class T>
using acc_t = std::conditional_t<OP == ReduceOp::Sum && !std::is_floating_point_v<compute_t<T>>, int64_t, compute_t<T>>;

// Two partial results merged.
template <ReduceOp OP, class A>
A combine(A a, A b) {
  if constexpr (is_sum(OP)) {
    return wrap_add(a, b);  // integer sums wrap (kernels/cpu/wrapping_arith.h)
  } else {
    if constexpr (std::is_floating_point_v<A>) {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
    }
    if constexpr (OP == ReduceOp::Max) return a > b ? a : b;
    return a < b ? a : b;
  }
}

// A partial result and one more element.
template <ReduceOp OP, class A>
A accumulate(A acc, A x) {
  if constexpr (OP == ReduceOp::SumSquares) return wrap_add(acc, wrap_mul(x, x));
  if constexpr (OP == ReduceOp::SumAbs) return wrap_add(acc, std::abs(x));
  return combine<OP, A>(acc, x);
}

// What a reduction starts from: 0 for the sums, the first element for Max/Min.
template <ReduceOp OP, class A, class T>
A start(const T* x) {
  return is_sum(OP) ? A(0) : static_cast<A>(x[0]);
}

template <ReduceOp OP, class T>
acc_t<OP, T> reduce_run(const T* x, int64_t n) {
  using A = acc_t<OP, T>;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return simd_reduce(OP, x, n);
  } else if constexpr (std::is_same_v<T, int64_t> && OP == ReduceOp::Sum) {
    return simd_sum(x, n);
  } else if constexpr (is_half_v<T>) {  // widened a block at a time into the float loop
    A acc = start<OP, A>(x);
    for_each_widened_block<1, T>({x}, {1}, n, [&](const auto& w, int64_t, int64_t m) {
      acc = combine<OP, A>(acc, simd_reduce(OP, w[0], m));
    });
    return acc;
  } else {
    A acc = start<OP, A>(x);
    for (int64_t i = is_sum(OP) ? 0 : 1; i < n; ++i) acc = accumulate<OP, A>(acc, static_cast<A>(x[i]));
    return acc;
  }
}

// rows layout: x is [kn, rn] contiguous.
template <ReduceOp OP, class T>
void reduce_rows(const T* x, int64_t kn, int64_t rn, acc_t<OP, T>* acc) {
  using A = acc_t<OP, T>;
  if (kn >= num_threads() || kn * rn < kParallelGrain) {
    parallel_for(kn, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rn, 1)), [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) acc[k] = reduce_run<OP>(x + k * rn, rn);
    });
    return;
  }
  for (int64_t k = 0; k < kn; ++k) {  // few long runs: split each run across threads
    int threads = num_threads();
    std::unique_ptr<A[]> partial(new A[static_cast<size_t>(threads)]);
    std::fill(partial.get(), partial.get() + threads, start<OP, A>(x + k * rn));
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int c = 0; c < threads; ++c) {
      int64_t b = rn * c / threads, e = rn * (c + 1) / threads;
      if (e > b) partial[c] = reduce_run<OP>(x + k * rn + b, e - b);
    }
    A total = partial[0];
    for (int c = 1; c < threads; ++c) total = combine<OP, A>(total, partial[c]);
    acc[k] = total;
  }
}

// columns layout: x is [rn, kn] contiguous.
template <ReduceOp OP, class T>
void reduce_columns(const T* x, int64_t rn, int64_t kn, acc_t<OP, T>* acc) {
  using A = acc_t<OP, T>;
  parallel_for(kn, std::max<int64_t>(64, kParallelGrain / std::max<int64_t>(rn, 1)), [&](int64_t b, int64_t e) {
    if constexpr (std::is_same_v<T, A> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
      // One call per block of columns (a call per row and block measured 4x slower on a bias gradient).
      simd_reduce_columns(OP, x + b, rn, kn, acc + b, e - b);
    } else if constexpr (is_half_v<T>) {  // tiles of rows widened into the float loop, tile results combined
      constexpr int64_t kTileRows = 8;
      alignas(64) float tile[kTileRows * kHalfBlock], partial[kHalfBlock];
      for (int64_t c = b; c < e; c += kHalfBlock) {
        const int64_t m = std::min(kHalfBlock, e - c);
        for (int64_t r0 = 0; r0 < rn; r0 += kTileRows) {
          const int64_t rows = std::min(kTileRows, rn - r0);
          for (int64_t r = 0; r < rows; ++r) simd_widen(x + (r0 + r) * kn + c, tile + r * m, m);
          simd_reduce_columns(OP, tile, rows, m, r0 == 0 ? acc + c : partial, m);
          if (r0 > 0)
            for (int64_t k = 0; k < m; ++k) acc[c + k] = combine<OP, A>(acc[c + k], partial[k]);
        }
      }
    } else {
      for (int64_t k = b; k < e; ++k) acc[k] = start<OP, A>(x + k);
      for (int64_t r = is_sum(OP) ? 0 : 1; r < rn; ++r) {
        const T* row = x + r * kn;
        for (int64_t k = b; k < e; ++k) acc[k] = accumulate<OP, A>(acc[k], static_cast<A>(row[k]));
      }
    }
  });
}

// A contiguous x reduced over consecutive middle axes is [outer, R, inner]: `outer` slabs, each in the
// columns layout (the heads axis of attention weights, (8, 4, 128, 128) over axis 1: 1.4 ms through the
// rows copy, ~0.05 in slabs). The slab count, or 0 when x is not that.
int64_t middle_slabs(const Tensor& x, const Shape& reduced, int64_t kn) {
  if (kn <= 1 || reduced.empty() || !x.is_contiguous()) return 0;
  const int64_t first = reduced[0], last = reduced[reduced.size() - 1];
  if (last - first + 1 != static_cast<int64_t>(reduced.size()) || first == 0 || last == x.ndim() - 1) return 0;
  int64_t inner = 1;
  for (int64_t d = last + 1; d < x.ndim(); ++d) inner *= x.shape()[d];
  return inner > 1 ? kn / inner : 0;
}

// acc[k] = the reduction of x over the `split`'s reduced axes, k running over the kept axes in order.
template <ReduceOp OP, class T>
void reduce_to(const Tensor& x, const ReduceSplit& split, acc_t<OP, T>* acc) {
  const auto& [kept, reduced, kn, rn] = split;
  if (rn == 0) {
    std::fill(acc, acc + kn, acc_t<OP, T>(0));  // infer rejects empty Max/Min; an empty sum is 0
    return;
  }
  // The reduced axes in memory order (any order gives the same result): a transposed view is then
  // often already the contiguous columns layout, not a copy into rows.
  Shape order = reduced;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return x.strides()[a] > x.strides()[b]; });
  const Shape reduced_in_memory = order;
  for (int64_t d : kept) order.push_back(d);
  Tensor columns = x.permute(order);
  if (kn > 1 && columns.is_contiguous()) {
    reduce_columns<OP>(columns.template data<T>(), rn, kn, acc);
  } else if (const int64_t slabs = middle_slabs(x, reduced, kn); slabs > 0) {
    const int64_t inner = kn / slabs;
    for (int64_t o = 0; o < slabs; ++o)
      reduce_columns<OP>(x.template data<T>() + o * rn * inner, rn, inner, acc + o * inner);
  } else {
    order = kept;
    for (int64_t d : reduced_in_memory) order.push_back(d);
    Tensor rows = x.permute(order).contiguous();
    reduce_rows<OP>(rows.template data<T>(), kn, rn, acc);
  }
}

// o[k] = finish(the reduction of x over `axis` at k, the count of elements reduced).
template <ReduceOp OP, class Finish>
void reduce_and_finish(const Tensor& x, const std::vector<int64_t>& axis, Tensor& o, Finish finish) {
  const ReduceSplit split = split_reduce_axes(x, axis);
  if (split.kn == 0) return;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using A = acc_t<OP, T>;
    if constexpr (is_sum(OP) && OP != ReduceOp::Sum && !std::is_floating_point_v<A>) {
      SPROUT_ASSERT(false, "sums of squares or absolute values are for floating-point tensors");
    } else {
      std::unique_ptr<A[]> acc(new A[static_cast<size_t>(split.kn)]);  // not vector: vector<bool> has no data()
      reduce_to<OP, T>(x, split, acc.get());
      visit_dtype(o.dtype(), [&](auto out_zero) {
        using O = decltype(out_zero);
        O* po = o.template data<O>();
        for (int64_t k = 0; k < split.kn; ++k)
          po[k] = static_cast<O>(static_cast<compute_t<O>>(finish(acc[k], split.rn)));
      });
    }
  });
}

template <ReduceOp OP, bool MEAN>
void reduce_kernel(const ReduceAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  reduce_and_finish<OP>(in[0], attrs.axis, out[0], [](auto acc, int64_t rn) {
    if constexpr (MEAN && std::is_floating_point_v<decltype(acc)>) return acc / static_cast<decltype(acc)>(rn);
    return acc;
  });
}

// The p-norm: (sum |x|^p)^(1/p), at least epsilon. p = 1 and 2 sum without a temporary; other p sum
// a |x|^p computed first.
void lp_norm_kernel(const LpNormAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double p = static_cast<double>(attrs.p), epsilon = attrs.epsilon;
  auto at_least_epsilon = [epsilon](auto norm) { return std::max(norm, static_cast<decltype(norm)>(epsilon)); };
  if (attrs.p == 2) {
    return reduce_and_finish<ReduceOp::SumSquares>(in[0], attrs.axis, out[0],
                                                   [&](auto acc, int64_t) { return at_least_epsilon(std::sqrt(acc)); });
  }
  if (attrs.p == 1) {
    return reduce_and_finish<ReduceOp::SumAbs>(in[0], attrs.axis, out[0],
                                               [&](auto acc, int64_t) { return at_least_epsilon(acc); });
  }
  Tensor powered;  // in the compute type: |x|^p of a half overflows early
  visit_dtype(in[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const Tensor x = in[0].contiguous();
      powered = Tensor::empty(x.shape(), dtype_of<C>());
      const T* px = x.template data<T>();
      C* pp = powered.template data<C>();
      parallel_for(x.numel(), kParallelGrain / 16, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) pp[i] = std::pow(std::abs(static_cast<C>(px[i])), static_cast<C>(p));
      });
    }
  });
  reduce_and_finish<ReduceOp::Sum>(powered, attrs.axis, out[0], [&](auto acc, int64_t) {
    using A = decltype(acc);
    return at_least_epsilon(static_cast<A>(std::pow(acc, static_cast<A>(1.0 / p))));
  });
}

}  // namespace

SPROUT_REGISTER(cpu_reduce) {
  register_kernel<ReduceAttrs>("ReduceSum", Device::CPU, reduce_kernel<ReduceOp::Sum, false>);
  register_kernel<ReduceAttrs>("ReduceMean", Device::CPU, reduce_kernel<ReduceOp::Sum, true>);
  register_kernel<ReduceAttrs>("ReduceMax", Device::CPU, reduce_kernel<ReduceOp::Max, false>);
  register_kernel<ReduceAttrs>("ReduceMin", Device::CPU, reduce_kernel<ReduceOp::Min, false>);
  register_kernel<LpNormAttrs>("LpNorm", Device::CPU, lp_norm_kernel);
}

}  // namespace sprout
