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

}  // namespace sprout
