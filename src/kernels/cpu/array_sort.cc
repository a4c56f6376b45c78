// CPU kernels of Sort, TopK, Unique and SearchSorted. Each line along the sorted axis is copied into a buffer of
// keys carrying value and index (Note [Sort keys]), sorted with Highway's vectorized quicksort
// (partial_sort for TopK) and written back; lines split across threads. 64-bit values sort as
// (value, index) pairs with std::sort; Unique sorts them as K64V64 pairs (Note [Unique by one sort]).
// SearchSorted binary-searches each value's row (Note [Searching sorted rows]).
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

// A 64-bit value as an unsigned key of the same order (Note [Sort keys], widened): every NaN the key
// after +inf's, -0.0 the key of 0.0.
template <class C>
uint64_t order_key64(C v) {
  if constexpr (std::is_same_v<C, double>) {
    if (std::isnan(v)) return ~uint64_t{1};
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    if (v == 0.0) bits = 0;
    return (bits >> 63) ? ~bits : (bits | (uint64_t{1} << 63));
  } else if constexpr (std::is_signed_v<C>) {
    return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Note [Unique by one sort]
// Unique sorts (key, index) pairs once with vqsort (64-bit values as K64V64 pairs, narrower ones packed
// into one uint64 as Sort does), then walks them: a new key starts a new unique value, and each index
// gets the number of the run it fell in, the inverse map without a search per element (std::sort of the
// values, then a binary search per element, before). Integers spanning a short range skip the sort
// (unique_in_range). Two threads on the Zen 4 host, before -> after (PyTorch's torch.unique with
// return_inverse): 1M float32 normals 269 -> 26.5 ms (113); 1M int32 below 1000 82 -> 3.0 ms (8.6);
// 4096 int64 below 1000 226 -> 10 us (52). vqsort keeps
// the largest K64V64 key for itself (pairs holding it came back overwritten), so the int64 maximum and
// the uint64 maximum, which need it, sort with std::sort.
template <class T, class Entry, class KeyOf, class IndexOf>
void unique_by_sort(const T* px, int64_t n, std::vector<Entry>& entries, KeyOf key_of, IndexOf index_of,
                    std::span<Tensor> out, DType dtype) {
  thread_local hwy::Sorter sorter;
  if constexpr (std::is_same_v<Entry, hwy::K64V64>) {
    if (std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return e.key == ~uint64_t{0}; }))
      std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    else
      sorter(entries.data(), entries.size(), hwy::SortAscending());
  } else {
    sorter(entries.data(), entries.size(), hwy::SortAscending());
  }
  std::vector<int64_t> firsts;  // the input index of each run's first element
  int32_t* inverse = out[1].template data<int32_t>();
  for (int64_t k = 0; k < n; ++k) {
    const Entry& e = entries[static_cast<size_t>(k)];
    // The run's first index in the input (K64V64 pairs sort by key alone): -0.0 or 0.0 as NumPy picks.
    if (k == 0 || key_of(e) != key_of(entries[static_cast<size_t>(k - 1)])) firsts.push_back(index_of(e));
    firsts.back() = std::min(firsts.back(), index_of(e));
    inverse[index_of(e)] = static_cast<int32_t>(firsts.size() - 1);
  }
  out[0] = Tensor::empty(Shape{static_cast<int64_t>(firsts.size())}, dtype);
  T* py = out[0].template data<T>();
  for (size_t u = 0; u < firsts.size(); ++u) py[u] = px[firsts[u]];
}

// Unique of integers spanning a range of at most 2n + 1024 values (class labels, token ids): a table over
// the range marks the values present, numbers them in order, and maps each element to its number, in
// O(n) without a sort (Note [Unique by one sort]).
template <class T>
bool unique_in_range(const T* px, int64_t n, std::span<Tensor> out, DType dtype) {
  if (n == 0) return false;
  const auto [lo, hi] = std::minmax_element(px, px + n);
  const uint64_t span = static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo);  // wraps right for signed T too
  if (span >= static_cast<uint64_t>(2 * n + 1024)) return false;
  const T min = *lo;
  auto slot = [&](T v) { return static_cast<size_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(min)); };
  std::vector<int32_t> number(static_cast<size_t>(span) + 1, -1);
  for (int64_t i = 0; i < n; ++i) number[slot(px[i])] = 0;
  int32_t count = 0;
  for (int32_t& k : number)
    if (k == 0) k = count++;
  out[0] = Tensor::empty(Shape{count}, dtype);
  T* py = out[0].template data<T>();
  for (size_t k = 0; k < number.size(); ++k)
    if (number[k] >= 0) py[number[k]] = static_cast<T>(static_cast<uint64_t>(min) + k);
  int32_t* inverse = out[1].template data<int32_t>();
  for (int64_t i = 0; i < n; ++i) inverse[i] = number[slot(px[i])];
  return true;
}

