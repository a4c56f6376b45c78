// Group normalization: GroupNorm(num_groups, epsilon)(x (N, C, *), gamma (C), beta (C)) -> (y, mean, rstd),
// each sample's channels split into num_groups groups normalized over their channels and positions,
// then scaled and shifted per channel; mean and rstd are (N, num_groups), as MindSpore's GroupNorm gives
// them. GroupNormGrad(x, dy, rstd, mean, gamma) -> (dx, dgamma, dbeta) is the fused backward, with the
// statistics as independent inputs as in Note [LayerNorm gradients]: GroupNorm's rule adds what flows
// through mean and rstd, and GroupNormGrad's own rule (the shared normalization_grad_bprop, over the
// groups) gives exact higher orders.
#include <memory>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"
#include "ops/nn_norm.h"
#include "ops/nn_norm_bprop.h"

namespace sprout {

GroupNormLayout group_norm_layout(std::string_view op, int64_t num_groups, std::span<const int64_t> x) {
  SPROUT_CHECK(x.size() >= 2, ValueError, op, ": 'x' must be (N, C, *), but got shape ", shape_str(x));
  SPROUT_CHECK(num_groups > 0 && x[1] % num_groups == 0, ValueError, op, ": 'num_groups' must be positive and divide "
               "the ", x[1], " channels of 'x', but got ", num_groups);
  GroupNormLayout l{x[0], x[1], num_groups, 1};
  for (size_t d = 2; d < x.size(); ++d) l.spatial *= x[d];
  return l;
}

namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

GroupNormLayout checked_layout(const OpDef& op, int64_t num_groups, const TensorSpec& x) {
  check_dtype_in(op, 0, x, kTypes);
  check_shape(op.name, op.inputs[0], x.shape);
  return group_norm_layout(op.name, num_groups, x.shape);
}

std::vector<TensorSpec> infer_group_norm(const OpDef& op, const GroupNormAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  GroupNormLayout l = checked_layout(op, a.num_groups, x);
  SPROUT_CHECK(a.epsilon > 0, ValueError, op.name, ": 'epsilon' must be positive, but got ", a.epsilon);
  for (size_t i = 1; i < 3; ++i) check_norm_input_like(op, i, in[i], Shape{l.c}, "one per channel of x", x.dtype);
  TensorSpec stat{x.dtype, Shape{l.n, l.groups}};
  return {x, stat, stat};
}

// (x, dy, rstd, mean, gamma) -> (dx, dgamma, dbeta).
std::vector<TensorSpec> infer_group_norm_grad(const OpDef& op, const GroupNormGradAttrs& a,
                                              std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  GroupNormLayout l = checked_layout(op, a.num_groups, x);
  const Shape stat{l.n, l.groups}, params{l.c};
  check_norm_input_like(op, 1, in[1], x.shape, "the shape of x", x.dtype);
  check_norm_input_like(op, 2, in[2], stat, "GroupNorm's rstd", x.dtype);
  check_norm_input_like(op, 3, in[3], stat, "GroupNorm's mean", x.dtype);
  check_norm_input_like(op, 4, in[4], params, "one per channel of x", x.dtype);
  return {x, TensorSpec{x.dtype, params}, TensorSpec{x.dtype, params}};
}

using V = BpropBuilder::V;

// The rules work on x viewed as (N, G, C / G, spatial): group statistics are (N, G, 1, 1) and per-channel
// values (1, G, C / G, 1), both broadcasting against it.
struct GroupView {
  BpropBuilder& b;
  GroupNormLayout l;
  Shape x_shape;
  V grouped(V v) { return reshape(v, {l.n, l.groups, l.channels_per_group(), l.spatial}); }
  V stat(V v) { return reshape(v, {l.n, l.groups, 1, 1}); }
  V channel(V v) { return reshape(v, {1, l.groups, l.channels_per_group(), 1}); }
  V sum(V v) { return b.reduce_sum(v, {2, 3}, true); }
  V channel_sum(V v) { return b.reduce_sum(v, {0, 3}, true); }
  V reshape(V v, std::vector<int64_t> shape) { return b.reshape(v, shape); }
};

GroupView group_view(BpropBuilder& b, int64_t num_groups) {
  Shape xs = b.spec(b.input(0)).shape;
  return GroupView{b, group_norm_layout(b.prim().name(), num_groups, xs), xs};
}

std::vector<V> group_norm_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<GroupNormAttrs>();
  V x = b.input(0), mean = b.out(1), rstd = b.out(2), dmean = b.dout(1), drstd = b.dout(2);
  static const OpDef& grad_def = OpRegistry::instance().get("GroupNormGrad");
  auto attrs = std::make_shared<GroupNormGradAttrs>(GroupNormGradAttrs{a.num_groups});
  V grad_in[] = {x, b.dout(0), rstd, mean, b.input(1)};
  std::vector<V> g = b.emitter().emit_outputs(Primitive(grad_def, attrs), grad_in);
  // Nobody used mean or rstd (the usual case): no pass for their gradients.
  if (b.emitter().is_zero(dmean) && b.emitter().is_zero(drstd)) return {g[0], g[1], g[2]};
  // d mean/dx = 1/K, d rstd/dx = -rstd^3 (x - mean) / K over each group's K elements.
  GroupView v = group_view(b, a.num_groups);
  DType t = b.spec(x).dtype;
  V inv_k = b.scalar(1.0 / static_cast<double>(v.l.group_size()), t);
  V r = v.stat(rstd);
  V coef = b.neg(b.mul(b.mul(v.stat(drstd), b.mul(r, b.mul(r, r))), inv_k));
  V offset = b.sub(b.mul(v.stat(dmean), inv_k), b.mul(coef, v.stat(mean)));
  V extra = v.reshape(b.add(b.mul(v.grouped(x), coef), offset), std::vector<int64_t>(v.x_shape.begin(), v.x_shape.end()));
  return {b.add(g[0], extra), g[1], g[2]};
}

