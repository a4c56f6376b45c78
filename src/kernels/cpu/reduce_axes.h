// The kept and reduced axes of a reduction, and the element counts on each side: the first step of
// every reduction kernel (ReduceSum/Mean/Max/Min and ReduceProd/All/Any).
#pragma once

#include <cstdint>
#include <vector>

#include "base/shape.h"
#include "tensor/tensor.h"

namespace sprout {

struct ReduceSplit {
  Shape kept, reduced;     // axis indices, in order
  int64_t kn = 1, rn = 1;  // elements kept (outputs) and reduced per output
};

// `axis` was validated by the op's infer function; empty means every axis.
inline ReduceSplit split_reduce_axes(const Tensor& x, const std::vector<int64_t>& axis) {
  const int64_t ndim = x.ndim();
  std::vector<bool> mask(static_cast<size_t>(ndim), axis.empty());
  for (int64_t a : axis)
    if (ndim > 0) mask[static_cast<size_t>(a < 0 ? a + ndim : a)] = true;
  ReduceSplit s;
  for (int64_t d = 0; d < ndim; ++d) {
    (mask[d] ? s.reduced : s.kept).push_back(d);
    (mask[d] ? s.rn : s.kn) *= x.shape()[d];
  }
  return s;
}

}  // namespace sprout
