// Reductions over axes. `axis` is given at call time (MindSpore: `ops.ReduceSum(keep_dims)(x, axis)`);
// an empty axis reduces every axis.
#include "ops/reduce.h"

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

void reduce(const char* name, const char* doc, decltype(&infer_sum) infer) {
  define_op<ReduceAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).infer(infer);
}

}  // namespace

SPROUT_REGISTER(reduce) {
  reduce("ReduceSum", "Sum over the given axes (all axes when empty). Bool sums to Int64.", infer_sum);
  reduce("ReduceMean", "Mean over the given axes (all axes when empty). Floating-point inputs only.", infer_mean);
  reduce("ReduceMax", "Maximum over the given axes (all axes when empty); NaN propagates.", infer_extremum);
  reduce("ReduceMin", "Minimum over the given axes (all axes when empty); NaN propagates.", infer_extremum);
}

}  // namespace sprout
