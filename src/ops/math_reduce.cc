// ReduceProd, ReduceAll, ReduceAny: reductions over the axes given at call time (an empty axis
// reduces every axis), with ReduceSum's attributes (ops/reduce.h). An empty reduction gives the
// identity: 1 for the product, True for all, False for any.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "ops/reduce.h"

namespace sprout {
namespace {

using namespace math_bprop;

Shape infer_reduced(const OpDef& op, const ReduceAttrs& a, const TensorSpec& x) {
  return reduced_shape(x.shape, reduced_axes_mask(op, a.axis, static_cast<int64_t>(x.shape.size())), a.keep_dims);
}

std::vector<TensorSpec> infer_prod(const OpDef& op, const ReduceAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, infer_reduced(op, a, in[0])}};
}

std::vector<TensorSpec> infer_logical(const OpDef& op, const ReduceAttrs& a, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], {DType::Bool});
  return {TensorSpec{DType::Bool, infer_reduced(op, a, in[0])}};
}

// The gradient of a product with respect to one factor is the product of the others. Dividing the
// product by the factor fails where it is zero, so zeros are counted instead:
//   no zero among the factors: prod / x;
//   exactly one zero: at the zero, the product of the nonzero factors; elsewhere 0;
//   two or more zeros: 0 everywhere.
std::vector<V> prod_bprop(BpropBuilder& b) {
  const auto& attrs = b.prim().attrs_as<ReduceAttrs>();
  const TensorSpec xs = b.spec(b.input(0));
  if (!is_floating(xs.dtype)) return {V{}};  // no gradient flows into integers
  V x = b.input(0);
  V is_zero = b.mask(b.equal(x, scalar_like(b, 0, x)), x);
  V nonzero = b.add(x, is_zero);  // zeros replaced by ones
  V keep = call(b, "ReduceProd", {nonzero}, {{"axis", attrs.axis}, {"keep_dims", true}});
  V zeros = b.reduce_sum(is_zero, attrs.axis, true);
  V none_zero = b.mask(b.equal(zeros, scalar_like(b, 0, x)), x);
  V one_zero = b.mask(b.equal(zeros, scalar_like(b, 1, x)), x);
  V others = b.add(b.mul(none_zero, b.div(keep, nonzero)), b.mul(b.mul(one_zero, is_zero), keep));
  std::vector<bool> mask = reduced_axes_mask(b.prim().def(), attrs.axis, static_cast<int64_t>(xs.shape.size()));
  V d = b.reshape(b.dout(), reduced_shape(xs.shape, mask, true));
  return {b.mul(others, d)};
}

BpropFn no_gradient() {
  return [](Emitter&, const BpropArgs&) { return std::vector<V>(1); };
}

}  // namespace

SPROUT_REGISTER(math_reduce) {
  define_op<ReduceAttrs>("ReduceProd")
      .doc("Product over the given axes (all axes when empty); 1 for an empty reduction.")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_prod)
      .bprop(bprop_rule(prod_bprop));
  define_op<ReduceAttrs>("ReduceAll")
      .doc("Logical and over the given axes (all axes when empty) of a Bool tensor; True when empty.")
      .inputs({"x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_logical)
      .bprop(no_gradient());
  define_op<ReduceAttrs>("ReduceAny")
      .doc("Logical or over the given axes (all axes when empty) of a Bool tensor; False when empty.")
      .inputs({"x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_logical)
      .bprop(no_gradient());
}

}  // namespace sprout
