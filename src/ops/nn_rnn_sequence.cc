// The recurrence of an LSTM layer as one op: nn.LSTM projects the whole sequence onto its input weights
// (one MatMul, biases added there) and hands the steps to LSTMRecurrence, which runs, per step t,
//   hidden_gates[t] = h_prev weight_hh^T,  (y[t], cells[t]) = LSTMCellPointwise(input_gates[t], hidden_gates[t], c_prev)
// in one kernel.
//
// Note [The recurrence as one op]
// As a loop of MatMul and LSTMCellPointwise ops, the backward through time takes weight_hh's gradient as
// one small product per step (dgates_t^T h_{t-1}, inner dimension = batch) plus an accumulating Add of
// the whole (4 hidden, hidden) matrix, and gathers the gate gradients with a Concat. LSTMRecurrenceGrad
// instead writes each step's gate gradient into one (steps, batch, 4 hidden) tensor and forms
// weight_hh's gradient from it in one GEMM over all steps (the same choice as oneDNN's RNN primitive,
// which PyTorch's CPU nn.LSTM runs). The forward keeps hidden_gates (h_prev weight_hh^T, per step) and
// cells as outputs, so the backward recomputes no product. The gradient op's own rule
// (nn_rnn_sequence_bprop.cc) is the reverse of its loop written from registry ops, so gradients of any
// order stay exact.
#include "ops/nn_rnn_sequence.h"

#include "ops/infer_util.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kFloatTypes = {DType::Float16, DType::BFloat16, DType::Float32,
                                                      DType::Float64};

struct SequenceShape {
  int64_t steps, batch, hidden;
};

void check_input(const OpDef& op, size_t i, const TensorSpec& t, const Shape& want, const char* what, DType dtype,
                 bool scalar_ok = false) {
  SPROUT_CHECK(t.dtype == dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '", op.inputs[0],
               "' (", name(dtype), "), but got ", name(t.dtype));
  SPROUT_CHECK(t.shape == want || (scalar_ok && t.shape.empty()), ValueError, op.name, ": '", op.inputs[i],
               "' must have shape ", shape_str(want), " (", what, ")", scalar_ok ? " or be 0-d" : "", ", but got ",
               shape_str(t.shape));
}

// Inputs 0..3 of both ops: (input_gates (steps, batch, 4 hidden), h0, c0 (batch, hidden), weight_hh
// (4 hidden, hidden)).
SequenceShape check_sequence_inputs(const OpDef& op, std::span<const TensorSpec> in) {
  const TensorSpec& x = in[0];
  check_dtype_in(op, 0, x, kFloatTypes);
  SPROUT_CHECK(x.shape.size() == 3 && x.shape[2] % 4 == 0 && x.shape[2] > 0, ValueError, op.name, ": '",
               op.inputs[0], "' must be 3-d (steps, batch, 4 * hidden), but got shape ", shape_str(x.shape));
  SPROUT_CHECK(x.shape[0] >= 1, ValueError, op.name, ": '", op.inputs[0], "' must have at least one step, but got shape ",
               shape_str(x.shape));
  const SequenceShape s{x.shape[0], x.shape[1], x.shape[2] / 4};
  check_input(op, 1, in[1], Shape{s.batch, s.hidden}, "(batch, hidden)", x.dtype);
  check_input(op, 2, in[2], Shape{s.batch, s.hidden}, "(batch, hidden)", x.dtype);
  check_input(op, 3, in[3], Shape{4 * s.hidden, s.hidden}, "(4 * hidden, hidden)", x.dtype);
  return s;
}

std::vector<TensorSpec> infer_lstm_recurrence(const OpDef& op, const LSTMRecurrenceAttrs&,
                                              std::span<const TensorSpec> in) {
  const SequenceShape s = check_sequence_inputs(op, in);
  const TensorSpec seq{in[0].dtype, Shape{s.steps, s.batch, s.hidden}};
  return {seq, seq, in[0]};
}

// After the forward's inputs: its outputs (y, cells, hidden_gates), then their sensitivities, each of
// the output's shape or 0-d (a broadcast value: the rule passes a 0-d zero for an output nobody read).
std::vector<TensorSpec> infer_lstm_recurrence_grad(const OpDef& op, const LSTMRecurrenceAttrs&,
                                                   std::span<const TensorSpec> in) {
  const SequenceShape s = check_sequence_inputs(op, in);
  const Shape seq{s.steps, s.batch, s.hidden};
  const DType t = in[0].dtype;
  check_input(op, 4, in[4], seq, "(steps, batch, hidden)", t);
  check_input(op, 5, in[5], seq, "(steps, batch, hidden)", t);
  check_input(op, 6, in[6], in[0].shape, "the shape of input_gates", t);
  check_input(op, 7, in[7], seq, "(steps, batch, hidden)", t, true);
  check_input(op, 8, in[8], seq, "(steps, batch, hidden)", t, true);
  check_input(op, 9, in[9], in[0].shape, "the shape of input_gates", t, true);
  return {in[0], in[1], in[2], in[3]};
}

}  // namespace

SPROUT_REGISTER(nn_rnn_sequence) {
  define_op<LSTMRecurrenceAttrs>("LSTMRecurrence")
      .doc("The steps of an LSTM layer after its input projection: per step t (in reverse order when "
           "'reverse'), hidden_gates[t] = h_prev weight_hh^T and (y[t], cells[t]) = "
           "LSTMCellPointwise(input_gates[t], hidden_gates[t], c_prev) without biases, starting from (h0, c0). "
           "Outputs (y, cells, hidden_gates) (Note [The recurrence as one op]).")
      .inputs({"input_gates", "h0", "c0", "weight_hh"})
      .outputs({"y", "cells", "hidden_gates"})
      .infer(infer_lstm_recurrence)
      .bprop(lstm_recurrence_bprop());
  define_op<LSTMRecurrenceAttrs>("LSTMRecurrenceGrad")
      .doc("Backward through time of LSTMRecurrence from its inputs, outputs and their sensitivities (each "
           "0-d for a broadcast value): (d_input_gates, dh0, dc0, dweight_hh). d_input_gates is also the "
           "gradient of hidden_gates as the step computes it.")
      .inputs({"input_gates", "h0", "c0", "weight_hh", "y", "cells", "hidden_gates", "dy", "dcells",
               "dhidden_gates"})
      .outputs({"d_input_gates", "dh0", "dc0", "dweight_hh"})
      .infer(infer_lstm_recurrence_grad)
      .bprop(lstm_recurrence_grad_bprop());
}

}  // namespace sprout
