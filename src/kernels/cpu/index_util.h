// Reading and checking index tensors, shared by the index kernels (array_index.cc, array_layout.cc).
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

#include "tensor/tensor.h"

namespace sprout {

// Indices as int64, whatever their stored type (Int32 or Int64), in row-major order.
inline std::vector<int64_t> read_indices(const Tensor& t) {
  Tensor c = t.contiguous();
  std::vector<int64_t> out(static_cast<size_t>(c.numel()));
  if (c.dtype() == DType::Int32) {
    const int32_t* p = c.data<int32_t>();
    std::copy(p, p + out.size(), out.begin());
  } else {
    const int64_t* p = c.data<int64_t>();
    std::copy(p, p + out.size(), out.begin());
  }
  return out;
}

// Maps each index into [0, n) (negative ones count from the end); ValueError on anything outside [-n, n).
inline void normalize_indices(std::string_view op, std::string_view what, std::vector<int64_t>& idx, int64_t n) {
  for (int64_t& i : idx) {
    SPROUT_CHECK(i >= -n && i < n, ValueError, op, ": index ", i, " in '", what,
                 "' is out of range for an axis of size ", n, " (valid: [", -n, ", ", n, "))");
    if (i < 0) i += n;
  }
}

// Whether every index is in [0, n): one unsigned comparison each (negative values wrap to huge).
inline bool all_in_range(const int64_t* idx, int64_t count, int64_t n) {
  bool ok = true;
  for (int64_t i = 0; i < count; ++i) ok &= static_cast<uint64_t>(idx[i]) < static_cast<uint64_t>(n);
  return ok;
}

}  // namespace sprout
