// Helpers the normalization bprop rules share (Note [LayerNorm gradients], Note [BatchNorm outputs]).
#pragma once

#include <functional>

#include "ops/bprop_builder.h"

namespace sprout {

// How one normalization groups x: `sum` adds up each group's elements keeping dims (so the result
// broadcasts against x), `count` is the elements per group, `param_sum` reduces an x-shaped value to
// the shape of the affine parameters.
struct NormGroups {
  std::function<BpropBuilder::V(BpropBuilder::V)> sum;
  double count;
  std::function<BpropBuilder::V(BpropBuilder::V)> param_sum;
};

// Gradients of the fused normalization backward, (dx, dgamma, dbeta) = NormGrad(x, dy, rstd, mean, gamma)
// with dx = rstd * (g - mean_group(g) - xhat * mean_group(g * xhat)), xhat = (x - mean) * rstd,
// g = dy * gamma, dgamma = param_sum(dy * xhat), dbeta = param_sum(dy); each input's derivative taken with
// the others fixed. gamma, gg and gb (the sensitivities of dgamma and dbeta) must broadcast against x;
// the rstd and mean results have the group-statistics shape of `sum`.
struct NormGradInputGrads {
  BpropBuilder::V x, dy, rstd, mean, gamma;
};
NormGradInputGrads normalization_grad_bprop(BpropBuilder& b, const NormGroups& groups, BpropBuilder::V x,
                                            BpropBuilder::V dy, BpropBuilder::V rstd, BpropBuilder::V mean,
                                            BpropBuilder::V gamma, BpropBuilder::V gx, BpropBuilder::V gg,
                                            BpropBuilder::V gb);

}  // namespace sprout
