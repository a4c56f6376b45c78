// Bprop rules of LSTMRecurrence and GRURecurrence (Note [The recurrence as one op] in nn_rnn_sequence.cc).
// The forward's rule calls the fused grad op; the grad op's rule is the reverse of the grad op's loop,
// from registry ops (MatMul, the cell's Grad op and that op's own rule), for higher-order gradients only,
// where speed does not matter.
#include "ops/bprop_builder.h"
#include "ops/nn_rnn_sequence.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

bool is_scalar(BpropBuilder& b, V v) { return b.spec(v).shape.empty(); }

// The steps of the recurrence, each with the step before it (-1: the initial state) in the order the
// forward runs them.
struct Steps {
  int64_t count;
  bool reverse;
  int64_t at(int64_t k) const { return reverse ? count - 1 - k : k; }  // k-th step run
  int64_t prev(int64_t t) const { return reverse ? (t + 1 < count ? t + 1 : -1) : t - 1; }
};

// Per-step (batch, width) values of a (steps, batch, width) tensor; a 0-d value stands for every step.
std::vector<V> per_step(BpropBuilder& b, V v, int64_t steps) {
  if (is_scalar(b, v)) return std::vector<V>(static_cast<size_t>(steps), v);
  const Shape s = b.spec(v).shape;
  std::vector<V> parts = b.emitter().emit_outputs(
      Primitive::make("Split").with_attr("axis", int64_t{0}).with_attr("output_num", steps), std::vector<V>{v});
  for (V& p : parts) p = b.reshape(p, std::vector<int64_t>{s[1], s[2]});
  return parts;
}

// The inverse of per_step: steps in time order stacked on axis 0, or summed to 0-d for a 0-d input.
V stacked(BpropBuilder& b, const std::vector<V>& parts, V like) {
  V v = b.emitter().emit_outputs(Primitive::make("Stack").with_attr("axis", int64_t{0}), parts)[0];
  return is_scalar(b, like) ? b.reduce_sum(v, {}, false) : v;
}

V add_or_first(BpropBuilder& b, V a, V c) { return c.valid() ? b.add(a, c) : a; }

// What a grad op's rule knows of the recurrence: its steps, sizes and dtype, from input_gates.
struct Recurrence {
  Steps steps;
  int64_t batch, hidden;
  DType dtype;

  Recurrence(BpropBuilder& b, int64_t gates)
      : steps{b.spec(b.input(0)).shape[0], b.prim().attrs_as<RecurrenceAttrs>().reverse},
        batch(b.spec(b.input(0)).shape[1]),
        hidden(b.spec(b.input(0)).shape[2] / gates),
        dtype(b.spec(b.input(0)).dtype) {}
  size_t count() const { return static_cast<size_t>(steps.count); }
  // Input or cotangent `v` per step.
  std::vector<V> split(BpropBuilder& b, V v) const { return per_step(b, v, steps.count); }
  // A zero bias for the cell grad ops (the biases are outside the recurrence, or passed separately).
  V zero_bias(BpropBuilder& b, int64_t gates) const {
    return b.emitter().constant(Tensor::zeros(std::vector<int64_t>{gates * hidden}, dtype));
  }
};

// LSTMRecurrence -> LSTMRecurrenceGrad (GRU likewise): the forward's inputs, outputs, and a 0-d zero
// for each output nobody read.
std::vector<V> emit_recurrence_grad(BpropBuilder& b, const char* grad_op) {
  const auto& attrs = b.prim().attrs_as<RecurrenceAttrs>();
  std::vector<V> in(b.inputs().begin(), b.inputs().end());
  for (size_t k = 0; k < b.outputs().size(); ++k) in.push_back(b.out(k));
  for (size_t k = 0; k < b.outputs().size(); ++k)
    in.push_back(b.emitter().is_zero(b.dout(k)) ? b.scalar(0, b.spec(b.out(k)).dtype) : b.dout(k));
  return b.emitter().emit_outputs(Primitive::make(grad_op).with_attr("reverse", attrs.reverse), in);
}

std::vector<V> lstm_bprop(BpropBuilder& b) { return emit_recurrence_grad(b, "LSTMRecurrenceGrad"); }
std::vector<V> gru_bprop(BpropBuilder& b) { return emit_recurrence_grad(b, "GRURecurrenceGrad"); }

