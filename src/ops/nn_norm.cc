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
// `variance` inputs (the layer's running-statistics Parameters). y and the reserve spaces are
// differentiable (the batch statistics are functions of x); the running statistics are state.
//
// The gradient is the fused BatchNormGrad(y_backprop, x, scale, reserve_space_1, reserve_space_2) ->
// (dx, dscale, dbias), which reads the statistics as inputs; BatchNorm's rule adds the statistics'
// own gradients, and BatchNormGrad's rule (the shared normalization_grad_bprop in training) gives
// exact higher orders, as LayerNorm does (Note [LayerNorm gradients]).
#include "ops/nn_norm.h"

#include <memory>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"
#include "ops/nn_norm_bprop.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

void check_common(const OpDef& op, const std::string& data_format, double epsilon, const TensorSpec& x) {
  check_dtype_in(op, op.name == "BatchNorm" ? 0 : 1, x, kTypes);
  SPROUT_CHECK(data_format == "NCHW", ValueError, op.name, ": 'data_format' must be 'NCHW' on CPU, but got '",
               data_format, "'");
  SPROUT_CHECK(epsilon > 0 && epsilon <= 1, ValueError, op.name, ": 'epsilon' must be in (0, 1], but got ", epsilon);
  SPROUT_CHECK(x.shape.size() == 2 || x.shape.size() == 4, ValueError, op.name,
               ": 'x' must be 2-d (N, C) or 4-d (N, C, H, W), but got shape ", shape_str(x.shape));
}

// Inputs [first, first + count) are per-channel vectors of x's dtype.
void check_channel_inputs(const OpDef& op, std::span<const TensorSpec> in, const TensorSpec& x, size_t first,
                          size_t count) {
  const int64_t c = x.shape[1];
  for (size_t i = first; i < first + count; ++i) {
    SPROUT_CHECK(in[i].shape.size() == 1 && in[i].shape[0] == c, ValueError, op.name, ": '", op.inputs[i],
                 "' must have shape (", c, ",) for 'x' of shape ", shape_str(x.shape), ", but got ",
                 shape_str(in[i].shape));
    SPROUT_CHECK(in[i].dtype == x.dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of 'x' (",
                 name(x.dtype), "), but got ", name(in[i].dtype));
  }
}

std::vector<TensorSpec> infer_batch_norm(const OpDef& op, const BatchNormAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  check_common(op, a.data_format, a.epsilon, x);
  SPROUT_CHECK(a.momentum >= 0 && a.momentum <= 1, ValueError, op.name, ": 'momentum' must be in [0, 1], but got ",
               a.momentum);
  check_channel_inputs(op, in, x, 1, 4);
  SPROUT_CHECK(!a.is_training || numel(x.shape) > 0, ValueError, op.name,
               ": training needs a non-empty batch to compute statistics from, but 'x' has shape ", shape_str(x.shape));
  TensorSpec stat{x.dtype, Shape{x.shape[1]}};
  return {x, stat, stat, stat, stat};
}

std::vector<TensorSpec> infer_batch_norm_grad(const OpDef& op, const BatchNormGradAttrs& a,
                                              std::span<const TensorSpec> in) {
  const TensorSpec& x = in[1];
  check_common(op, a.data_format, a.epsilon, x);
  SPROUT_CHECK(in[0].shape == x.shape && in[0].dtype == x.dtype, ValueError, op.name, ": 'y_backprop' ",
               spec_str(in[0]), " must match 'x' ", spec_str(x));
  check_channel_inputs(op, in, x, 2, 3);
  TensorSpec stat{x.dtype, Shape{x.shape[1]}};
  return {x, stat, stat};
}

using V = BpropBuilder::V;

// Per-channel views of x: statistics as (1, C[, 1, 1]) to broadcast, sums over every axis but 1.
struct Channels {
  BpropBuilder& b;
  std::vector<int64_t> shape, axes;
  double count;
  V view(V v) { return b.reshape(v, shape); }
  V sum_kept(V v) { return b.reduce_sum(v, axes, true); }
  V sum(V v) { return b.reduce_sum(v, axes, false); }
};

Channels channels(BpropBuilder& b, V x) {
  const Shape xs = b.spec(x).shape;
  Channels c{b, std::vector<int64_t>(xs.size(), 1), {0}, 1.0};
  c.shape[1] = xs[1];
  for (size_t d = 2; d < xs.size(); ++d) c.axes.push_back(static_cast<int64_t>(d));
  for (size_t d = 0; d < xs.size(); ++d) c.count *= d == 1 ? 1.0 : static_cast<double>(xs[d]);
  return c;
}

V rstd_of(BpropBuilder& b, V var, double epsilon) {
  DType t = b.spec(var).dtype;
  return b.div(b.scalar(1, t), b.emitter().emit("Sqrt", {b.add(var, b.scalar(epsilon, t))}));
}

std::vector<V> batch_norm_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<BatchNormAttrs>();
  V x = b.input(0), dy = b.dout(0), mean = b.out(3), var = b.out(4), dmean = b.dout(3), dvar = b.dout(4);
  static const OpDef& grad_def = OpRegistry::instance().get("BatchNormGrad");
  auto attrs = std::make_shared<BatchNormGradAttrs>(BatchNormGradAttrs{a.is_training, a.epsilon, a.data_format});
  V grad_in[] = {dy, x, b.input(1), mean, var};
  std::vector<V> g = b.emitter().emit_outputs(Primitive(grad_def, attrs), grad_in);
  if (!a.is_training) {
    // y = (x - mean) * rstd * scale + bias with the running statistics as inputs (also returned as
    // reserve spaces 1 and 2). Their gradients cost a pass over x; eager mode skips it when nobody
    // wants them (running statistics are not trained).
    if (!b.wants(3) && !b.wants(4)) return {g[0], g[1], g[2], V{}, V{}};
    Channels c = channels(b, x);
    V rstd = rstd_of(b, var, a.epsilon), gain = b.mul(b.input(1), rstd);
    V d_mean = b.sub(dmean, b.mul(g[2], gain));
    V d_rstd = b.mul(c.sum(b.mul(dy, b.sub(x, c.view(mean)))), b.input(1));
    V d_var = b.add(dvar, b.mul(d_rstd, b.mul(b.mul(rstd, b.mul(rstd, rstd)), b.scalar(-0.5, b.spec(x).dtype))));
    return {g[0], g[1], g[2], d_mean, d_var};
  }
  // The batch statistics' own gradients: d mean/dx = 1/m, d var/dx = 2 (x - mean) / m. They are
  // zero unless something reads the reserve spaces (a layer never does): then dx is BatchNormGrad's
  // alone, which saves three passes over x.
  V no_mean = b.emitter().zeros_like(b.input(3)), no_var = b.emitter().zeros_like(b.input(4));
  if (b.emitter().is_zero(dmean) && b.emitter().is_zero(dvar)) return {g[0], g[1], g[2], no_mean, no_var};
  Channels c = channels(b, x);
  DType t = b.spec(x).dtype;
  V coef = c.view(b.mul(dvar, b.scalar(2.0 / c.count, t)));
  V offset = c.view(b.sub(b.mul(dmean, b.scalar(1.0 / c.count, t)), b.mul(b.mul(dvar, b.scalar(2.0 / c.count, t)), mean)));
  V dx = b.add(g[0], b.add(b.mul(x, coef), offset));
  return {dx, g[1], g[2], no_mean, no_var};
}

