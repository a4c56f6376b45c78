// Softmax and LogSoftmax over one axis. Both kernels subtract the maximum before exponentiating
// (LogSoftmax as x - max - log(sum(exp(x - max)))), so no input overflows them.
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
        int64_t axis = axis_of(b, b.prim().attrs_as<SoftmaxAttrs>().axis[0]);
        return {b.mul(b.sub(d, nn::sum_keep(b, b.mul(d, out), axis)), out)};
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
        int64_t axis = axis_of(b, b.prim().attrs_as<LogSoftmaxAttrs>().axis);
        return {b.sub(d, b.mul(nn::exp(b, out), nn::sum_keep(b, d, axis)))};
      }));
}

}  // namespace sprout
