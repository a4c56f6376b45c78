// Layer normalization: LayerNorm(begin_norm_axis, begin_params_axis, epsilon)(x, gamma, beta) ->
// (output_x, mean, rstd), the statistics kept with size-1 normalized axes as MindSpore gives them.
//
// Note [LayerNorm gradients]
// LayerNormGrad(x, dy, rstd, mean, gamma) -> (dx, dgamma, dbeta) is the fused backward, reading the
// saved statistics as independent inputs: with xhat = (x - mean) * rstd and g = dy * gamma,
//   dx = rstd * (g - mean_row(g) - xhat * mean_row(g * xhat)),
//   dgamma = sum over the leading axes of dy * xhat, dbeta likewise of dy.
// Because it treats mean and rstd as inputs, LayerNorm's mean and rstd outputs are differentiable and
// LayerNorm's rule adds their contribution (d mean/dx = 1/K, d rstd/dx = -rstd^3 (x - mean) / K); then
// differentiating LayerNormGrad again (its own rule, below) gives exact higher orders.
#include <memory>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"
#include "ops/nn_norm.h"
#include "ops/nn_norm_bprop.h"

namespace sprout {

LayerNormLayout layer_norm_layout(std::string_view op, int64_t begin_norm_axis, int64_t begin_params_axis,
                                  std::span<const int64_t> x) {
  const int64_t rank = static_cast<int64_t>(x.size());
  SPROUT_CHECK(rank >= 1, ValueError, op, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  auto axis = [&](const char* name, int64_t v) {
    SPROUT_CHECK(v >= -1 && v < rank, ValueError, op, ": '", name, "' must be in [-1, ", rank, ") for 'input_x' of shape ",
                 shape_str(x), ", but got ", v);
    return v < 0 ? v + rank : v;
  };
  LayerNormLayout l{axis("begin_norm_axis", begin_norm_axis), axis("begin_params_axis", begin_params_axis), 1, 1, 1};
  for (int64_t d = 0; d < rank; ++d) {
    (d < l.norm_axis ? l.rows : l.row_size) *= x[d];
    if (d >= l.params_axis) l.params *= x[d];
  }
  return l;
}

void check_norm_input_like(const OpDef& op, size_t i, const TensorSpec& t, const Shape& want, const char* what,
                           DType dtype) {
  SPROUT_CHECK(t.shape == want, ValueError, op.name, ": '", op.inputs[i], "' must have shape ", shape_str(want), " (",
               what, "), but got ", shape_str(t.shape));
  SPROUT_CHECK(t.dtype == dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '", op.inputs[0],
               "' (", name(dtype), "), but got ", name(t.dtype));
}

namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

Shape stat_shape(const LayerNormLayout& l, const Shape& x) {
  Shape stat(x);
  for (size_t d = static_cast<size_t>(l.norm_axis); d < stat.size(); ++d) stat[d] = 1;
  return stat;
}

LayerNormLayout checked_layout(const OpDef& op, int64_t norm_axis, int64_t params_axis, const TensorSpec& x) {
  check_dtype_in(op, 0, x, kTypes);
  LayerNormLayout l = layer_norm_layout(op.name, norm_axis, params_axis, x.shape);
  SPROUT_CHECK(l.row_size > 0, ValueError, op.name, ": the normalized axes of 'input_x' of shape ", shape_str(x.shape),
               " (from axis ", l.norm_axis, ") are empty; there is nothing to normalize");
  return l;
}

std::vector<TensorSpec> infer_layer_norm(const OpDef& op, const LayerNormAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  LayerNormLayout l = checked_layout(op, a.begin_norm_axis, a.begin_params_axis, x);
  SPROUT_CHECK(a.epsilon > 0, ValueError, op.name, ": 'epsilon' must be positive, but got ", a.epsilon);
  Shape params(x.shape.begin() + l.params_axis, x.shape.end());
  for (size_t i = 1; i < 3; ++i)
    check_norm_input_like(op, i, in[i], params, "input_x.shape[begin_params_axis:]", x.dtype);
  TensorSpec stat{x.dtype, stat_shape(l, x.shape)};
  return {x, stat, stat};
}

// (x, dy, rstd, mean, gamma) -> (dx, dgamma, dbeta).
std::vector<TensorSpec> infer_layer_norm_grad(const OpDef& op, const LayerNormGradAttrs& a,
                                              std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  LayerNormLayout l = checked_layout(op, a.begin_norm_axis, a.begin_params_axis, x);
  Shape params(x.shape.begin() + l.params_axis, x.shape.end()), stat = stat_shape(l, x.shape);
  check_norm_input_like(op, 1, in[1], x.shape, "the shape of x", x.dtype);
  check_norm_input_like(op, 2, in[2], stat, "LayerNorm's rstd", x.dtype);
  check_norm_input_like(op, 3, in[3], stat, "LayerNorm's mean", x.dtype);
  check_norm_input_like(op, 4, in[4], params, "x.shape[begin_params_axis:]", x.dtype);
  return {x, TensorSpec{x.dtype, params}, TensorSpec{x.dtype, params}};
}

using V = BpropBuilder::V;

std::vector<int64_t> axis_range(int64_t begin, int64_t end) {
  std::vector<int64_t> axes;
  for (int64_t d = begin; d < end; ++d) axes.push_back(d);
  return axes;
}

// Reductions over a LayerNorm's rows (kept as size-1 axes) and over its leading, non-parameter axes.
struct RowOps {
  BpropBuilder& b;
  LayerNormLayout l;
  int64_t rank;
  V sum(V v) { return b.reduce_sum(v, axis_range(l.norm_axis, rank), true); }
  // An empty axis list would reduce every axis: with begin_params_axis 0 there is nothing to sum.
  V sum_lead(V v) { return l.params_axis == 0 ? v : b.reduce_sum(v, axis_range(0, l.params_axis), false); }
};

RowOps row_ops(BpropBuilder& b, int64_t norm_axis, int64_t params_axis) {
  const Shape xs = b.spec(b.input(0)).shape;
  return RowOps{b, layer_norm_layout(b.prim().name(), norm_axis, params_axis, xs), static_cast<int64_t>(xs.size())};
}

std::vector<V> layer_norm_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<LayerNormAttrs>();
  V x = b.input(0), mean = b.out(1), rstd = b.out(2), dmean = b.dout(1), drstd = b.dout(2);
  static const OpDef& grad_def = OpRegistry::instance().get("LayerNormGrad");
  auto attrs = std::make_shared<LayerNormGradAttrs>(LayerNormGradAttrs{a.begin_norm_axis, a.begin_params_axis});
  V grad_in[] = {x, b.dout(0), rstd, mean, b.input(1)};
  std::vector<V> g = b.emitter().emit_outputs(Primitive(grad_def, attrs), grad_in);
  // Nobody used mean or rstd (the usual case): no pass for their gradients.
  if (b.emitter().is_zero(dmean) && b.emitter().is_zero(drstd)) return {g[0], g[1], g[2]};
  // The statistics' own gradients: per-row coefficients, then one pass over x (Note [LayerNorm gradients]).
  RowOps r = row_ops(b, a.begin_norm_axis, a.begin_params_axis);
  DType t = b.spec(x).dtype;
  V inv_k = b.scalar(1.0 / static_cast<double>(r.l.row_size), t);
  V coef = b.neg(b.mul(b.mul(drstd, b.mul(rstd, b.mul(rstd, rstd))), inv_k));  // d rstd/dx = coef * (x - mean)
  V offset = b.sub(b.mul(dmean, inv_k), b.mul(coef, mean));
  return {b.add(g[0], b.add(b.mul(x, coef), offset)), g[1], g[2]};
}

// The second-order rule (the shared normalization_grad_bprop, over LayerNorm's rows).
std::vector<V> layer_norm_grad_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<LayerNormGradAttrs>();
  RowOps r = row_ops(b, a.begin_norm_axis, a.begin_params_axis);
  NormGroups groups{[&](V v) { return r.sum(v); }, static_cast<double>(r.l.row_size), [&](V v) { return r.sum_lead(v); }};
  NormGradInputGrads d = normalization_grad_bprop(b, groups, b.input(0), b.input(1), b.input(2), b.input(3),
                                                  b.input(4), b.dout(0), b.dout(1), b.dout(2));
  return {d.x, d.dy, d.rstd, d.mean, d.gamma};
}

}  // namespace

SPROUT_REGISTER(nn_norm_layer) {
  define_op<LayerNormAttrs>("LayerNorm")
      .doc("Layer normalization over the axes from begin_norm_axis; gamma and beta cover those from "
           "begin_params_axis. Outputs (output_x, mean, rstd).")
      .inputs({"input_x", "gamma", "beta"})
      .outputs({"output_x", "mean", "rstd"})
      .infer(infer_layer_norm)
      .bprop(bprop_rule(layer_norm_bprop));
  define_op<LayerNormGradAttrs>("LayerNormGrad")
      .doc("Fused gradient of LayerNorm: (dx, dgamma, dbeta) from x, dy and the saved statistics.")
      .inputs({"x", "dy", "rstd", "mean", "gamma"})
      .outputs({"pd_x", "pd_gamma", "pd_beta"})
      .infer(infer_layer_norm_grad)
      .bprop(bprop_rule(layer_norm_grad_bprop));
}

}  // namespace sprout
