// Reductions over axes. `axis` is given at call time (MindSpore: `ops.ReduceSum(keep_dims)(x, axis)`);
// an empty axis reduces every axis.
#include "ops/reduce.h"

#include <algorithm>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

Shape infer_reduced_shape(const OpDef& op, const ReduceAttrs& a, const TensorSpec& x, bool need_nonempty) {
  std::vector<bool> mask = reduced_axes_mask(op, a.axis, static_cast<int64_t>(x.shape.size()));
  for (size_t d = 0; need_nonempty && d < mask.size(); ++d)
    SPROUT_CHECK(!mask[d] || x.shape[d] > 0, ValueError, op.name, ": cannot reduce over axis ", d,
                 " of size 0 in a tensor of shape ", shape_str(x.shape), " (it has no elements to compare)");
  return reduced_shape(x.shape, mask, a.keep_dims);
}

std::vector<TensorSpec> infer_sum(const OpDef& op, const ReduceAttrs& a, std::span<const TensorSpec> in) {
  DType out = in[0].dtype == DType::Bool ? DType::Int64 : in[0].dtype;  // summing booleans counts them
  return {TensorSpec{out, infer_reduced_shape(op, a, in[0], false)}};
}

std::vector<TensorSpec> infer_mean(const OpDef& op, const ReduceAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(is_floating(in[0].dtype), TypeError, op.name, ": 'x' must be a floating-point tensor, but got ",
               name(in[0].dtype), "; cast it first (x.astype(ms.float32))");
  return {TensorSpec{in[0].dtype, infer_reduced_shape(op, a, in[0], false)}};
}

std::vector<TensorSpec> infer_extremum(const OpDef& op, const ReduceAttrs& a, std::span<const TensorSpec> in) {
  return {TensorSpec{in[0].dtype, infer_reduced_shape(op, a, in[0], true)}};
}

using V = BpropBuilder::V;

// The reduced shape with the reduced axes kept as 1: where dout is reshaped to before broadcasting.
Shape kept_shape(BpropBuilder& b) {
  const TensorSpec x = b.spec(b.input(0));
  std::vector<bool> mask = reduced_axes_mask(b.prim().def(), b.prim().attrs_as<ReduceAttrs>().axis,
                                             static_cast<int64_t>(x.shape.size()));
  return reduced_shape(x.shape, mask, true);
}

// dout (and, for mean, its share per element) spread back over the reduced axes.
V spread(BpropBuilder& b, V v) {
  return b.broadcast_to(b.reshape(v, kept_shape(b)), b.spec(b.input(0)).shape);
}

std::vector<V> sum_bprop(BpropBuilder& b) { return {spread(b, b.dout())}; }

std::vector<V> mean_bprop(BpropBuilder& b) {
  const TensorSpec x = b.spec(b.input(0));
  double count = static_cast<double>(numel(x.shape)) / static_cast<double>(std::max<int64_t>(numel(kept_shape(b)), 1));
  return {b.div(spread(b, b.dout()), b.scalar(count, x.dtype))};
}

// Max/Min: the gradient is shared equally between the elements that attain the extremum.
std::vector<V> extremum_bprop(BpropBuilder& b) {
  V x = b.input(0);
  V hits = b.mask(b.equal(x, spread(b, b.out())), x);
  const auto& axes = b.prim().attrs_as<ReduceAttrs>().axis;
  V count = b.reduce_sum(hits, axes, true);
  return {b.mul(hits, spread(b, b.div(b.reshape(b.dout(), kept_shape(b)), count)))};
}

void reduce(const char* name, const char* doc, decltype(&infer_sum) infer, std::vector<V> (*rule)(BpropBuilder&)) {
  define_op<ReduceAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).infer(infer).bprop(bprop_rule(rule));
}

}  // namespace

SPROUT_REGISTER(reduce) {
  reduce("ReduceSum", "Sum over the given axes (all axes when empty). Bool sums to Int64.", infer_sum, sum_bprop);
  reduce("ReduceMean", "Mean over the given axes (all axes when empty). Floating-point inputs only.", infer_mean, mean_bprop);
  reduce("ReduceMax", "Maximum over the given axes (all axes when empty); NaN propagates.", infer_extremum, extremum_bprop);
  reduce("ReduceMin", "Minimum over the given axes (all axes when empty); NaN propagates.", infer_extremum,
         extremum_bprop);
}

}  // namespace sprout
