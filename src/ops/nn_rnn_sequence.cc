// The recurrence of an LSTM or GRU layer as one op. nn.LSTM projects the whole sequence onto its input
// weights (one MatMul, biases added there) and hands the steps to LSTMRecurrence, which runs, per step t,
//   hidden_gates[t] = h_prev weight_hh^T,  (y[t], cells[t]) = LSTMCellPointwise(input_gates[t], hidden_gates[t], c_prev)
// in one kernel; nn.GRU likewise hands its steps to GRURecurrence (bias_hh stays in the step, where the
// reset gate scales it).
//
// Note [The recurrence as one op]
// As a loop of MatMul and cell ops, the backward through time takes weight_hh's gradient as one small
// product per step (dgates_t^T h_{t-1}, inner dimension = batch) plus an accumulating Add of the whole
// (gates * hidden, hidden) matrix, and gathers the gate gradients with a Concat. The Grad ops instead
// write each step's gate gradient into one (steps, batch, gates * hidden) tensor and form weight_hh's
// gradient from it in one GEMM over all steps (the same choice as oneDNN's RNN primitive, which
// PyTorch's CPU nn.LSTM runs). The forward keeps hidden_gates (h_prev weight_hh^T, per step) and the
// LSTM's cells as outputs, so the backward recomputes no product. Each gradient op's own rule
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

// input_gates (steps, batch, gates * hidden), checked for every op here; returns the sizes.
SequenceShape check_input_gates(const OpDef& op, const TensorSpec& x, int64_t gates) {
  check_dtype_in(op, 0, x, kFloatTypes);
  SPROUT_CHECK(x.shape.size() == 3 && x.shape[2] % gates == 0 && x.shape[2] > 0, ValueError, op.name, ": '",
               op.inputs[0], "' must be 3-d (steps, batch, ", gates, " * hidden), but got shape ", shape_str(x.shape));
  SPROUT_CHECK(x.shape[0] >= 1, ValueError, op.name, ": '", op.inputs[0], "' must have at least one step, but got shape ",
               shape_str(x.shape));
  return {x.shape[0], x.shape[1], x.shape[2] / gates};
}

// The LSTM's inputs 0..3: (input_gates, h0, c0 (batch, hidden), weight_hh (4 hidden, hidden)).
SequenceShape check_lstm_inputs(const OpDef& op, std::span<const TensorSpec> in) {
  const SequenceShape s = check_input_gates(op, in[0], 4);
  const DType t = in[0].dtype;
  check_input(op, 1, in[1], Shape{s.batch, s.hidden}, "(batch, hidden)", t);
  check_input(op, 2, in[2], Shape{s.batch, s.hidden}, "(batch, hidden)", t);
  check_input(op, 3, in[3], Shape{4 * s.hidden, s.hidden}, "(4 * hidden, hidden)", t);
  return s;
}

// The GRU's inputs 0..3: (input_gates, h0 (batch, hidden), weight_hh (3 hidden, hidden), bias_hh).
SequenceShape check_gru_inputs(const OpDef& op, std::span<const TensorSpec> in) {
  const SequenceShape s = check_input_gates(op, in[0], 3);
  const DType t = in[0].dtype;
  check_input(op, 1, in[1], Shape{s.batch, s.hidden}, "(batch, hidden)", t);
  check_input(op, 2, in[2], Shape{3 * s.hidden, s.hidden}, "(3 * hidden, hidden)", t);
  check_input(op, 3, in[3], Shape{3 * s.hidden}, "(3 * hidden,)", t);
  return s;
}

std::vector<TensorSpec> infer_lstm_recurrence(const OpDef& op, const RecurrenceAttrs&,
                                              std::span<const TensorSpec> in) {
  const SequenceShape s = check_lstm_inputs(op, in);
  const TensorSpec seq{in[0].dtype, Shape{s.steps, s.batch, s.hidden}};
  return {seq, seq, in[0]};
}

