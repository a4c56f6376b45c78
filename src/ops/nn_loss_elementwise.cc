// Elementwise losses, reduced by their `reduction` attribute: BCEWithLogitsLoss, BinaryCrossEntropy,
// SmoothL1Loss, KLDivLoss, and L2Loss (sum(x^2) / 2). Weights broadcast to the logits' shape.
#include "ops/infer_util.h"
#include "ops/nn_loss.h"
#include "ops/nn_loss_bprop.h"

namespace sprout {
namespace {

using nn::V;

// Every input: floating, of the first input's dtype; inputs from `first_broadcast` on broadcast to
// the first's shape, the ones before it must match it exactly.
void check_loss_inputs(const OpDef& op, std::span<const TensorSpec> in, size_t first_broadcast) {
  check_floating(op, 0, in[0]);
  for (size_t i = 1; i < in.size(); ++i) {
    SPROUT_CHECK(in[i].dtype == in[0].dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '",
                 op.inputs[0], "' (", name(in[0].dtype), "), but got ", name(in[i].dtype));
    if (i < first_broadcast) {
      SPROUT_CHECK(in[i].shape == in[0].shape, ValueError, op.name, ": '", op.inputs[i], "' must have the shape of '",
                   op.inputs[0], "' ", shape_str(in[0].shape), ", but got ", shape_str(in[i].shape));
    } else {
      Shape b = broadcast_shapes(op.name, in[0].shape, in[i].shape);
      SPROUT_CHECK(b == in[0].shape, ValueError, op.name, ": '", op.inputs[i], "' of shape ", shape_str(in[i].shape),
                   " must broadcast to the shape of '", op.inputs[0], "' ", shape_str(in[0].shape));
    }
  }
}

TensorSpec reduced(const TensorSpec& x, Reduction r) { return r == Reduction::None ? x : TensorSpec{x.dtype, Shape{}}; }

std::vector<TensorSpec> infer_bce_logits(const OpDef& op, const ReductionAttrs& a, std::span<const TensorSpec> in) {
  Reduction r = parse_reduction(op.name, a.reduction);
  check_loss_inputs(op, in, 2);
  return {reduced(in[0], r)};
}

std::vector<TensorSpec> infer_smooth_l1(const OpDef& op, const SmoothL1LossAttrs& a, std::span<const TensorSpec> in) {
  Reduction r = parse_reduction(op.name, a.reduction);
  SPROUT_CHECK(a.beta > 0, ValueError, op.name, ": 'beta' must be > 0, but got ", a.beta);
  check_loss_inputs(op, in, 2);
  return {reduced(in[0], r)};
}

std::vector<TensorSpec> infer_kl_div(const OpDef& op, const KLDivLossAttrs& a, std::span<const TensorSpec> in) {
  Reduction r = parse_reduction(op.name, a.reduction, true);
  check_loss_inputs(op, in, 2);
  return {reduced(in[0], r)};
}

std::vector<TensorSpec> infer_l2_loss(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, Shape{}}};
}

// Gradients of an elementwise loss: `rule` gets the per-element sensitivity and returns one gradient
// per input at the logits' shape; broadcast inputs are then summed back to their shapes.
template <class A, class Rule>
BpropFn loss_bprop(Rule rule, bool allow_batchmean = false) {
  return bprop_rule([rule, allow_batchmean](BpropBuilder& b) -> std::vector<V> {
    Reduction r = parse_reduction(b.prim().name(), b.prim().attrs_as<A>().reduction, allow_batchmean);
    const Shape shape = b.spec(b.input(0)).shape;
    std::vector<V> grads = rule(b, nn::spread_loss_dout(b, b.dout(), r, shape));
    for (size_t i = 0; i < grads.size(); ++i)
      if (grads[i].valid()) grads[i] = b.sum_to_shape(grads[i], b.spec(b.input(i)).shape);
    return grads;
  });
}

// loss = w (pw y softplus(-x) + (1 - y) softplus(x)) = -w (pw y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))
std::vector<V> bce_logits_grads(BpropBuilder& b, V d) {
  V x = b.input(0), y = b.input(1), w = b.input(2), pw = b.input(3);
  V sp_neg = nn::softplus(b, b.neg(x)), sp = nn::softplus(b, x);
  V pwy = b.mul(pw, y);
  V dx = b.sub(b.mul(b.add(pwy, nn::rsub_scalar(b, 1, y)), nn::sigmoid(b, x)), pwy);
  V dy = b.sub(b.mul(pw, sp_neg), sp);
  V unweighted = b.add(b.mul(pwy, sp_neg), b.mul(nn::rsub_scalar(b, 1, y), sp));
  V dw = b.mul(d, unweighted);
  V wd = b.mul(d, w);
  return {b.mul(wd, dx), b.mul(wd, dy), dw, b.mul(wd, b.mul(y, sp_neg))};
}

