// Attributes of the special-function ops (math_special.cc).
#pragma once

#include <cstdint>
#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// Polygamma: the order of the derivative of digamma (MindSpore passes it as a tensor `a`; the Python
// wrapper reads it there, as the formula depends on it).
struct PolygammaAttrs {
  int64_t n = 1;
  static constexpr auto fields() {
    return std::tuple{attr("n", &PolygammaAttrs::n, "The order of the derivative of digamma, at least 1.")};
  }
};

}  // namespace sprout
