// Attributes of the adaptive pooling ops (AdaptiveAvgPool2D, AdaptiveMaxPool2D and their gradients),
// shared with their kernels.
//
// Note [Adaptive pooling windows]
// Output cell i of an axis of input size `in` and output size `out` pools input cells
// [floor(i * in / out), ceil((i + 1) * in / out)): windows cover the input, overlapping when out does
// not divide in. The input is (C, H, W) or (N, C, H, W); only the last two axes pool.
// AdaptiveMaxPool2D also returns `argmax`, the flat index within its (H, W) plane of each window's
// first maximum. Its gradient ops find the maxima again from x rather than reading argmax (as
// MaxPoolGrad does), so they stay pure functions of floating inputs: AdaptiveMaxPool2DGrad(y_grad, x)
// scatters each gradient to its maximum and AdaptiveMaxPool2DGradGrad(x, grad) gathers from there;
// each is the other's transpose.
#pragma once

#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct AdaptivePool2DAttrs {
  std::vector<int64_t> output_size = {1};
  static constexpr auto fields() {
    return std::tuple{attr("output_size", &AdaptivePool2DAttrs::output_size,
                           "Output (H, W), or one int for both; -1 (None in ops.adaptive_avg_pool2d) keeps the input's.")};
  }
};

struct AdaptiveAvgPool2DGradAttrs {
  std::vector<int64_t> orig_input_shape;
  static constexpr auto fields() {
    return std::tuple{attr("orig_input_shape", &AdaptiveAvgPool2DGradAttrs::orig_input_shape,
                           "Shape of the pooled input, whose gradient this computes.")
                          .call()};
  }
};

inline int64_t adaptive_start(int64_t i, int64_t in, int64_t out) { return i * in / out; }
inline int64_t adaptive_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

}  // namespace sprout
