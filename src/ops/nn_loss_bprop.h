// Bprop helpers of the losses: spreading the sensitivity of a reduced loss back over its elements.
#pragma once

#include "ops/nn_act_bprop.h"
#include "ops/nn_loss.h"

namespace sprout::nn {

// dout of a loss reduced by `r` from elements of `shape`, as a per-element sensitivity of that shape.
inline V spread_loss_dout(BpropBuilder& b, V dout, Reduction r, const Shape& shape) {
  if (r == Reduction::None) return dout;
  V d = dout;
  if (r == Reduction::Mean) d = b.div(d, scalar_like(b, static_cast<double>(std::max<int64_t>(numel(shape), 1)), d));
  if (r == Reduction::BatchMean)
    d = b.div(d, scalar_like(b, static_cast<double>(shape.empty() ? 1 : std::max<int64_t>(shape[0], 1)), d));
  return b.broadcast_to(d, shape);
}

}  // namespace sprout::nn