// LSTMRecurrenceGrad runs, for the steps from last to first (dh, dc start at zero):
//   dh_t = dy_t + dh, dc_t = dcells_t + dc, (dA_t, dc) = LSTMCellPointwiseGrad(a_t, c_prev_t, dh_t, dc_t),
//   dAh_t = dA_t + dhidden_gates_t, dh = dAh_t W;  then dW = sum_t dAh_t^T h_prev_t, dh0 = dh, dc0 = dc.
// Its rule first recomputes dh_t, dc_t and dAh_t (registry ops), then walks the steps first to last with
// the adjoints Ah, Ac of (dh, dc) as each step leaves them, starting from the cotangents of dh0 and dc0.
std::vector<V> lstm_grad_bprop(BpropBuilder& b) {
  const Recurrence r(b, 4);
  const Steps& steps = r.steps;
  auto split = [&](size_t input) { return r.split(b, b.input(input)); };
  std::vector<V> gx = split(0), y = split(4), cells = split(5), hg = split(6), dy = split(7), dcells = split(8),
                 dhg = split(9), u_gx = r.split(b, b.dout(0));
  V w = b.input(3), u_w = b.dout(3), zero_bias = r.zero_bias(b, 4);
  auto h_prev = [&](int64_t t) { return steps.prev(t) < 0 ? b.input(1) : y[steps.prev(t)]; };
  auto c_prev = [&](int64_t t) { return steps.prev(t) < 0 ? b.input(2) : cells[steps.prev(t)]; };
  auto as_state = [&](V v) { return is_scalar(b, v) ? b.broadcast_to(v, std::vector<int64_t>{r.batch, r.hidden}) : v; };
  const Primitive cell_grad = Primitive::make("LSTMCellPointwiseGrad");

  // 1. The grad op's per-step values, last step first.
  const size_t n = r.count();
  std::vector<std::vector<V>> cell_in(n), cell_out(n);
  std::vector<V> d_ah(n);
  V dh, dc;
  for (int64_t k = steps.count - 1; k >= 0; --k) {
    const int64_t t = steps.at(k);
    V dh_t = as_state(add_or_first(b, dy[t], dh)), dc_t = as_state(add_or_first(b, dcells[t], dc));
    cell_in[t] = {gx[t], hg[t], c_prev(t), zero_bias, zero_bias, dh_t, dc_t};
    cell_out[t] = b.emitter().emit_outputs(cell_grad, cell_in[t]);
    d_ah[t] = b.add(cell_out[t][0], dhg[t]);
    dc = cell_out[t][1];
    dh = b.matmul(d_ah[t], w, false, false);
  }

  // 2. Their adjoints, first step first.
  std::vector<V> g_gates(n), g_y(n), g_cells(n), g_dy(n), g_dcells(n), g_dhg(n);
  V ah = b.dout(1), ac = b.dout(2), g_w, g_h0, g_c0;
  for (int64_t k = 0; k < steps.count; ++k) {
    const int64_t t = steps.at(k);
    V g_dah = b.add(b.matmul(ah, w, false, true), b.matmul(h_prev(t), u_w, false, true));
    g_w = add_or_first(b, b.matmul(d_ah[t], ah, true, false), g_w);
    V g_hp = b.matmul(d_ah[t], u_w, false, false), g_da = b.add(g_dah, u_gx[t]);
    V douts[2] = {g_da, ac};
    std::vector<V> g = cell_grad.def().bprop(b.emitter(), BpropArgs{cell_grad, cell_in[t], cell_out[t], douts});
    const int64_t p = steps.prev(t);
    (p < 0 ? g_h0 : g_y[p]) = g_hp;
    (p < 0 ? g_c0 : g_cells[p]) = g[2];
    g_gates[t] = g[0];
    g_dhg[t] = g_dah;
    g_dy[t] = g[5];
    g_dcells[t] = g[6];
    ah = g[5];
    ac = g[6];
  }
  const int64_t last = steps.at(steps.count - 1);  // its (y, cells) feed no later step
  g_y[last] = b.emitter().zeros_like(y[last]);
  g_cells[last] = b.emitter().zeros_like(cells[last]);
  V g_gx = stacked(b, g_gates, b.input(0));
  return {g_gx, g_h0, g_c0, g_w, stacked(b, g_y, b.input(4)), stacked(b, g_cells, b.input(5)), g_gx,
          stacked(b, g_dy, b.input(7)), stacked(b, g_dcells, b.input(8)),
          stacked(b, g_dhg, b.input(9))};
}

