// Attributes of the normalization ops, shared with their kernels.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <tuple>

#include "base/shape.h"
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

struct BatchNormGradAttrs {
  bool is_training = false;
  double epsilon = 1e-5;
  std::string data_format = "NCHW";
  static constexpr auto fields() {
    return std::tuple{attr("is_training", &BatchNormGradAttrs::is_training, "As the forward op's."),
                      attr("epsilon", &BatchNormGradAttrs::epsilon, "As the forward op's."),
                      attr("data_format", &BatchNormGradAttrs::data_format, "As the forward op's.")};
  }
};

}  // namespace sprout

namespace sprout {

struct LayerNormAttrs {
  int64_t begin_norm_axis = 1;
  int64_t begin_params_axis = 1;
  double epsilon = 1e-7;
  static constexpr auto fields() {
    return std::tuple{
        attr("begin_norm_axis", &LayerNormAttrs::begin_norm_axis, "First axis normalized over (to the last)."),
        attr("begin_params_axis", &LayerNormAttrs::begin_params_axis, "First axis gamma and beta cover."),
        attr("epsilon", &LayerNormAttrs::epsilon, "Added to the variance before the square root.")};
  }
};

struct LayerNormGradAttrs {
  int64_t begin_norm_axis = 1;
  int64_t begin_params_axis = 1;
  static constexpr auto fields() {
    return std::tuple{attr("begin_norm_axis", &LayerNormGradAttrs::begin_norm_axis, "As the forward op's."),
                      attr("begin_params_axis", &LayerNormGradAttrs::begin_params_axis, "As the forward op's.")};
  }
};

struct OpDef;
struct TensorSpec;

// Input i of a normalization op (gamma, a saved statistic, dy ...) must have shape `want` (described by
// `what` in the error) and the dtype of input 0.
void check_norm_input_like(const OpDef& op, size_t i, const TensorSpec& t, const Shape& want, const char* what,
                           DType dtype);

struct GroupNormAttrs {
  int64_t num_groups = 1;
  double epsilon = 1e-5;
  static constexpr auto fields() {
    return std::tuple{
        attr("num_groups", &GroupNormAttrs::num_groups, "Groups the channels are split into; divides C."),
        attr("epsilon", &GroupNormAttrs::epsilon, "Added to the variance before the square root.")};
  }
};

struct GroupNormGradAttrs {
  int64_t num_groups = 1;
  static constexpr auto fields() {
    return std::tuple{attr("num_groups", &GroupNormGradAttrs::num_groups, "As the forward op's.")};
  }
};

// GroupNorm's view of its (N, C, *) input: N * groups groups of channels (C / groups of them) * spatial
// contiguous elements each.
struct GroupNormLayout {
  int64_t n, c, groups, spatial;
  int64_t channels_per_group() const { return c / groups; }
  int64_t group_size() const { return c / groups * spatial; }
};
GroupNormLayout group_norm_layout(std::string_view op, int64_t num_groups, std::span<const int64_t> x);

// LayerNorm's view of its input: `rows` independent rows of `row_size` normalized elements; gamma and
// beta cover the last `params` elements of the flat index (element i uses gamma[i % params]).
struct LayerNormLayout {
  int64_t norm_axis, params_axis;  // normalized into [0, rank)
  int64_t rows, row_size, params;
};
LayerNormLayout layer_norm_layout(std::string_view op, int64_t begin_norm_axis, int64_t begin_params_axis,
                                  std::span<const int64_t> x);

}  // namespace sprout
