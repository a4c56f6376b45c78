// Batch normalization.
//
// Note [BatchNorm outputs]
// BatchNorm(is_training, epsilon, momentum)(x, scale, bias, mean, variance) normalizes each channel of
// an (N, C) or (N, C, H, W) input. Its five outputs follow MindSpore's CPU kernel:
//   y;
//   batch_mean, batch_variance: the running statistics after this step's update
//       (training: (1 - momentum) * running + momentum * batch; inference: the running ones);
//   reserve_space_1, reserve_space_2: the statistics y was normalized with (training: the batch's mean
//       and biased variance; inference: the running ones) - what the gradient needs.
// In training, as in MindSpore, the kernel also writes the updated statistics into the `mean` and
// `variance` inputs (the layer's running-statistics Parameters). Only y is differentiable.
// The bprop rule is composed from registry ops (reductions and broadcasting arithmetic), so it runs
// in both modes and differentiates again for higher orders.
#include "ops/nn_norm.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

std::vector<TensorSpec> infer_batch_norm(const OpDef& op, const BatchNormAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  check_dtype_in(op, 0, x, {DType::Float16, DType::Float32, DType::Float64});
  SPROUT_CHECK(a.data_format == "NCHW", ValueError, op.name, ": 'data_format' must be 'NCHW' on CPU, but got '",
               a.data_format, "'");
  SPROUT_CHECK(a.epsilon > 0 && a.epsilon <= 1, ValueError, op.name, ": 'epsilon' must be in (0, 1], but got ",
               a.epsilon);
  SPROUT_CHECK(a.momentum >= 0 && a.momentum <= 1, ValueError, op.name, ": 'momentum' must be in [0, 1], but got ",
               a.momentum);
  SPROUT_CHECK(x.shape.size() == 2 || x.shape.size() == 4, ValueError, op.name,
               ": 'input_x' must be 2-d (N, C) or 4-d (N, C, H, W), but got shape ", shape_str(x.shape));
  const int64_t c = x.shape[1];
  for (size_t i = 1; i < 5; ++i) {
    SPROUT_CHECK(in[i].shape.size() == 1 && in[i].shape[0] == c, ValueError, op.name, ": '", op.inputs[i],
                 "' must have shape (", c, ",) for 'input_x' of shape ", shape_str(x.shape), ", but got ",
                 shape_str(in[i].shape));
    SPROUT_CHECK(in[i].dtype == x.dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of 'input_x' (",
                 name(x.dtype), "), but got ", name(in[i].dtype));
  }
  SPROUT_CHECK(!a.is_training || numel(x.shape) > 0, ValueError, op.name,
               ": training needs a non-empty batch to compute statistics from, but 'input_x' has shape ",
               shape_str(x.shape));
  TensorSpec stat{x.dtype, Shape{c}};
  return {x, stat, stat, stat, stat};
}

using V = BpropBuilder::V;

// Channel statistics as (1, C[, 1, 1]) so they broadcast against x.
struct ChannelView {
  std::vector<int64_t> shape, axes;  // broadcast shape, and the axes summed per channel
  double count;                      // elements per channel
};

ChannelView channel_view(const Shape& x) {
  ChannelView v{std::vector<int64_t>(x.size(), 1), {0}, 1.0};
  v.shape[1] = x[1];
  for (size_t d = 2; d < x.size(); ++d) v.axes.push_back(static_cast<int64_t>(d));
  for (size_t d = 0; d < x.size(); ++d) v.count *= d == 1 ? 1.0 : static_cast<double>(x[d]);
  return v;
}

std::vector<V> batch_norm_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<BatchNormAttrs>();
  V x = b.input(0), scale = b.input(1), dy = b.dout(0);
  const TensorSpec xs = b.spec(x);
  const DType t = xs.dtype;
  ChannelView cv = channel_view(xs.shape);
  auto per_channel = [&](V v) { return b.reshape(v, cv.shape); };
  V mean = b.out(3), var = b.out(4);  // the statistics y was normalized with (Note [BatchNorm outputs])
  V rstd = b.div(b.scalar(1, t), b.emitter().emit("Sqrt", {b.add(var, b.scalar(a.epsilon, t))}));
  V centered = b.sub(x, per_channel(mean));
  V xhat = b.mul(centered, per_channel(rstd));
  V dbias = b.reduce_sum(dy, cv.axes, false);
  V dscale = b.reduce_sum(b.mul(dy, xhat), cv.axes, false);
  V gain = b.mul(scale, rstd);  // dy/dxhat * dxhat/dx for fixed statistics
  if (!a.is_training) {
    // y = (x - mean) * rstd * scale + bias with mean and variance as inputs.
    V dmean = b.neg(b.mul(dbias, gain));
    V dvar = b.mul(b.mul(dscale, gain), b.mul(rstd, b.scalar(-0.5, t)));
    return {b.mul(dy, per_channel(gain)), dscale, dbias, dmean, dvar};
  }
  // Batch statistics depend on x: dx = gain / m * (m * dy - sum(dy) - xhat * sum(dy * xhat)).
  V inner = b.sub(b.sub(b.mul(dy, b.scalar(cv.count, t)), per_channel(dbias)), b.mul(xhat, per_channel(dscale)));
  V dx = b.mul(per_channel(b.div(gain, b.scalar(cv.count, t))), inner);
  return {dx, dscale, dbias, b.emitter().zeros_like(b.input(3)), b.emitter().zeros_like(b.input(4))};
}

}  // namespace

SPROUT_REGISTER(nn_norm) {
  define_op<BatchNormAttrs>("BatchNorm")
      .doc("Batch normalization over the channels of an (N, C) or (N, C, H, W) input (Note [BatchNorm outputs]).")
      .inputs({"input_x", "scale", "bias", "mean", "variance"})
      .outputs({"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"})
      .non_differentiable({false, true, true, true, true})
      .infer(infer_batch_norm)
      .bprop(bprop_rule(batch_norm_bprop));
}

}  // namespace sprout
