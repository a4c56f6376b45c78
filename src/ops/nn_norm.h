// Attributes of the normalization ops, shared with their kernels.
#pragma once

#include <string>
#include <tuple>

#include "ops/attrs.h"

namespace sprout {

struct BatchNormAttrs {
  bool is_training = false;
  double epsilon = 1e-5;
  double momentum = 0.1;
  std::string data_format = "NCHW";
  static constexpr auto fields() {
    return std::tuple{
        attr("is_training", &BatchNormAttrs::is_training,
             "Normalize with the batch's statistics and update the running ones (else use the running ones)."),
        attr("epsilon", &BatchNormAttrs::epsilon, "Added to the variance before the square root."),
        attr("momentum", &BatchNormAttrs::momentum,
             "Running statistics update: new = (1 - momentum) * running + momentum * batch."),
        attr("data_format", &BatchNormAttrs::data_format, "Layout of the input; 'NCHW'.")};
  }
};

}  // namespace sprout
