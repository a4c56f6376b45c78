// NdLoop: walks K operands of the same logical shape, each with its own strides, as a sequence of
// rows (the innermost dimension). Every elementwise kernel, copy and cast goes through it.
//
// Note [Collapsing dimensions]
// Before walking, adjacent dimensions that are contiguous with each other in *every* operand are
// merged, and size-1 dimensions dropped. A contiguous tensor of any rank becomes a single row, so the
// kernel's inner loop sees the longest possible run; a broadcast operand keeps stride 0 there and the
// inner loop can test for it once per row instead of once per element.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "base/shape.h"

namespace sprout {

template <size_t K>
class NdLoop {
 public:
  NdLoop(std::span<const int64_t> shape, const std::array<std::span<const int64_t>, K>& strides) {
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      bool merge = !shape_.empty();
      for (size_t k = 0; merge && k < K; ++k)
        merge = strides_[k].back() == strides[k][d] * shape[d];
      if (merge) {
        shape_.back() *= shape[d];
        for (size_t k = 0; k < K; ++k) strides_[k].back() = strides[k][d];
      } else {
        shape_.push_back(shape[d]);
        for (size_t k = 0; k < K; ++k) strides_[k].push_back(strides[k][d]);
      }
    }
    if (shape_.empty()) {  // a scalar, or all dims of size 1: one row of one element
      shape_.push_back(1);
      for (size_t k = 0; k < K; ++k) strides_[k].push_back(0);
    }
    for (int64_t d : shape) empty_ = empty_ || d == 0;
  }

  int64_t inner_size() const { return empty_ ? 0 : shape_.back(); }
  int64_t rows() const { return empty_ ? 0 : numel(shape_) / shape_.back(); }
  int64_t inner_stride(size_t k) const { return strides_[k].back(); }
  // The collapsed dimensions and each operand's strides over them.
  const Shape& shape() const { return shape_; }
  std::span<const int64_t> strides(size_t k) const { return strides_[k]; }

  // Calls fn(offsets, n) over the flat element range [begin, end) in logical row-major order, in
  // pieces that never cross a row: how work is split across threads regardless of row length.
  template <class Fn>
  void run_elements(int64_t begin, int64_t end, Fn&& fn) const {
    if (begin >= end) return;
    const int64_t n = shape_.back();
    int64_t row = begin / n, col = begin % n;
    if (col != 0) {  // finish the partial first row
      int64_t take = std::min(n - col, end - begin);
      run(row, row + 1, [&](std::array<int64_t, K> off, int64_t) {
        for (size_t k = 0; k < K; ++k) off[k] += col * strides_[k].back();
        fn(off, take);
      });
      begin += take;
      ++row;
    }
    int64_t full_rows = (end - begin) / n;
    run(row, row + full_rows, fn);
    begin += full_rows * n;
    if (begin < end) run(row + full_rows, row + full_rows + 1, [&](const std::array<int64_t, K>& off, int64_t) { fn(off, end - begin); });
  }

  // Calls fn(offsets, n) for rows [begin, end): offsets[k] is the element offset of operand k at the
  // row start, n the row length; the inner strides are inner_stride(k).
  template <class Fn>
  void run(int64_t begin, int64_t end, Fn&& fn) const {
    if (begin >= end) return;
    const int64_t outer_ndim = static_cast<int64_t>(shape_.size()) - 1;
    Shape index(static_cast<size_t>(outer_ndim));
    std::array<int64_t, K> offsets{};
    int64_t rest = begin;
    for (int64_t d = outer_ndim - 1; d >= 0; --d) {
      index[d] = rest % shape_[d];
      rest /= shape_[d];
      for (size_t k = 0; k < K; ++k) offsets[k] += index[d] * strides_[k][d];
    }
    const int64_t n = shape_.back();
    for (int64_t row = begin; row < end; ++row) {
      fn(offsets, n);
      for (int64_t d = outer_ndim - 1; d >= 0; --d) {  // odometer increment
        for (size_t k = 0; k < K; ++k) offsets[k] += strides_[k][d];
        if (++index[d] < shape_[d]) break;
        for (size_t k = 0; k < K; ++k) offsets[k] -= shape_[d] * strides_[k][d];
        index[d] = 0;
      }
    }
  }

 private:
  Shape shape_;
  std::array<Strides, K> strides_;
  bool empty_ = false;
};

}  // namespace sprout
