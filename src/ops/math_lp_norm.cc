// LpNorm: (sum |x|^p)^(1/p) over axes, at least epsilon (MindSpore's ops.LpNorm). One pass over x for
// p = 1 and 2, where Abs/Square, ReduceSum and Sqrt took three and a temporary the size of x; ops.norm
// and clip_by_norm take their vector norms from it.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "ops/reduce.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_lp_norm(const OpDef& op, const LpNormAttrs& a, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  SPROUT_CHECK(a.p >= 1, ValueError, op.name, ": 'p' must be an int >= 1, but got ", a.p);
  SPROUT_CHECK(a.epsilon >= 0, ValueError, op.name, ": 'epsilon' must be >= 0, but got ", a.epsilon);
  std::vector<bool> mask = reduced_axes_mask(op, a.axis, static_cast<int64_t>(in[0].shape.size()));
  return {TensorSpec{in[0].dtype, reduced_shape(in[0].shape, mask, a.keep_dims)}};
}

// d|x|_p / dx = sign(x) |x|^(p-1) / norm^(p-1) (x / norm for p = 2). Where the norm was raised to
// epsilon (a zero vector with epsilon 0 included) the output does not depend on x: the gradient is 0
// there, and the denominator becomes 1 so that 0 / 0 never forms.
std::vector<V> lp_norm_bprop(BpropBuilder& b) {
  const auto& attrs = b.prim().attrs_as<LpNormAttrs>();
  V x = b.input(0);
  const Shape& x_shape = b.spec(x).shape;
  std::vector<bool> mask = reduced_axes_mask(b.prim().def(), attrs.axis, static_cast<int64_t>(x_shape.size()));
  const Shape kept = reduced_shape(x_shape, mask, true);
  V norm = b.reshape(b.out(), kept);
  V live = b.mask(call(b, "Greater", {norm, scalar_like(b, attrs.epsilon, norm)}), norm);
  V scale = b.mul(b.reshape(b.dout(), kept), live);
  if (attrs.p == 1) return {b.mul(call(b, "Sign", {x}), scale)};
  V denominator = b.add(norm, one_minus(b, live));
  if (attrs.p == 2) return {b.mul(b.div(x, denominator), scale)};
  V power = scalar_like(b, static_cast<double>(attrs.p - 1), x);
  V ratio = b.div(b.pow(call(b, "Abs", {x}), power), b.pow(denominator, power));
  return {b.mul(b.mul(call(b, "Sign", {x}), ratio), scale)};
}

}  // namespace

SPROUT_REGISTER(math_lp_norm) {
  define_op<LpNormAttrs>("LpNorm")
      .doc("The p-norm (sum |x|^p)^(1/p) over the given axes (all axes when empty), at least epsilon.")
      .inputs({"input"})
      .outputs({"output"})
      .infer(infer_lp_norm)
      .bprop(bprop_rule(lp_norm_bprop));
}

}  // namespace sprout