// GRURecurrenceGrad runs, for the steps from last to first (dh starts at zero):
//   dh_t = dy_t + dh, (dX_t, dH_t, dhx_t) = GRUCellPointwiseGrad(x_t, hg_t, h_prev_t, 0, bias_hh, dh_t),
//   dAh_t = dH_t + dhidden_gates_t, dh = dhx_t + dAh_t W;
// then dW = sum_t dAh_t^T h_prev_t, dbias_hh = sum over steps and rows of dH_t, dh0 = dh. Its rule
// recomputes dh_t and dAh_t, then walks the steps first to last with the adjoint Ah of dh as each step
// leaves it, starting from dh0's cotangent.
std::vector<V> gru_grad_bprop(BpropBuilder& b) {
  const Recurrence r(b, 3);
  const Steps& steps = r.steps;
  auto split = [&](size_t input) { return r.split(b, b.input(input)); };
  std::vector<V> gx = split(0), y = split(4), hg = split(5), dy = split(6), dhg = split(7), u_gx = r.split(b, b.dout(0));
  V w = b.input(2), bias = b.input(3), u_w = b.dout(2), u_bias = b.dout(3), zero_bias = r.zero_bias(b, 3);
  auto h_prev = [&](int64_t t) { return steps.prev(t) < 0 ? b.input(1) : y[steps.prev(t)]; };
  const Primitive cell_grad = Primitive::make("GRUCellPointwiseGrad");

  // 1. The grad op's per-step values, last step first.
  const size_t n = r.count();
  std::vector<std::vector<V>> cell_in(n), cell_out(n);
  std::vector<V> d_ah(n);
  V dh;
  for (int64_t k = steps.count - 1; k >= 0; --k) {
    const int64_t t = steps.at(k);
    V dh_t = add_or_first(b, dy[t], dh);
    if (is_scalar(b, dh_t)) dh_t = b.broadcast_to(dh_t, std::vector<int64_t>{r.batch, r.hidden});
    cell_in[t] = {gx[t], hg[t], h_prev(t), zero_bias, bias, dh_t};
    cell_out[t] = b.emitter().emit_outputs(cell_grad, cell_in[t]);
    d_ah[t] = b.add(cell_out[t][1], dhg[t]);
    dh = b.add(cell_out[t][2], b.matmul(d_ah[t], w, false, false));
  }

  // 2. Their adjoints, first step first.
  std::vector<V> g_x(n), g_hg(n), g_y(n), g_dy(n), g_dhg(n);
  V ah = b.dout(1), g_w, g_bias, g_h0;
  for (int64_t k = 0; k < steps.count; ++k) {
    const int64_t t = steps.at(k);
    V g_dah = b.add(b.matmul(ah, w, false, true), b.matmul(h_prev(t), u_w, false, true));
    g_w = add_or_first(b, b.matmul(d_ah[t], ah, true, false), g_w);
    V douts[3] = {u_gx[t], b.add(g_dah, u_bias), ah};  // dbias_hh sums dH_t, not dhidden_gates
    std::vector<V> g = cell_grad.def().bprop(b.emitter(), BpropArgs{cell_grad, cell_in[t], cell_out[t], douts});
    const int64_t p = steps.prev(t);
    (p < 0 ? g_h0 : g_y[p]) = b.add(g[2], b.matmul(d_ah[t], u_w, false, false));
    g_bias = add_or_first(b, g[4], g_bias);
    g_x[t] = g[0];
    g_hg[t] = g[1];
    g_dhg[t] = g_dah;
    g_dy[t] = g[5];
    ah = g[5];
  }
  const int64_t last = steps.at(steps.count - 1);  // its y feeds no later step
  g_y[last] = b.emitter().zeros_like(y[last]);
  return {stacked(b, g_x, b.input(0)), g_h0, g_w, g_bias, stacked(b, g_y, b.input(4)), stacked(b, g_hg, b.input(5)),
          stacked(b, g_dy, b.input(6)), stacked(b, g_dhg, b.input(7))};
}

}  // namespace

BpropFn lstm_recurrence_bprop() { return bprop_rule(lstm_bprop); }
BpropFn lstm_recurrence_grad_bprop() { return bprop_rule(lstm_grad_bprop); }
BpropFn gru_recurrence_bprop() { return bprop_rule(gru_bprop); }
BpropFn gru_recurrence_grad_bprop() { return bprop_rule(gru_grad_bprop); }

}  // namespace sprout