void unique_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = std::conditional_t<std::is_same_v<T, bool>, uint8_t, compute_t<T>>;
    const T* px = x.template data<T>();
    const int64_t n = x.numel();
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (unique_in_range(px, n, out, x.dtype())) return;
    }
    if constexpr (sizeof(C) <= 4) {
      std::vector<uint64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = order_key(static_cast<C>(px[i])) << 32 | static_cast<uint64_t>(i);
      unique_by_sort(px, n, keys, [](uint64_t e) { return e >> 32; },
                     [](uint64_t e) { return static_cast<int64_t>(e & 0xFFFFFFFFu); }, out, x.dtype());
    } else {
      std::vector<hwy::K64V64> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = {static_cast<uint64_t>(i), order_key64(static_cast<C>(px[i]))};
      unique_by_sort(px, n, keys, [](const hwy::K64V64& e) { return e.key; },
                     [](const hwy::K64V64& e) { return static_cast<int64_t>(e.value); }, out, x.dtype());
    }
  });
}

// Note [Searching sorted rows]
// Each value's position comes from a binary search of its row (the one row of a 1-d sequence), values
// split across threads. The order puts NaN after every number, where Sort leaves it, so a NaN value goes
// after the numbers of the row (NumPy's and PyTorch's answer; MindSpore's CPU kernel gives 0 on the
// left). Counting the row's elements below each value, as a broadcast comparison did before, took
// memory for values x row booleans: 1M values in a row of 100K could not allocate.
template <class T, class Pos>
void search_sorted_typed(const Tensor& seq, const Tensor& values, const Tensor& out, bool right) {
  using C = compute_t<T>;
  auto before = [](C a, C b) {
    if constexpr (std::is_floating_point_v<C>) return a < b || (std::isnan(b) && !std::isnan(a));
    else return a < b;
  };
  const T* ps = seq.data<T>();
  const T* pv = values.data<T>();
  Pos* po = out.data<Pos>();
  const int64_t row = seq.shape().back();
  const int64_t values_per_row = seq.ndim() == 1 ? values.numel() : values.shape().back();
  parallel_for(values.numel(), kParallelGrain / 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T* r = ps + (seq.ndim() == 1 ? 0 : i / values_per_row * row);
      const C v = static_cast<C>(pv[i]);
      const T* at = right ? std::upper_bound(r, r + row, v, [&](C x, const T& e) { return before(x, static_cast<C>(e)); })
                          : std::lower_bound(r, r + row, v, [&](const T& e, C x) { return before(static_cast<C>(e), x); });
      po[i] = static_cast<Pos>(at - r);
    }
  });
}

void search_sorted_kernel(const SearchSortedAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor seq = in[0].contiguous(), values = in[1].contiguous();
  if (values.numel() == 0) return;
  visit_dtype(seq.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "SearchSorted on Bool");
    } else if (a.dtype == DType::Int32) {
      search_sorted_typed<T, int32_t>(seq, values, out[0], a.right);
    } else {
      search_sorted_typed<T, int64_t>(seq, values, out[0], a.right);
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_sort) {
  register_kernel<SortAttrs>("Sort", Device::CPU, sort_kernel);
  register_kernel<TopKAttrs>("TopK", Device::CPU, top_k_kernel);
  register_kernel<NoAttrs>("Unique", Device::CPU, unique_kernel);
  register_kernel<SearchSortedAttrs>("SearchSorted", Device::CPU, search_sorted_kernel);
}

}  // namespace sprout
