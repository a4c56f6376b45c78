// CPU kernels of Sort, TopK and Unique. Each line along the sorted axis is copied into a buffer of
// keys carrying value and index (Note [Sort keys]), sorted with Highway's vectorized quicksort
// (partial_sort for TopK) and written back; lines split across threads. 64-bit values sort as
// (value, index) pairs with std::sort.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "hwy/contrib/sort/vqsort.h"
#include "base/parallel.h"
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

// Note [Sort keys]
// Values of 32 bits or fewer map to unsigned keys with the same order (floats: flip the sign bit, or all
// bits of negatives; every NaN becomes the largest key), so a line sorts as plain uint64 numbers
// key << 32 | index: one integer comparison each, ties broken by index, which makes the sort stable.
// Descending order inverts the key but not the index.
template <class C>
uint64_t order_key(C v) {
  if constexpr (std::is_same_v<C, float>) {
    if (std::isnan(v)) return 0xFFFFFFFFu;
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    if (v == 0.0f) bits = 0;  // -0.0 and 0.0 are equal
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  } else if constexpr (std::is_signed_v<C>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v) + (int64_t{1} << 31));
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Runs fn(line_in, line_out_values, line_out_indices, stride) for every line along `axis` of the
// contiguous x, with n input and m output elements per line.
template <class Fn>
void for_each_line(const Tensor& x, int64_t axis, int64_t m, Fn fn) {
  int64_t outer = 1, inner = 1;
  const int64_t n = x.ndim() == 0 ? 1 : x.shape()[axis];
  for (int64_t d = 0; d < axis; ++d) outer *= x.shape()[d];
  for (int64_t d = axis + 1; d < x.ndim(); ++d) inner *= x.shape()[d];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(outer * inner, grain, [&](int64_t b, int64_t e) {
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
    if constexpr (sizeof(C) <= 4 && !std::is_same_v<C, bool>) {
      for_each_line(x, axis, m, [&](int64_t in_at, int64_t out_at, int64_t stride) {
        thread_local hwy::Sorter sorter;  // vectorized quicksort (Highway vqsort); reusable scratch
        std::vector<uint64_t> keys(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) {
          uint64_t key = order_key(static_cast<C>(px[in_at + k * stride]));
          keys[k] = ((descending ? ~key & 0xFFFFFFFFu : key) << 32) | static_cast<uint64_t>(k);
        }
        if constexpr (TOPK) {
          std::partial_sort(keys.begin(), keys.begin() + m, keys.end());
        } else {
          sorter(keys.data(), keys.size(), hwy::SortAscending());
        }
        for (int64_t k = 0; k < m; ++k) {
          const auto index = static_cast<int32_t>(keys[k] & 0xFFFFFFFFu);
          pv[out_at + k * stride] = px[in_at + index * stride];
          pi[out_at + k * stride] = index;
        }
      });
      return;
    }
    using Entry = std::pair<C, int32_t>;
    for_each_line(x, axis, m, [&](int64_t in_at, int64_t out_at, int64_t stride) {
      // The line is copied out once so the sort compares values held next to their indices.
      std::vector<Entry> line(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) line[k] = {static_cast<C>(px[in_at + k * stride]), static_cast<int32_t>(k)};
      // NaNs go to their end first (ascending: last; descending: first), in index order; the numbers
      // in between sort with plain comparisons.
      auto numbers_begin = line.begin(), numbers_end = line.end();
      if constexpr (std::is_floating_point_v<C>) {
        auto is_number = [](const Entry& e) { return !std::isnan(e.first); };
        if (descending) {
          auto is_nan = [&](const Entry& e) { return !is_number(e); };
          numbers_begin = std::stable_partition(line.begin(), line.end(), is_nan);
        } else {
          numbers_end = std::stable_partition(line.begin(), line.end(), is_number);
        }
      }
      auto plain = [descending](const Entry& p, const Entry& q) {
        return descending ? (p.first > q.first || (p.first == q.first && p.second < q.second))
                          : (p.first < q.first || (p.first == q.first && p.second < q.second));
      };
      if constexpr (TOPK) {
        // Descending: the NaNs (if any) already lead; the rest of the k come from the numbers.
        auto k_end = line.begin() + m;
        if (k_end > numbers_begin) std::partial_sort(numbers_begin, k_end, numbers_end, plain);
      } else {
        std::sort(numbers_begin, numbers_end, plain);
      }
      for (int64_t k = 0; k < m; ++k) {
        pv[out_at + k * stride] = px[in_at + line[k].second * stride];
        pi[out_at + k * stride] = line[k].second;
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
      auto at = std::lower_bound(values.begin(), values.end(), v, less_nan_last<C>);
      pi[i] = static_cast<int32_t>(at - values.begin());
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
