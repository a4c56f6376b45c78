// Classification losses built on log-softmax: SoftmaxCrossEntropyWithLogits (dense labels),
// SparseSoftmaxCrossEntropyWithLogits (class indices) and NLLLoss (on log-probabilities). Kernels
// use the log-sum-exp of x - max, so no logit overflows them. Class indices are Int32 or Int64; an
// index outside [0, C) is a ValueError from the kernel (infer cannot see values).
#include <optional>

#include "ops/infer_util.h"
#include "ops/nn_loss.h"
#include "ops/nn_loss_bprop.h"

namespace sprout {

Reduction parse_reduction(std::string_view op, const std::string& reduction, bool allow_batchmean) {
  if (reduction == "none") return Reduction::None;
  if (reduction == "sum") return Reduction::Sum;
  if (reduction == "mean") return Reduction::Mean;
  if (allow_batchmean && reduction == "batchmean") return Reduction::BatchMean;
  throw ValueError(str(op, ": 'reduction' must be one of 'none', 'mean', 'sum'", allow_batchmean ? ", 'batchmean'" : "",
                       ", but got '", reduction, "'"));
}

namespace {

using nn::V;

void check_same_float(const OpDef& op, std::span<const TensorSpec> in, size_t a, size_t b) {
  check_floating(op, a, in[a]);
  SPROUT_CHECK(in[a].dtype == in[b].dtype, TypeError, op.name, ": '", op.inputs[b], "' must have the dtype of '",
               op.inputs[a], "' (", name(in[a].dtype), "), but got ", name(in[b].dtype));
}

void check_class_indices(const OpDef& op, size_t index, const TensorSpec& labels, int64_t batch) {
  check_dtype_in(op, index, labels, {DType::Int32, DType::Int64});
  SPROUT_CHECK(labels.shape.size() == 1 && labels.shape[0] == batch, ValueError, op.name, ": '", op.inputs[index],
               "' must have shape (", batch, ",) to match the batch of the logits, but got ", shape_str(labels.shape));
}

void check_matrix(const OpDef& op, size_t index, const TensorSpec& x) {
  SPROUT_CHECK(x.shape.size() == 2, ValueError, op.name, ": '", op.inputs[index],
               "' must be 2-d (batch, classes), but got shape ", shape_str(x.shape));
}

std::vector<TensorSpec> infer_softmax_ce(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_matrix(op, 0, in[0]);
  check_same_float(op, in, 0, 1);
  SPROUT_CHECK(in[0].shape == in[1].shape, ValueError, op.name, ": 'labels' must have the shape of 'logits' ",
               shape_str(in[0].shape), ", but got ", shape_str(in[1].shape));
  return {TensorSpec{in[0].dtype, Shape{in[0].shape[0]}}, in[0]};
}

std::vector<TensorSpec> infer_sparse_softmax_ce(const OpDef& op, const SparseSoftmaxCrossEntropyAttrs& a,
                                                std::span<const TensorSpec> in) {
  check_matrix(op, 0, in[0]);
  check_floating(op, 0, in[0]);
  check_class_indices(op, 1, in[1], in[0].shape[0]);
  return {a.is_grad ? in[0] : TensorSpec{in[0].dtype, Shape{}}};
}

std::vector<TensorSpec> infer_nll_loss(const OpDef& op, const NLLLossAttrs& a, std::span<const TensorSpec> in) {
  Reduction r = parse_reduction(op.name, a.reduction);
  check_matrix(op, 0, in[0]);
  check_same_float(op, in, 0, 2);
  check_class_indices(op, 1, in[1], in[0].shape[0]);
  SPROUT_CHECK(in[2].shape.size() == 1 && in[2].shape[0] == in[0].shape[1], ValueError, op.name,
               ": 'weight' must have shape (", in[0].shape[1], ",), one weight per class, but got ",
               shape_str(in[2].shape));
  Shape loss_shape = r == Reduction::None ? Shape{in[0].shape[0]} : Shape{};
  return {TensorSpec{in[0].dtype, loss_shape}, TensorSpec{in[0].dtype, Shape{}}};
}

// One-hot rows of the class indices (N, C) in `like`'s dtype, zero where the index is `ignore`.
V one_hot(BpropBuilder& b, V labels, int64_t classes, V like, std::optional<int64_t> ignore = std::nullopt) {
  Tensor range = Tensor::empty(Shape{1, classes}, DType::Int64);
  for (int64_t c = 0; c < classes; ++c) range.data<int64_t>()[c] = c;
  int64_t n = b.spec(labels).shape[0];
  V column = b.reshape(labels, Shape{n, 1});
  V hot = b.mask(b.equal(column, b.emitter().constant(range)), like);
  if (ignore) {
    V ignored = b.scalar(static_cast<double>(*ignore), b.spec(labels).dtype);
    hot = b.mul(hot, b.mask(b.emitter().emit("NotEqual", {column, ignored}), like));
  }
  return hot;
}

// loss_n = sum_c labels (lse - x); backprop = softmax - labels (as MindSpore). The rule is exact for
// labels that do not sum to 1 too: dx = dloss (softmax sum(labels) - labels), dlabels = -dloss log_softmax.
std::vector<V> softmax_ce_bprop(BpropBuilder& b) {
  V x = b.input(0), labels = b.input(1), backprop = b.out(1);
  int64_t n = b.spec(x).shape[0];
  V d = b.reshape(b.dout(0), Shape{n, 1});
  V softmax = b.add(backprop, labels);
  V dx = b.mul(d, b.sub(b.mul(softmax, nn::sum_keep(b, labels, 1)), labels));
  V log_softmax = b.emitter().emit("LogSoftmax", {x}, {{"axis", int64_t{1}}});
  return {dx, b.neg(b.mul(d, log_softmax))};
}

std::vector<V> sparse_softmax_ce_bprop(BpropBuilder& b) {
  V x = b.input(0), labels = b.input(1), d = b.dout();
  const TensorSpec xs = b.spec(x);
  if (!b.prim().attrs_as<SparseSoftmaxCrossEntropyAttrs>().is_grad) {
    std::vector<V> args{x, labels};
    V grad = b.emitter().emit(b.prim().with_attr("is_grad", true), args);  // (softmax - onehot) / N
    return {b.mul(grad, d), V{}};
  }
  // out = (softmax - onehot) / N: its derivative is the softmax Jacobian, scaled by 1 / N.
  V s = b.emitter().emit("Softmax", {x}, {{"axis", std::vector<int64_t>{1}}});
  V ds = b.mul(s, b.sub(d, nn::sum_keep(b, b.mul(d, s), 1)));
  return {b.div(ds, nn::scalar_like(b, static_cast<double>(std::max<int64_t>(xs.shape[0], 1)), x)), V{}};
}

// -row_scale[n] w[t_n] at (n, t_n) for the kept rows, zeros elsewhere: dx of the NLL loss, by one scatter into
// zeros (the one-hot formula took half a dozen passes over the (N, C) gradient: 2.7x PyTorch's time at
// 4096 x 1000). Ignored rows scatter a zero at their column 0.
V nll_input_grad(BpropBuilder& b, V labels, V w, V row_scale, const Shape& xs, int64_t ignore_index) {
  const int64_t n = xs[0], classes = xs[1];
  const DType ldt = b.spec(labels).dtype, xdt = b.spec(row_scale).dtype;
  V kept = b.emitter().emit("NotEqual", {labels, b.scalar(static_cast<double>(ignore_index), ldt)});
  V safe = b.mul(labels, b.cast(kept, ldt));
  Tensor row_starts = Tensor::empty(Shape{n, 1}, DType::Int64);
  for (int64_t r = 0; r < n; ++r) row_starts.data<int64_t>()[r] = r * classes;
  V index = b.add(b.emitter().constant(row_starts), b.reshape(b.cast(safe, DType::Int64), Shape{n, 1}));
  V picked_w = b.emitter().emit("Gather", {w, safe}, {{"axis", int64_t{0}}});
  V values = b.neg(b.mul(b.mul(row_scale, picked_w), b.cast(kept, xdt)));
  V flat = b.emitter().emit("ScatterNd", {index, values}, {{"shape", std::vector<int64_t>{n * classes}}});
  return b.reshape(flat, xs);
}

// loss = -sum_n w[t_n] x[n, t_n] (over kept n), divided by total_weight = sum_n w[t_n] for 'mean'.
std::vector<V> nll_loss_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<NLLLossAttrs>();
  Reduction r = parse_reduction(b.prim().name(), a.reduction);
  V x = b.input(0), labels = b.input(1), w = b.input(2), d = b.dout(0);
  const Shape xs = b.spec(x).shape;
  // Each row's factor: dloss[n] ('none'), dloss ('sum'), dloss / total_weight ('mean').
  V row_scale = r == Reduction::None ? d : b.broadcast_to(r == Reduction::Sum ? d : b.div(d, b.out(1)), Shape{xs[0]});
  V dx = b.wants(0) ? nll_input_grad(b, labels, w, row_scale, xs, a.ignore_index) : V{};
  if (!b.wants(2)) return {dx, V{}, V{}};
  // The class weights' gradient (rarely wanted: they are usually constants), by the one-hot formula.
  V hot = one_hot(b, labels, xs[1], x, a.ignore_index);
  if (r == Reduction::None) {
    V dcol = b.reshape(d, Shape{xs[0], 1});
    return {dx, V{}, b.neg(b.reduce_sum(b.mul(dcol, b.mul(hot, x)), {0}, false))};
  }
  V picked = b.reduce_sum(b.mul(hot, x), {0}, false);  // sum of x[n, c] over the rows labelled c
  if (r == Reduction::Sum) return {dx, V{}, b.neg(b.mul(d, picked))};
  V scale = b.div(d, b.out(1));
  return {dx, V{}, b.mul(scale, b.neg(b.add(picked, b.mul(b.out(0), b.reduce_sum(hot, {0}, false)))))};
}

}  // namespace

SPROUT_REGISTER(nn_loss) {
  define_op<NoAttrs>("SoftmaxCrossEntropyWithLogits")
      .doc("Cross entropy of softmax(logits) against dense label distributions, per row; also softmax - labels.")
      .inputs({"logits", "labels"})
      .outputs({"loss", "backprop"})
      .non_differentiable({false, true})
      .infer(infer_softmax_ce)
      .bprop(bprop_rule(softmax_ce_bprop));
  define_op<SparseSoftmaxCrossEntropyAttrs>("SparseSoftmaxCrossEntropyWithLogits")
      .doc("Mean cross entropy of softmax(features) against class indices (or its gradient when is_grad).")
      .inputs({"features", "labels"})
      .outputs({"output"})
      .infer(infer_sparse_softmax_ce)
      .bprop(bprop_rule(sparse_softmax_ce_bprop));
  define_op<NLLLossAttrs>("NLLLoss")
      .doc("Negative log-likelihood of class indices under log-probabilities, weighted per class.")
      .inputs({"logits", "labels", "weight"})
      .outputs({"loss", "total_weight"})
      .non_differentiable({false, true})
      .infer(infer_nll_loss)
      .bprop(bprop_rule(nll_loss_bprop));
}

}  // namespace sprout
