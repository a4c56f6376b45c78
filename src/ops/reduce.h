// Attributes of the reduction ops, shared with their kernels.
#pragma once

#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct ReduceAttrs {
  bool keep_dims = false;
  std::vector<int64_t> axis;
  static constexpr auto fields() {
    return std::tuple{attr("keep_dims", &ReduceAttrs::keep_dims, "Keep reduced axes with size 1."),
                      attr("axis", &ReduceAttrs::axis, "Axes to reduce; empty reduces all.").call()};
  }
};

// MindSpore's ops.LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12).
struct LpNormAttrs {
  std::vector<int64_t> axis;
  int64_t p = 2;
  bool keep_dims = false;
  double epsilon = 1e-12;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &LpNormAttrs::axis, "Axes to take the norm over; empty takes all."),
                      attr("p", &LpNormAttrs::p, "The order of the norm, at least 1."),
                      attr("keep_dims", &LpNormAttrs::keep_dims, "Keep reduced axes with size 1."),
                      attr("epsilon", &LpNormAttrs::epsilon,
                           "The smallest norm returned (a smaller one becomes epsilon).")};
  }
};

}  // namespace sprout
