// MaxPoolWithArgmaxV2 and its gradient, MindSpore's ops (Note [Max pooling with argmax]):
// MaxPoolWithArgmaxV2(x) -> (output, argmax); MaxPoolGradWithArgmaxV2(x, grads, argmax) -> dx adds each
// window's gradient at its argmax. The gradient is linear in `grads`; its transpose gathers at the argmax.
#include "ops/array_bprop.h"
#include "ops/infer_util.h"
#include "ops/nn_pool.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

std::vector<TensorSpec> infer_max_pool_argmax(const OpDef& op, const MaxPoolArgmaxAttrs& a,
                                              std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kPool2DTypes);
  const Shape pooled = max_pool_argmax_geometry(op.name, a, in[0].shape).pooled_shape();
  return {TensorSpec{in[0].dtype, pooled}, TensorSpec{a.argmax_type, pooled}};
}

std::vector<TensorSpec> infer_max_pool_grad_argmax(const OpDef& op, const MaxPoolArgmaxAttrs& a,
                                                   std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kPool2DTypes);
  const Shape pooled = max_pool_argmax_geometry(op.name, a, in[0].shape).pooled_shape();
  SPROUT_CHECK(in[1].dtype == in[0].dtype, TypeError, op.name, ": 'grads' must have the dtype of 'x' (",
               name(in[0].dtype), "), but got ", name(in[1].dtype));
  check_dtype_in(op, 2, in[2], {DType::Int32, DType::Int64});
  for (size_t i = 1; i < 3; ++i)
    SPROUT_CHECK(in[i].shape == pooled, ValueError, op.name, ": '", op.inputs[i], "' must have the pooled shape ",
                 shape_str(pooled), ", but got ", shape_str(in[i].shape));
  return {TensorSpec{in[0].dtype, in[0].shape}};
}

// r[n, c, oy, ox] = t[n, c, argmax[n, c, oy, ox]]: `t` (N, C, H, W) read at each window's argmax.
V gather_at_argmax(BpropBuilder& b, V t, V argmax) {
  const Shape ts = b.spec(t).shape, pooled = b.spec(argmax).shape;
  const std::vector<int64_t> planes{ts[0], ts[1], ts[2] * ts[3]}, windows{pooled[0], pooled[1], pooled[2] * pooled[3]};
  V r = emit_op(b, "GatherElements", {b.reshape(t, planes), b.reshape(argmax, windows)}, {{"dim", int64_t{2}}});
  return b.reshape(r, pooled);
}

}  // namespace

SPROUT_REGISTER(nn_pool_argmax) {
  define_op<MaxPoolArgmaxAttrs>("MaxPoolWithArgmaxV2")
      .doc("2-d max pooling of an NCHW input with padding, dilation and ceil_mode; also each window's first "
           "maximum as a flat offset in its H x W plane.")
      .inputs({"x"})
      .outputs({"output", "argmax"})
      .infer(infer_max_pool_argmax)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const std::vector<V> args{b.input(0), b.dout(0), b.out(1)};
        return {b.emitter().emit(b.prim_like("MaxPoolGradWithArgmaxV2"), args)};
      }));
  define_op<MaxPoolArgmaxAttrs>("MaxPoolGradWithArgmaxV2")
      .doc("Gradient of MaxPoolWithArgmaxV2: each window's gradient added at its argmax.")
      .inputs({"x", "grads", "argmax"})
      .outputs({"output"})
      .infer(infer_max_pool_grad_argmax)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {zeros_like(b, b.input(0)), gather_at_argmax(b, b.dout(), b.input(2)), V{}};
      }));
}

}  // namespace sprout
