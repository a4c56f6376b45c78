// Attributes of the activation and softmax ops, shared with their kernels.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct LeakyReLUAttrs {
  double alpha = 0.2;
  static constexpr auto fields() {
    return std::tuple{attr("alpha", &LeakyReLUAttrs::alpha, "Slope for negative inputs.")};
  }
};

struct EluAttrs {
  double alpha = 1.0;
  static constexpr auto fields() {
    return std::tuple{attr("alpha", &EluAttrs::alpha, "Scale of the negative part, alpha * (exp(x) - 1).")};
  }
};

// MindSpore's GeLU primitive computes the tanh approximation, so that is the default here too;
// ops.gelu(approximate='none') (its default) selects the exact erf form.
struct GeLUAttrs {
  std::string approximate = "tanh";
  static constexpr auto fields() {
    return std::tuple{attr("approximate", &GeLUAttrs::approximate,
                           "'tanh' (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) or 'none' (x Phi(x)).")};
  }
};

// Softmax takes MindSpore's tuple of axes, of which exactly one is supported (as MindSpore's CPU kernel).
struct SoftmaxAttrs {
  std::vector<int64_t> axis{-1};
  static constexpr auto fields() {
    return std::tuple{attr("axis", &SoftmaxAttrs::axis, "The axis to normalize over (one axis).")};
  }
};

struct LogSoftmaxAttrs {
  int64_t axis = -1;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &LogSoftmaxAttrs::axis, "The axis to normalize over.")};
  }
};

}  // namespace sprout
