// Attributes of Cdist (math_cdist.cc).
#pragma once

#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// MindSpore's ops.Cdist(p=2.0).
struct CdistAttrs {
  double p = 2.0;
  static constexpr auto fields() {
    return std::tuple{attr("p", &CdistAttrs::p, "The order of the norm: any number >= 0, inf included.")};
  }
};

}  // namespace sprout
