// Layer normalization: LayerNorm(begin_norm_axis, begin_params_axis, epsilon)(x, gamma, beta) ->
// (output_x, mean, rstd), the statistics kept with size-1 normalized axes as MindSpore gives them.
// The bprop rule is composed from registry ops, like BatchNorm's (Note [BatchNorm outputs]).
#include "ops/bprop_builder.h"
#include "ops/infer_util.h"
#include "ops/nn_norm.h"

namespace sprout {

LayerNormLayout layer_norm_layout(std::string_view op, const LayerNormAttrs& a, std::span<const int64_t> x) {
  const int64_t rank = static_cast<int64_t>(x.size());
  SPROUT_CHECK(rank >= 1, ValueError, op, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  auto axis = [&](const char* name, int64_t v) {
    SPROUT_CHECK(v >= -1 && v < rank, ValueError, op, ": '", name, "' must be in [-1, ", rank, ") for 'input_x' of shape ",
                 shape_str(x), ", but got ", v);
    return v < 0 ? v + rank : v;
  };
  LayerNormLayout l{axis("begin_norm_axis", a.begin_norm_axis), axis("begin_params_axis", a.begin_params_axis), 1, 1, 1};
  for (int64_t d = 0; d < rank; ++d) {
    (d < l.norm_axis ? l.rows : l.row_size) *= x[d];
    if (d >= l.params_axis) l.params *= x[d];
  }
  return l;
}

namespace {

std::vector<TensorSpec> infer_layer_norm(const OpDef& op, const LayerNormAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  check_dtype_in(op, 0, x, {DType::Float16, DType::Float32, DType::Float64});
  SPROUT_CHECK(a.epsilon > 0, ValueError, op.name, ": 'epsilon' must be positive, but got ", a.epsilon);
  LayerNormLayout l = layer_norm_layout(op.name, a, x.shape);
  SPROUT_CHECK(l.row_size > 0, ValueError, op.name, ": the normalized axes of 'input_x' of shape ", shape_str(x.shape),
               " (from axis ", l.norm_axis, ") are empty; there is nothing to normalize");
  Shape params(x.shape.begin() + l.params_axis, x.shape.end());
  for (size_t i = 1; i < 3; ++i) {
    SPROUT_CHECK(in[i].shape == params, ValueError, op.name, ": '", op.inputs[i], "' must have shape ",
                 shape_str(params), " (input_x.shape[begin_params_axis:]), but got ", shape_str(in[i].shape));
    SPROUT_CHECK(in[i].dtype == x.dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of 'input_x' (",
                 name(x.dtype), "), but got ", name(in[i].dtype));
  }
  Shape stat(x.shape);
  for (size_t d = static_cast<size_t>(l.norm_axis); d < stat.size(); ++d) stat[d] = 1;
  return {x, TensorSpec{x.dtype, stat}, TensorSpec{x.dtype, stat}};
}

using V = BpropBuilder::V;

std::vector<int64_t> axis_range(int64_t begin, int64_t end) {
  std::vector<int64_t> axes;
  for (int64_t d = begin; d < end; ++d) axes.push_back(d);
  return axes;
}

// With xhat = (x - mean) * rstd normalized per row and g = dy * gamma:
//   dx = rstd * (g - mean_row(g) - xhat * mean_row(g * xhat)),
//   dgamma = sum over the leading (non-parameter) axes of dy * xhat, dbeta likewise of dy.
std::vector<V> layer_norm_bprop(BpropBuilder& b) {
  V x = b.input(0), gamma = b.input(1), dy = b.dout(0), mean = b.out(1), rstd = b.out(2);
  const Shape xs = b.spec(x).shape;
  LayerNormLayout l = layer_norm_layout("LayerNorm", b.prim().attrs_as<LayerNormAttrs>(), xs);
  const int64_t rank = static_cast<int64_t>(xs.size());
  auto row_mean = [&](V v) {
    return b.emitter().emit("ReduceMean", {v}, {{"axis", axis_range(l.norm_axis, rank)}, {"keep_dims", true}});
  };
  V xhat = b.mul(b.sub(x, mean), rstd);
  V g = b.mul(dy, gamma);
  V dx = b.mul(rstd, b.sub(b.sub(g, row_mean(g)), b.mul(xhat, row_mean(b.mul(g, xhat)))));
  // An empty axis list would reduce every axis: with begin_params_axis 0 there is nothing to sum.
  auto over_leading = [&](V v) { return l.params_axis == 0 ? v : b.reduce_sum(v, axis_range(0, l.params_axis), false); };
  return {dx, over_leading(b.mul(dy, xhat)), over_leading(dy)};
}

}  // namespace

SPROUT_REGISTER(nn_norm_layer) {
  define_op<LayerNormAttrs>("LayerNorm")
      .doc("Layer normalization over the axes from begin_norm_axis; gamma and beta cover those from "
           "begin_params_axis. Outputs (output_x, mean, rstd).")
      .inputs({"input_x", "gamma", "beta"})
      .outputs({"output_x", "mean", "rstd"})
      .non_differentiable({false, true, true})
      .infer(infer_layer_norm)
      .bprop(bprop_rule(layer_norm_bprop));
}

}  // namespace sprout