std::vector<V> group_norm_grad_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<GroupNormGradAttrs>();
  GroupView v = group_view(b, a.num_groups);
  NormGroups groups{[&](V t) { return v.sum(t); }, static_cast<double>(v.l.group_size()),
                    [&](V t) { return v.channel_sum(t); }};
  NormGradInputGrads d = normalization_grad_bprop(
      b, groups, v.grouped(b.input(0)), v.grouped(b.input(1)), v.stat(b.input(2)), v.stat(b.input(3)),
      v.channel(b.input(4)), v.grouped(b.dout(0)), v.channel(b.dout(1)), v.channel(b.dout(2)));
  const std::vector<int64_t> xs(v.x_shape.begin(), v.x_shape.end()), stat{v.l.n, v.l.groups}, params{v.l.c};
  return {v.reshape(d.x, xs), v.reshape(d.dy, xs), v.reshape(d.rstd, stat), v.reshape(d.mean, stat),
          v.reshape(d.gamma, params)};
}

}  // namespace

SPROUT_REGISTER(nn_norm_group) {
  define_op<GroupNormAttrs>("GroupNorm")
      .doc("Group normalization of an (N, C, *) x: each sample's channels in num_groups groups, each normalized "
           "over its channels and positions, then scaled by gamma and shifted by beta per channel. Outputs "
           "(y, mean, rstd), the statistics (N, num_groups).")
      .inputs({"x", "gamma", "beta"})
      .outputs({"y", "mean", "rstd"})
      .infer(infer_group_norm)
      .bprop(bprop_rule(group_norm_bprop));
  define_op<GroupNormGradAttrs>("GroupNormGrad")
      .doc("Fused gradient of GroupNorm: (dx, dgamma, dbeta) from x, dy and the saved statistics.")
      .inputs({"x", "dy", "rstd", "mean", "gamma"})
      .outputs({"dx", "dgamma", "dbeta"})
      .infer(infer_group_norm_grad)
      .bprop(bprop_rule(group_norm_grad_bprop));
}

}  // namespace sprout
