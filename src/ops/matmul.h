// Attributes of MatMul and BatchMatMul, shared with their kernels.
#pragma once

#include <tuple>

#include "ops/attrs.h"

namespace sprout {

struct MatMulAttrs {
  bool transpose_a = false;
  bool transpose_b = false;
  static constexpr auto fields() {
    return std::tuple{attr("transpose_a", &MatMulAttrs::transpose_a, "Use the transpose of the first input."),
                      attr("transpose_b", &MatMulAttrs::transpose_b, "Use the transpose of the second input.")};
  }
};

}  // namespace sprout