std::vector<V> batch_norm_grad_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<BatchNormGradAttrs>();
  V dy = b.input(0), x = b.input(1), scale = b.input(2), mean = b.input(3), var = b.input(4);
  V gx = b.dout(0), gs = b.dout(1), gb = b.dout(2);
  Channels c = channels(b, x);
  V rstd = rstd_of(b, var, a.epsilon);
  DType t = b.spec(x).dtype;
  auto var_grad = [&](V d_rstd) {  // rstd = (var + eps)^(-1/2)
    return b.mul(d_rstd, b.mul(b.mul(rstd, b.mul(rstd, rstd)), b.scalar(-0.5, t)));
  };
  if (!a.is_training) {
    // dx = dy * scale * rstd, dscale = sum(dy * xhat), dbias = sum(dy): linear in dy.
    V centered = b.sub(x, c.view(mean)), xhat = b.mul(centered, c.view(rstd));
    V d_dy = b.add(b.add(b.mul(gx, c.view(b.mul(scale, rstd))), b.mul(c.view(gs), xhat)), c.view(gb));
    V dy_gs = b.mul(dy, c.view(gs));
    V d_x = b.mul(dy_gs, c.view(rstd));
    V d_scale = b.mul(c.sum(b.mul(gx, dy)), rstd);
    V d_mean = b.neg(b.mul(c.sum(dy_gs), rstd));
    V d_rstd = b.add(b.mul(c.sum(b.mul(gx, dy)), scale), c.sum(b.mul(dy_gs, centered)));
    return {d_dy, d_x, d_scale, d_mean, var_grad(d_rstd)};
  }
  NormGroups groups{[&](V v) { return c.sum_kept(v); }, c.count, [&](V v) { return c.sum(v); }};
  NormGradInputGrads d = normalization_grad_bprop(b, groups, x, dy, c.view(rstd), c.view(mean), c.view(scale), gx,
                                                  c.view(gs), c.view(gb));
  std::vector<int64_t> channel{b.spec(scale).shape[0]};
  return {d.dy, d.x, d.gamma, b.reshape(d.mean, channel), var_grad(b.reshape(d.rstd, channel))};
}

}  // namespace

SPROUT_REGISTER(nn_norm) {
  define_op<BatchNormAttrs>("BatchNorm")
      .side_effect()
      .doc("Batch normalization over the channels of an (N, C) or (N, C, H, W) input (Note [BatchNorm outputs]).")
      .inputs({"input_x", "scale", "bias", "mean", "variance"})
      .outputs({"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"})
      .non_differentiable({false, true, true, false, false})
      .infer(infer_batch_norm)
      .bprop(bprop_rule(batch_norm_bprop));
  define_op<BatchNormGradAttrs>("BatchNormGrad")
      .doc("Fused gradient of BatchNorm: (dx, dscale, dbias) from the saved statistics (Note [BatchNorm outputs]).")
      .inputs({"y_backprop", "x", "scale", "reserve_space_1", "reserve_space_2"})
      .outputs({"dx", "dscale", "dbias"})
      .infer(infer_batch_norm_grad)
      .bprop(bprop_rule(batch_norm_grad_bprop));
}

}  // namespace sprout
