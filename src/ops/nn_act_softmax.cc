// Softmax and LogSoftmax over one axis. Both kernels subtract the maximum before exponentiating
// (LogSoftmax as x - max - log(sum(exp(x - max)))), so no input overflows them. Their gradients are ops
// of their own, SoftmaxGrad and LogSoftmaxGrad (one fused pass where the rule took four elementwise
// ops and a reduction), with rules of their own for higher orders.
#include "ops/infer_util.h"
#include "ops/nn_act.h"
#include "ops/nn_act_bprop.h"

namespace sprout {
namespace {

using nn::V;

std::vector<TensorSpec> infer_softmax(const OpDef& op, const SoftmaxAttrs& a, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  SPROUT_CHECK(a.axis.size() == 1, ValueError, op.name, ": 'axis' must name exactly one axis, but got ",
               shape_str(a.axis));
  normalize_axis(op.name, "axis", a.axis[0], static_cast<int64_t>(in[0].shape.size()));
  return {in[0]};
}

std::vector<TensorSpec> infer_log_softmax(const OpDef& op, const LogSoftmaxAttrs& a, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(in[0].shape.size()));
  return {in[0]};
}

// (y, dy) of the same shape and floating dtype; the axis checked as the forward's.
std::vector<TensorSpec> infer_softmax_grad(const OpDef& op, int64_t axis, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  SPROUT_CHECK(in[1].dtype == in[0].dtype && in[1].shape == in[0].shape, ValueError, op.name, ": 'dy' must have the ",
               "shape and dtype of 'y' ", shape_str(in[0].shape), " ", name(in[0].dtype), ", but got ",
               shape_str(in[1].shape), " ", name(in[1].dtype));
  normalize_axis(op.name, "axis", axis, static_cast<int64_t>(in[0].shape.size()));
  return {in[0]};
}

// The axis as a non-negative index (0 for a 0-d input, whose softmax is 1).
int64_t axis_of(BpropBuilder& b, int64_t axis) {
  int64_t ndim = static_cast<int64_t>(b.spec(b.input(0)).shape.size());
  return ndim == 0 ? 0 : (axis < 0 ? axis + ndim : axis);
}

}  // namespace

SPROUT_REGISTER(nn_act_softmax) {
  define_op<SoftmaxAttrs>("Softmax")
      .doc("exp(x) / sum(exp(x)) over one axis, computed as exp(x - max) / sum(exp(x - max)).")
      .inputs({"logits"})
      .outputs({"output"})
      .infer(infer_softmax)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        // dx = (dout - sum(dout * out)) * out
        V out = b.out(), d = b.dout();
        if (b.spec(out).shape.empty()) return {b.mul(d, nn::scalar_like(b, 0, d))};
        return {b.emitter().emit("SoftmaxGrad", {out, d}, {{"axis", b.prim().attrs_as<SoftmaxAttrs>().axis}})};
      }));
  define_op<SoftmaxAttrs>("SoftmaxGrad")
      .doc("Softmax's gradient from its output y: (dy - sum(dy * y)) * y over the axis.")
      .inputs({"y", "dy"})
      .outputs({"dx"})
      .infer([](const OpDef& op, const SoftmaxAttrs& a, std::span<const TensorSpec> in) {
        SPROUT_CHECK(a.axis.size() == 1, ValueError, op.name, ": 'axis' must name exactly one axis, but got ",
                     shape_str(a.axis));
        return infer_softmax_grad(op, a.axis[0], in);
      })
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        // dx = (dy - s) y with s = sum(dy y): ddy = SoftmaxGrad(y, g) (the Jacobian is symmetric),
        // dy_k's partner dy_k: gy = g (dy - s) - dy sum(g y).
        V y = b.input(0), dy = b.input(1), g = b.dout();
        int64_t axis = axis_of(b, b.prim().attrs_as<SoftmaxAttrs>().axis[0]);
        V gy = b.sub(b.mul(g, b.sub(dy, nn::sum_keep(b, b.mul(dy, y), axis))), b.mul(dy, nn::sum_keep(b, b.mul(g, y), axis)));
        return {gy, b.emitter().emit(b.prim(), std::vector<V>{y, g})};
      }));
  define_op<LogSoftmaxAttrs>("LogSoftmax")
      .doc("x - log(sum(exp(x))) over one axis, by the log-sum-exp of x - max.")
      .inputs({"logits"})
      .outputs({"output"})
      .infer(infer_log_softmax)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        // dx = dout - softmax * sum(dout)
        V out = b.out(), d = b.dout();
        if (b.spec(out).shape.empty()) return {b.mul(d, nn::scalar_like(b, 0, d))};
        return {b.emitter().emit("LogSoftmaxGrad", {out, d}, {{"axis", b.prim().attrs_as<LogSoftmaxAttrs>().axis}})};
      }));
  define_op<LogSoftmaxAttrs>("LogSoftmaxGrad")
      .doc("LogSoftmax's gradient from its output y: dy - exp(y) * sum(dy) over the axis.")
      .inputs({"y", "dy"})
      .outputs({"dx"})
      .infer([](const OpDef& op, const LogSoftmaxAttrs& a, std::span<const TensorSpec> in) {
        return infer_softmax_grad(op, a.axis, in);
      })
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        // dx = dy - e s with e = exp(y), s = sum(dy): gy = -g e s, gdy = g - sum(g e).
        V y = b.input(0), dy = b.input(1), g = b.dout();
        int64_t axis = axis_of(b, b.prim().attrs_as<LogSoftmaxAttrs>().axis);
        V e = nn::exp(b, y);
        return {b.neg(b.mul(b.mul(g, e), nn::sum_keep(b, dy, axis))), b.sub(g, nn::sum_keep(b, b.mul(g, e), axis))};
      }));
}

}  // namespace sprout
