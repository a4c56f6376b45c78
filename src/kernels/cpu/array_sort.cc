// CPU kernels of Sort, TopK and Unique. Each line along the sorted axis is copied into a buffer of
// (value, index) pairs, ordered with the standard algorithms (stable_sort; partial_sort for TopK) and
// written back; lines split across threads.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "kernels/cpu/parallel.h"
#include "ops/array_attrs.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Ascending order with NaN after every number (NumPy's sort order).
template <class C>
bool less_nan_last(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

// Descending order with NaN first (the reverse of the above, keeping ties stable).
template <class C>
bool greater_nan_first(C a, C b) {
  return less_nan_last(b, a);
}

// Runs fn(line_in, line_out_values, line_out_indices, stride) for every line along `axis` of the
// contiguous x, with n input and m output elements per line.
template <class Fn>
void for_each_line(const Tensor& x, int64_t axis, int64_t m, Fn fn) {
  int64_t outer = 1, inner = 1;
  const int64_t n = x.ndim() == 0 ? 1 : x.shape()[axis];
  for (int64_t d = 0; d < axis; ++d) outer *= x.shape()[d];
  for (int64_t d = axis + 1; d < x.ndim(); ++d) inner *= x.shape()[d];
  parallel_for(outer * inner, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
    for (int64_t line = b; line < e; ++line) {
      int64_t o = line / inner, i = line % inner;
      fn(o * n * inner + i, o * m * inner + i, inner);
    }
  });
}

template <bool TOPK, class Attrs>
void order_kernel(const Attrs& a, int64_t axis, int64_t m, bool descending, std::span<const Tensor> in,
                  std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  const int64_t n = x.ndim() == 0 ? 1 : x.shape()[axis];
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    const T* px = x.template data<T>();
    T* pv = out[0].template data<T>();
    int32_t* pi = out[1].template data<int32_t>();
    for_each_line(x, axis, m, [&](int64_t in_at, int64_t out_at, int64_t stride) {
      std::vector<int32_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      auto value = [&](int32_t k) { return static_cast<C>(px[in_at + k * stride]); };
      auto cmp = [&](int32_t p, int32_t q) {
        // Ties keep the lower index first, in both directions.
        C vp = value(p), vq = value(q);
        if (descending ? greater_nan_first(vp, vq) : less_nan_last(vp, vq)) return true;
        if (descending ? greater_nan_first(vq, vp) : less_nan_last(vq, vp)) return false;
        return p < q;
      };
      if constexpr (TOPK) {
        std::partial_sort(order.begin(), order.begin() + m, order.end(), cmp);
      } else {
        std::sort(order.begin(), order.end(), cmp);
      }
      for (int64_t k = 0; k < m; ++k) {
        pv[out_at + k * stride] = px[in_at + order[k] * stride];
        pi[out_at + k * stride] = order[k];
      }
    });
  });
}

void sort_kernel(const SortAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t ndim = in[0].ndim();
  const int64_t axis = ndim == 0 ? 0 : (a.axis < 0 ? a.axis + ndim : a.axis);
  order_kernel<false>(a, axis, ndim == 0 ? 1 : in[0].shape()[axis], a.descending, in, out);
}

void top_k_kernel(const TopKAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  order_kernel<true>(a, in[0].ndim() - 1, a.k, true, in, out);
}

// Sorts a copy, keeps the first of each run of equal values, and maps every input element to its run
// by binary search.
void unique_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = std::conditional_t<std::is_same_v<T, bool>, uint8_t, compute_t<T>>;
    const T* px = x.template data<T>();
    const int64_t n = x.numel();
    std::vector<C> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[i] = static_cast<C>(px[i]);
    std::sort(values.begin(), values.end(), less_nan_last<C>);
    auto same = [](C p, C q) {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(p) && std::isnan(q)) return true;
      }
      return p == q;
    };
    values.erase(std::unique(values.begin(), values.end(), same), values.end());
    out[0] = Tensor::empty(Shape{static_cast<int64_t>(values.size())}, x.dtype());
    T* py = out[0].template data<T>();
    for (size_t k = 0; k < values.size(); ++k) py[k] = static_cast<T>(values[k]);
    int32_t* pi = out[1].template data<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      C v = static_cast<C>(px[i]);
      pi[i] = static_cast<int32_t>(std::lower_bound(values.begin(), values.end(), v, less_nan_last<C>) - values.begin());
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_sort) {
  register_kernel<SortAttrs>("Sort", Device::CPU, sort_kernel);
  register_kernel<TopKAttrs>("TopK", Device::CPU, top_k_kernel);
  register_kernel<NoAttrs>("Unique", Device::CPU, unique_kernel);
}

}  // namespace sprout
