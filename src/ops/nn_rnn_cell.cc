// The pointwise half of an LSTM or GRU step, fused (PyTorch's _thnn_fused_lstm_cell/_gru_cell). A cell
// step is two matmuls (x w_ih^T, h w_hh^T: MatMul, BLAS/oneDNN) and then a dozen elementwise ops on
// (batch, gates * hidden) values; as separate ops those cost one dispatch and one pass over memory each.
// LSTMCellPointwise and GRUCellPointwise do them in one pass.
// Measured (benchmarks/run.py --only lstm_cell_fwd_bwd,lstm_layer_fwd_bwd, 2 threads): one LSTM step
// forward + backward at batch 64, hidden 256 went from 1.17 to 0.87 ms (GRAPH_MODE 1.13 to 0.74; PyTorch
// 1.15); nn.LSTM(128, 256) over 32 steps of batch 64, which also takes the input's matmul out of the time
// loop (nn/layer/rnns.py), from 33.7 to 21.1 ms (GRAPH_MODE 36.0 to 18.7; PyTorch 16.6).
//
// Note [Fused cell gradients]
// The backward ops recompute the gate activations from the forward's inputs rather than reading a saved
// "workspace" output (PyTorch's choice): that costs a handful of exps per hidden unit (in nn.LSTM's profile
// at batch 64, hidden 256, LSTMCellPointwiseGrad takes 50 us a step against the forward's 38 us), and
// the grad op stays a function of the forward's inputs and the sensitivities only, so its own rule
// (nn_rnn_cell_bprop.cc, from registry ops) gives exact higher-order gradients. The gradient w.r.t. the
// input and hidden gate pre-activations is the same tensor for the LSTM (both are summed into the gates);
// the biases get its sum over the batch.
#include "ops/infer_util.h"
#include "ops/nn_rnn_cell.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kCellTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

void check_input(const OpDef& op, size_t i, const TensorSpec& t, const Shape& want, const char* what, DType dtype) {
  SPROUT_CHECK(t.dtype == dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '", op.inputs[0],
               "' (", name(dtype), "), but got ", name(t.dtype));
  SPROUT_CHECK(t.shape == want, ValueError, op.name, ": '", op.inputs[i], "' must have shape ", shape_str(want), " (",
               what, "), but got ", shape_str(t.shape));
}

}  // namespace

// Inputs 0..4 of every cell op: (input_gates, hidden_gates, state, input_bias, hidden_bias) with
// gates = `gates` * hidden; `state` (cx or hx) is (batch, hidden). Inputs after those are (batch, hidden)
// sensitivities. Returns (batch, hidden).
CellShape check_cell_inputs(const OpDef& op, std::span<const TensorSpec> in, int64_t gates) {
  const TensorSpec& x = in[0];
  check_dtype_in(op, 0, x, kCellTypes);
  SPROUT_CHECK(x.shape.size() == 2 && x.shape[1] % gates == 0, ValueError, op.name, ": '", op.inputs[0],
               "' must be 2-d (batch, ", gates, " * hidden), but got shape ", shape_str(x.shape));
  const CellShape s{x.shape[0], x.shape[1] / gates};
  const Shape state{s.batch, s.hidden}, bias{gates * s.hidden};
  check_input(op, 1, in[1], x.shape, "the shape of input_gates", x.dtype);
  check_input(op, 2, in[2], state, "(batch, hidden)", x.dtype);
  check_input(op, 3, in[3], bias, "(gates * hidden,)", x.dtype);
  check_input(op, 4, in[4], bias, "(gates * hidden,)", x.dtype);
  for (size_t i = 5; i < in.size(); ++i) check_input(op, i, in[i], state, "(batch, hidden)", x.dtype);
  return s;
}

namespace {

std::vector<TensorSpec> infer_lstm(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  CellShape s = check_cell_inputs(op, in, 4);
  TensorSpec state{in[0].dtype, Shape{s.batch, s.hidden}};
  return {state, state};
}

std::vector<TensorSpec> infer_lstm_grad(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  CellShape s = check_cell_inputs(op, in, 4);
  return {in[0], TensorSpec{in[0].dtype, Shape{s.batch, s.hidden}}};
}

std::vector<TensorSpec> infer_gru(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  CellShape s = check_cell_inputs(op, in, 3);
  return {TensorSpec{in[0].dtype, Shape{s.batch, s.hidden}}};
}

std::vector<TensorSpec> infer_gru_grad(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  CellShape s = check_cell_inputs(op, in, 3);
  return {in[0], in[0], TensorSpec{in[0].dtype, Shape{s.batch, s.hidden}}};
}

}  // namespace

SPROUT_REGISTER(nn_rnn_cell) {
  define_op<NoAttrs>("LSTMCellPointwise")
      .doc("The pointwise part of an LSTM step: gates = input_gates + input_bias + hidden_gates + hidden_bias, "
           "split as (i, f, g, o); cy = sigmoid(f) * cx + sigmoid(i) * tanh(g), hy = sigmoid(o) * tanh(cy). "
           "Outputs (hy, cy).")
      .inputs({"input_gates", "hidden_gates", "cx", "input_bias", "hidden_bias"})
      .outputs({"hy", "cy"})
      .infer(infer_lstm)
      .bprop(lstm_cell_bprop());
  define_op<NoAttrs>("LSTMCellPointwiseGrad")
      .doc("Fused gradient of LSTMCellPointwise from its inputs and (dhy, dcy): (d_gates, dcx), d_gates being "
           "the gradient of both gate inputs (Note [Fused cell gradients]).")
      .inputs({"input_gates", "hidden_gates", "cx", "input_bias", "hidden_bias", "dhy", "dcy"})
      .outputs({"d_gates", "dcx"})
      .infer(infer_lstm_grad)
      .bprop(lstm_cell_grad_bprop());
  define_op<NoAttrs>("GRUCellPointwise")
      .doc("The pointwise part of a GRU step, gates split as (r, z, n): r = sigmoid(x_r + h_r), "
           "z = sigmoid(x_z + h_z), n = tanh(x_n + r * h_n), hy = (1 - z) * n + z * hx, where "
           "x = input_gates + input_bias and h = hidden_gates + hidden_bias.")
      .inputs({"input_gates", "hidden_gates", "hx", "input_bias", "hidden_bias"})
      .outputs({"hy"})
      .infer(infer_gru)
      .bprop(gru_cell_bprop());
  define_op<NoAttrs>("GRUCellPointwiseGrad")
      .doc("Fused gradient of GRUCellPointwise from its inputs and dhy: (d_input_gates, d_hidden_gates, dhx) "
           "(Note [Fused cell gradients]).")
      .inputs({"input_gates", "hidden_gates", "hx", "input_bias", "hidden_bias", "dhy"})
      .outputs({"d_input_gates", "d_hidden_gates", "dhx"})
      .infer(infer_gru_grad)
      .bprop(gru_cell_grad_bprop());
}

}  // namespace sprout
