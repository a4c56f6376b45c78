// Math ops of three or more inputs: AddN (a variadic sum), ClipByValue, Lerp, Addcmul. All but AddN
// broadcast their inputs together (NumPy rules) and promote them to a common dtype.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_add_n(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  SPROUT_CHECK(!in.empty(), ValueError, op.name, ": 'x' must hold at least one tensor, but got none");
  check_not_bool(op, 0, in[0]);
  for (size_t i = 1; i < in.size(); ++i) {
    SPROUT_CHECK(in[i].dtype == in[0].dtype, TypeError, op.name, ": every tensor in 'x' must have the dtype of the "
                 "first, ", name(in[0].dtype), ", but tensor ", i, " is ", name(in[i].dtype));
    SPROUT_CHECK(in[i].shape == in[0].shape, ValueError, op.name, ": every tensor in 'x' must have the shape of the "
                 "first, ", shape_str(in[0].shape), ", but tensor ", i, " has shape ", shape_str(in[i].shape));
  }
  return {in[0]};
}

Shape broadcast_all(const OpDef& op, std::span<const TensorSpec> in) {
  Shape out = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i) out = broadcast_shapes(op.name, out, in[i].shape);
  return out;
}

std::vector<TensorSpec> infer_numeric_nary(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, broadcast_all(op, in)}};
}

std::vector<TensorSpec> infer_floating_nary(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, broadcast_all(op, in)}};
}

// Each gradient at the output's shape, summed back to its input's shape.
std::vector<V> to_input_shapes(BpropBuilder& b, std::vector<V> grads) {
  for (size_t i = 0; i < grads.size(); ++i) grads[i] = b.sum_to_shape(grads[i], b.spec(b.input(i)).shape);
  return grads;
}

// clip(x, lo, hi) = min(max(x, lo), hi): ties pass the gradient to x, as Maximum and Minimum do.
std::vector<V> clip_bprop(BpropBuilder& b) {
  V x = b.input(0), lo = b.input(1), hi = b.input(2), d = b.dout();
  V m = call(b, "Maximum", {x, lo});
  V d_m = b.mul(d, b.mask(call(b, "LessEqual", {m, hi}), d));
  V d_x = b.mul(d_m, b.mask(b.greater_equal(x, lo), d));
  return to_input_shapes(b, {d_x, b.sub(d_m, d_x), b.sub(d, d_m)});
}

std::vector<V> lerp_bprop(BpropBuilder& b) {
  V start = b.input(0), end = b.input(1), w = b.input(2), d = b.dout();
  V d_end = b.mul(d, w);
  return to_input_shapes(b, {b.sub(d, d_end), d_end, b.mul(d, b.sub(end, start))});
}

std::vector<V> addcmul_bprop(BpropBuilder& b) {
  V x1 = b.input(1), x2 = b.input(2), value = b.input(3), d = b.dout();
  V dv = b.mul(d, value);
  return to_input_shapes(b, {d, b.mul(dv, x2), b.mul(dv, x1), b.mul(d, b.mul(x1, x2))});
}

}  // namespace

SPROUT_REGISTER(math_nary) {
  define_op<NoAttrs>("AddN")
      .doc("The elementwise sum of a tuple of tensors of one shape and dtype.")
      .inputs({"x"})
      .outputs({"output"})
      .variadic()
      .infer(infer_add_n)
      .bprop([](Emitter& e, const BpropArgs& args) { return std::vector<V>(args.inputs.size(), args.douts[0]); });
  define_op<NoAttrs>("ClipByValue")
      .doc("x limited to [clip_value_min, clip_value_max] elementwise: min(max(x, min), max); broadcasts.")
      .inputs({"x", "clip_value_min", "clip_value_max"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_numeric_nary)
      .bprop(bprop_rule(clip_bprop));
  define_op<NoAttrs>("Lerp")
      .doc("start + weight * (end - start), elementwise with broadcasting; floating-point inputs.")
      .inputs({"start", "end", "weight"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_floating_nary)
      .bprop(bprop_rule(lerp_bprop));
  define_op<NoAttrs>("Addcmul")
      .doc("input_data + value * x1 * x2, elementwise with broadcasting.")
      .inputs({"input_data", "x1", "x2", "value"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_numeric_nary)
      .bprop(bprop_rule(addcmul_bprop));
}

}  // namespace sprout
