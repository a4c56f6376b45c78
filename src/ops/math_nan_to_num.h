// Attributes of NanToNum (math_nan_to_num.cc).
#pragma once

#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// The replacements of NaN, +inf and -inf (ops.nan_to_num resolves MindSpore's None, the dtype's largest
// finite values, before making the primitive).
struct NanToNumAttrs {
  double nan = 0.0;
  double posinf = 3.4028234663852886e38;
  double neginf = -3.4028234663852886e38;
  static constexpr auto fields() {
    return std::tuple{attr("nan", &NanToNumAttrs::nan, "The value NaN becomes."),
                      attr("posinf", &NanToNumAttrs::posinf, "The value +inf becomes."),
                      attr("neginf", &NanToNumAttrs::neginf, "The value -inf becomes.")};
  }
};

}  // namespace sprout