// loss = -w (y log x + (1 - y) log(1 - x)), each log clamped at -100 (so the loss stays finite at 0 and 1).
std::vector<V> bce_grads(BpropBuilder& b, V d) {
  V x = b.input(0), y = b.input(1), w = b.input(2);
  V one_minus_x = nn::rsub_scalar(b, 1, x);
  auto clamped_log = [&](V v) { return b.emitter().emit("Maximum", {b.log(v), nn::scalar_like(b, -100, v)}); };
  V log_x = clamped_log(x), log_1mx = clamped_log(one_minus_x);
  V denom = b.emitter().emit("Maximum", {b.mul(x, one_minus_x), nn::scalar_like(b, 1e-12, x)});
  V wd = b.mul(w, d);
  V dx = b.mul(wd, b.div(b.sub(x, y), denom));
  V dy = b.mul(wd, b.sub(log_1mx, log_x));
  V dw = b.neg(b.mul(d, b.add(b.mul(y, log_x), b.mul(nn::rsub_scalar(b, 1, y), log_1mx))));
  return {dx, dy, dw};
}

// loss = 0.5 (x - y)^2 / beta where |x - y| < beta, else |x - y| - 0.5 beta.
std::vector<V> smooth_l1_grads(BpropBuilder& b, V d) {
  double beta = b.prim().attrs_as<SmoothL1LossAttrs>().beta;
  V diff = b.sub(b.input(0), b.input(1));
  V inside = b.mul(nn::mask_less(b, diff, beta), nn::mask_greater(b, diff, -beta));
  V sign = b.sub(nn::mask_greater(b, diff, 0), nn::mask_less(b, diff, 0));
  V slope = b.add(b.mul(inside, nn::mul_scalar(b, diff, 1.0 / beta)), b.mul(nn::rsub_scalar(b, 1, inside), sign));
  V dx = b.mul(d, slope);
  return {dx, b.neg(dx)};
}

// loss = y (log y - x), 0 where y = 0.
std::vector<V> kl_div_grads(BpropBuilder& b, V d) {
  V x = b.input(0), y = b.input(1);
  V positive = nn::mask_greater(b, y, 0);
  V safe_y = b.add(y, nn::rsub_scalar(b, 1, positive));  // 1 where y <= 0: log stays finite, masked anyway
  V dy = b.mul(positive, b.sub(nn::add_scalar(b, b.log(safe_y), 1), x));
  return {b.neg(b.mul(d, y)), b.mul(d, dy)};
}

}  // namespace

SPROUT_REGISTER(nn_loss_elementwise) {
  define_op<ReductionAttrs>("BCEWithLogitsLoss")
      .doc("Binary cross entropy of sigmoid(logits) against labels, with weight and pos_weight, without overflow.")
      .inputs({"logits", "label", "weight", "pos_weight"})
      .outputs({"output"})
      .infer(infer_bce_logits)
      .bprop(loss_bprop<ReductionAttrs>(bce_logits_grads));
  define_op<ReductionAttrs>("BinaryCrossEntropy")
      .doc("Binary cross entropy of probabilities against labels, weighted; each log clamped at -100.")
      .inputs({"logits", "labels", "weight"})
      .outputs({"output"})
      .infer(infer_bce_logits)
      .bprop(loss_bprop<ReductionAttrs>(bce_grads));
  define_op<SmoothL1LossAttrs>("SmoothL1Loss")
      .doc("Huber-style loss: quadratic below beta, linear above.")
      .inputs({"logits", "labels"})
      .outputs({"output"})
      .infer(infer_smooth_l1)
      .bprop(loss_bprop<SmoothL1LossAttrs>(smooth_l1_grads));
  define_op<KLDivLossAttrs>("KLDivLoss")
      .doc("Kullback-Leibler divergence labels * (log(labels) - logits), logits being log-probabilities.")
      .inputs({"logits", "labels"})
      .outputs({"output"})
      .infer(infer_kl_div)
      .bprop(loss_bprop<KLDivLossAttrs>(kl_div_grads, true));
  define_op<NoAttrs>("L2Loss")
      .doc("sum(x^2) / 2, a 0-d tensor.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_l2_loss)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {b.mul(b.dout(), b.input(0))}; }));
}

}  // namespace sprout