// After the forward's inputs: its outputs (y, cells, hidden_gates), then their sensitivities, each of
// the output's shape or 0-d (a broadcast value: the rule passes a 0-d zero for an output nobody read).
std::vector<TensorSpec> infer_lstm_recurrence_grad(const OpDef& op, const RecurrenceAttrs&,
                                                   std::span<const TensorSpec> in) {
  const SequenceShape s = check_lstm_inputs(op, in);
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

std::vector<TensorSpec> infer_gru_recurrence(const OpDef& op, const RecurrenceAttrs&,
                                             std::span<const TensorSpec> in) {
  const SequenceShape s = check_gru_inputs(op, in);
  return {TensorSpec{in[0].dtype, Shape{s.steps, s.batch, s.hidden}}, in[0]};
}

// After the forward's inputs: its outputs (y, hidden_gates), then their sensitivities (full or 0-d).
std::vector<TensorSpec> infer_gru_recurrence_grad(const OpDef& op, const RecurrenceAttrs&,
                                                  std::span<const TensorSpec> in) {
  const SequenceShape s = check_gru_inputs(op, in);
  const Shape seq{s.steps, s.batch, s.hidden};
  const DType t = in[0].dtype;
  check_input(op, 4, in[4], seq, "(steps, batch, hidden)", t);
  check_input(op, 5, in[5], in[0].shape, "the shape of input_gates", t);
  check_input(op, 6, in[6], seq, "(steps, batch, hidden)", t, true);
  check_input(op, 7, in[7], in[0].shape, "the shape of input_gates", t, true);
  return {in[0], in[1], in[2], in[3]};
}

}  // namespace

SPROUT_REGISTER(nn_rnn_sequence) {
  define_op<RecurrenceAttrs>("LSTMRecurrence")
      .doc("The steps of an LSTM layer after its input projection: per step t (in reverse order when "
           "'reverse'), hidden_gates[t] = h_prev weight_hh^T and (y[t], cells[t]) = "
           "LSTMCellPointwise(input_gates[t], hidden_gates[t], c_prev) without biases, starting from (h0, c0). "
           "Outputs (y, cells, hidden_gates) (Note [The recurrence as one op]).")
      .inputs({"input_gates", "h0", "c0", "weight_hh"})
      .outputs({"y", "cells", "hidden_gates"})
      .infer(infer_lstm_recurrence)
      .bprop(lstm_recurrence_bprop());
  define_op<RecurrenceAttrs>("LSTMRecurrenceGrad")
      .doc("Backward through time of LSTMRecurrence from its inputs, outputs and their sensitivities (each "
           "0-d for a broadcast value): (d_input_gates, dh0, dc0, dweight_hh). d_input_gates is also the "
           "gradient of hidden_gates as the step computes it.")
      .inputs({"input_gates", "h0", "c0", "weight_hh", "y", "cells", "hidden_gates", "dy", "dcells",
               "dhidden_gates"})
      .outputs({"d_input_gates", "dh0", "dc0", "dweight_hh"})
      .infer(infer_lstm_recurrence_grad)
      .bprop(lstm_recurrence_grad_bprop());
  define_op<RecurrenceAttrs>("GRURecurrence")
      .doc("The steps of a GRU layer after its input projection: per step t (in reverse order when "
           "'reverse'), hidden_gates[t] = h_prev weight_hh^T and y[t] = GRUCellPointwise(input_gates[t], "
           "hidden_gates[t], h_prev, 0, bias_hh), starting from h0. Outputs (y, hidden_gates) "
           "(Note [The recurrence as one op]).")
      .inputs({"input_gates", "h0", "weight_hh", "bias_hh"})
      .outputs({"y", "hidden_gates"})
      .infer(infer_gru_recurrence)
      .bprop(gru_recurrence_bprop());
  define_op<RecurrenceAttrs>("GRURecurrenceGrad")
      .doc("Backward through time of GRURecurrence from its inputs, outputs and their sensitivities (each "
           "0-d for a broadcast value): (d_input_gates, dh0, dweight_hh, dbias_hh).")
      .inputs({"input_gates", "h0", "weight_hh", "bias_hh", "y", "hidden_gates", "dy", "dhidden_gates"})
      .outputs({"d_input_gates", "dh0", "dweight_hh", "dbias_hh"})
      .infer(infer_gru_recurrence_grad)
      .bprop(gru_recurrence_grad_bprop());
}

}  // namespace sprout
