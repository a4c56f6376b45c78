// Bprop rules of the fused cell ops (Note [Fused cell gradients] in nn_rnn_cell.cc). The forward ops'
// rules call the fused grad ops; the grad ops' rules are the second derivatives written from registry
// ops (Sigmoid, Tanh, Split, Concat), for higher-order gradients only, where speed does not matter.
#include "ops/nn_act_bprop.h"
#include "ops/nn_rnn_cell.h"

namespace sprout {
namespace {

using nn::V;

std::vector<V> emit_grad_op(BpropBuilder& b, const char* op) {
  std::vector<V> in(b.inputs().begin(), b.inputs().end());
  for (size_t k = 0; k < b.outputs().size(); ++k) in.push_back(b.dout(k));
  return b.emitter().emit_outputs(Primitive::make(op), in);
}

V sum_batch(BpropBuilder& b, V v) { return b.reduce_sum(v, {0}, false); }

std::vector<V> split_gates(BpropBuilder& b, V v, int64_t gates) {
  return b.emitter().emit_outputs(Primitive::make("Split").with_attr("axis", int64_t{1}).with_attr("output_num", gates),
                                  std::vector<V>{v});
}

V concat_gates(BpropBuilder& b, std::vector<V> parts) {
  return b.emitter().emit_outputs(Primitive::make("Concat").with_attr("axis", int64_t{1}), parts)[0];
}

V sigmoid(BpropBuilder& b, V x) { return nn::sigmoid(b, x); }
V tanh(BpropBuilder& b, V x) { return b.emitter().emit("Tanh", {x}); }
V one_minus(BpropBuilder& b, V x) { return nn::rsub_scalar(b, 1, x); }
// 1 - 2 x: with s = sigmoid(a), s'' = s' (1 - 2 s).
V one_minus_twice(BpropBuilder& b, V x) { return nn::rsub_scalar(b, 1, nn::mul_scalar(b, x, 2)); }

// The summed pre-activations, in the kernels' order of addition: (input_gates + input_bias) +
// (hidden_gates + hidden_bias).
V lstm_preactivations(BpropBuilder& b) {
  return b.add(b.add(b.input(0), b.input(3)), b.add(b.input(1), b.input(4)));
}

// The bias gradients (sums over the batch) only where wanted: a layer without biases passes zeros.
V bias_grad(BpropBuilder& b, size_t input, V d_gates) { return b.wants(input) ? sum_batch(b, d_gates) : V{}; }

std::vector<V> lstm_bprop(BpropBuilder& b) {
  std::vector<V> g = emit_grad_op(b, "LSTMCellPointwiseGrad");
  V d_bias = b.wants(3) || b.wants(4) ? sum_batch(b, g[0]) : V{};
  return {g[0], g[0], g[1], b.wants(3) ? d_bias : V{}, b.wants(4) ? d_bias : V{}};
}

// LSTMCellPointwiseGrad(a, cx, dh, dc) -> (E_i, E_f, E_g, E_o, E_c) with i, f, o = sigmoid, g = tanh of the
// parts of a, c = f cx + i g, t = tanh(c), D = dc + dh o (1 - t^2):
//   E_i = D g i',  E_f = D cx f',  E_g = D i g',  E_o = dh t o',  E_c = D f   (i' = i (1 - i) ...).
// With cotangents u_* and u_c, L = D K + u_o dh t o', K = u_i g i' + u_f cx f' + u_g i g' + u_c f; then
// dL/dt = -2 K dh o t + u_o dh o' flows to the gates through c, and K, D and the last term give the rest.
std::vector<V> lstm_grad_bprop(BpropBuilder& b) {
  V cx = b.input(2), dh = b.input(5), dc = b.input(6);
  std::vector<V> a = split_gates(b, lstm_preactivations(b), 4), u = split_gates(b, b.dout(0), 4);
  V uc = b.dout(1);
  V i = sigmoid(b, a[0]), f = sigmoid(b, a[1]), g = tanh(b, a[2]), o = sigmoid(b, a[3]);
  V di = b.mul(i, one_minus(b, i)), df = b.mul(f, one_minus(b, f)), dg = one_minus(b, b.mul(g, g));
  V d_o = b.mul(o, one_minus(b, o));
  V t = tanh(b, b.add(b.mul(f, cx), b.mul(i, g)));
  V dt = one_minus(b, b.mul(t, t));
  V big_d = b.add(dc, b.mul(b.mul(dh, o), dt));
  V k = b.add(b.add(b.mul(b.mul(u[0], g), di), b.mul(b.mul(u[1], cx), df)),
              b.add(b.mul(b.mul(u[2], i), dg), b.mul(uc, f)));
  V g_t = b.add(nn::mul_scalar(b, b.mul(b.mul(k, dh), b.mul(o, t)), -2), b.mul(b.mul(u[3], dh), d_o));
  V g_c = b.mul(g_t, dt);  // through c = f cx + i g
  V ga_i = b.mul(di, b.add(b.mul(big_d, b.add(b.mul(b.mul(u[0], g), one_minus_twice(b, i)), b.mul(u[2], dg))),
                           b.mul(g_c, g)));
  V ga_f = b.mul(df, b.add(b.mul(big_d, b.add(b.mul(b.mul(u[1], cx), one_minus_twice(b, f)), uc)), b.mul(g_c, cx)));
  V ga_g = b.mul(dg, b.add(b.mul(big_d, b.sub(b.mul(u[0], di), nn::mul_scalar(b, b.mul(b.mul(u[2], i), g), 2))),
                           b.mul(g_c, i)));
  V ga_o = b.mul(b.mul(d_o, dh), b.add(b.mul(k, dt), b.mul(b.mul(u[3], t), one_minus_twice(b, o))));
  V g_cx = b.add(b.mul(b.mul(big_d, u[1]), df), b.mul(g_c, f));
  V g_dh = b.add(b.mul(b.mul(k, o), dt), b.mul(b.mul(u[3], t), d_o));
  V ga = concat_gates(b, {ga_i, ga_f, ga_g, ga_o});
  V g_bias = sum_batch(b, ga);
  return {ga, ga, g_cx, g_bias, g_bias, g_dh, k};
}

std::vector<V> gru_bprop(BpropBuilder& b) {
  std::vector<V> g = emit_grad_op(b, "GRUCellPointwiseGrad");
  return {g[0], g[1], g[2], bias_grad(b, 3, g[0]), bias_grad(b, 4, g[1])};
}

// GRUCellPointwiseGrad(x, h, hx, dh) with x = input_gates + input_bias, h = hidden_gates + hidden_bias,
// r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), n = tanh(x_n + r h_n), N = dh (1 - z) n' gives
//   d_input_gates = (N h_n r', dh (hx - n) z', N), d_hidden_gates = (N h_n r', dh (hx - n) z', N r), dhx = dh z.
// With cotangents u (input), v (hidden), w (dhx), U_r = u_r + v_r, U_z = u_z + v_z:
// L = N P + U_z dh (hx - n) z' + w dh z, P = U_r h_n r' + u_n + v_n r.
std::vector<V> gru_grad_bprop(BpropBuilder& b) {
  V hx = b.input(2), dh = b.input(5);
  std::vector<V> x = split_gates(b, b.add(b.input(0), b.input(3)), 3);
  std::vector<V> h = split_gates(b, b.add(b.input(1), b.input(4)), 3);
  std::vector<V> u = split_gates(b, b.dout(0), 3), v = split_gates(b, b.dout(1), 3);
  V w = b.dout(2);
  V r = sigmoid(b, b.add(x[0], h[0])), z = sigmoid(b, b.add(x[1], h[1]));
  V n = tanh(b, b.add(x[2], b.mul(r, h[2])));
  V dr = b.mul(r, one_minus(b, r)), dz = b.mul(z, one_minus(b, z)), dn = one_minus(b, b.mul(n, n));
  V one_minus_z = one_minus(b, z), hx_minus_n = b.sub(hx, n);
  V big_n = b.mul(b.mul(dh, one_minus_z), dn);
  V ur = b.add(u[0], v[0]), uz = b.add(u[1], v[1]);
  V p = b.add(b.mul(b.mul(ur, h[2]), dr), b.add(u[2], b.mul(v[2], r)));
  V uz_dh_dz = b.mul(b.mul(uz, dh), dz);
  // dL/dn, through n' = 1 - n^2 and hx - n, then through n = tanh(pre_n).
  V g_pre_n = b.neg(b.mul(dn, b.add(nn::mul_scalar(b, b.mul(b.mul(n, dh), b.mul(one_minus_z, p)), 2), uz_dh_dz)));
  V ga_r = b.mul(dr, b.add(b.mul(big_n, b.add(b.mul(b.mul(ur, h[2]), one_minus_twice(b, r)), v[2])),
                           b.mul(g_pre_n, h[2])));
  V ga_z = b.mul(b.mul(dh, dz), b.add(b.sub(w, b.mul(dn, p)), b.mul(b.mul(uz, hx_minus_n), one_minus_twice(b, z))));
  V g_hn = b.add(b.mul(b.mul(big_n, ur), dr), b.mul(g_pre_n, r));
  V g_hx = uz_dh_dz;
  V g_dh = b.add(b.add(b.mul(b.mul(one_minus_z, dn), p), b.mul(b.mul(uz, hx_minus_n), dz)), b.mul(w, z));
  V g_in = concat_gates(b, {ga_r, ga_z, g_pre_n}), g_hid = concat_gates(b, {ga_r, ga_z, g_hn});
  return {g_in, g_hid, g_hx, sum_batch(b, g_in), sum_batch(b, g_hid), g_dh};
}

}  // namespace

BpropFn lstm_cell_bprop() { return bprop_rule(lstm_bprop); }
BpropFn lstm_cell_grad_bprop() { return bprop_rule(lstm_grad_bprop); }
BpropFn gru_cell_bprop() { return bprop_rule(gru_bprop); }
BpropFn gru_cell_grad_bprop() { return bprop_rule(gru_grad_bprop); }

}  // namespace sprout
