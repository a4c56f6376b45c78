// CPU kernels of LSTMRecurrence, GRURecurrence and their Grad ops (src/ops/nn_rnn_sequence.cc, Note [The
// recurrence as one op]): per step one GEMM (gemm.h) and the fused cell loops of nn_rnn_cell_simd.cc, batch rows
// split across threads, on ComputeBuffers (nn_rnn_buffers.h).
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/nn_rnn_buffers.h"
#include "kernels/cpu/nn_rnn_cell_simd.h"
#include "kernels/cpu/simd.h"
#include "base/parallel.h"
#include "ops/nn_rnn_sequence.h"

namespace sprout {
namespace {

// Sizes and step order of one recurrence.
struct Sequence {
  int64_t steps, batch, hidden, gate_count;
  bool reverse;
  int64_t at(int64_t k) const { return reverse ? steps - 1 - k : k; }  // the k-th step run
  int64_t prev(int64_t t) const { return reverse ? (t + 1 < steps ? t + 1 : -1) : t - 1; }  // -1: h0, c0
  int64_t state(int64_t t) const { return t * batch * hidden; }  // offset of step t in y, cells
  int64_t gates(int64_t t) const { return t * batch * gate_count * hidden; }  // ... in the gate tensors
};

Sequence sequence_of(const Tensor& input_gates, int64_t gate_count, bool reverse) {
  const Shape& s = input_gates.shape();
  return {s[0], s[1], s[2] / gate_count, gate_count, reverse};
}

// fn(row) for each batch row, rows split across threads (a few exps per gate: the cell ops' grain).
template <class Fn>
void for_each_row(const Sequence& s, Fn&& fn) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / 8 / (s.gate_count * s.hidden));
  parallel_for(s.batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) fn(row);
  });
}

// dW = sum_t d_ah[t]^T h_prev_t over all steps in two GEMMs: the steps whose h_prev is a row block of y
// (y shifted by one step), then the one after h0.
template <class C>
void weight_gradient(const Sequence& s, const C* d_ah, const C* y, const C* h0, C* dw) {
  const int64_t g = s.gate_count * s.hidden, h = s.hidden;
  const int64_t chained = (s.steps - 1) * s.batch;
  if (chained > 0) {
    const C* d_from = d_ah + (s.reverse ? 0 : s.gates(1));
    const C* h_from = y + (s.reverse ? s.state(1) : 0);
    gemm<C>({d_from, g, true}, {h_from, h, false}, dw, g, h, chained);
  }
  gemm<C>({d_ah + s.gates(s.at(0)), g, true}, {h0, h, false}, dw, g, h, s.batch, chained > 0);
}

// (input_gates, h0, c0, weight_hh) -> (y, cells, hidden_gates)
template <class C>
void lstm_recurrence(ComputeBuffers& buf, const Sequence& s) {
  const C *gx = buf.in_data<C>(0), *w = buf.in_data<C>(3);
  C *y = buf.out_data<C>(0), *cells = buf.out_data<C>(1), *hg = buf.out_data<C>(2);
  const std::vector<C> zero_bias(static_cast<size_t>(4 * s.hidden), C(0));
  const int64_t h = s.hidden, g = 4 * s.hidden;
  FixedRightGemm<C> times_w_t({w, h, true}, s.batch, g, h, h);  // h_prev weight_hh^T
  for (int64_t k = 0; k < s.steps; ++k) {
    const int64_t t = s.at(k), p = s.prev(t);
    const C* h_prev = p < 0 ? buf.in_data<C>(1) : y + s.state(p);
    const C* c_prev = p < 0 ? buf.in_data<C>(2) : cells + s.state(p);
    C* hg_t = hg + s.gates(t);
    times_w_t.run(h_prev, hg_t);
    for_each_row(s, [&](int64_t row) {
      const CellGates<C> gates{gx + s.gates(t) + row * g, hg_t + row * g, zero_bias.data(), zero_bias.data(), h};
      simd_lstm_cell(gates, c_prev + row * h, y + s.state(t) + row * h, cells + s.state(t) + row * h, h);
    });
  }
}

// A sensitivity input: the (steps, batch, width) tensor, or one value broadcast (0-d).
template <class C>
struct Sensitivity {
  const C* data;
  bool broadcast;
  C at(int64_t i) const { return broadcast ? data[0] : data[i]; }
  bool zero() const { return broadcast && data[0] == C(0); }
};

// (input_gates, h0, c0, weight_hh, y, cells, hidden_gates, dy, dcells, dhidden_gates)
//   -> (d_input_gates, dh0, dc0, dweight_hh)
// Steps last to first: dh = dy_t + (dh from the later step), dc likewise; the fused cell gradient gives
// d_input_gates[t] and the dc passed back; dh passed back = (d_input_gates[t] + dhidden_gates[t]) W.
// Then dW = sum_t (d_input_gates[t] + dhidden_gates[t])^T h_prev_t as one GEMM over all steps but the
// one whose h_prev is h0, plus that step's.
template <class C>
void lstm_recurrence_grad(ComputeBuffers& buf, const Sequence& s) {
  const C *gx = buf.in_data<C>(0), *h0 = buf.in_data<C>(1), *c0 = buf.in_data<C>(2), *w = buf.in_data<C>(3);
  const C *y = buf.in_data<C>(4), *cells = buf.in_data<C>(5), *hg = buf.in_data<C>(6);
  auto sensitivity = [&](size_t i) { return Sensitivity<C>{buf.in_data<C>(i), buf.in[i].ndim() == 0}; };
  const Sensitivity<C> dy = sensitivity(7), dcells = sensitivity(8), dhg = sensitivity(9);
  C *d_gates = buf.out_data<C>(0), *dh0 = buf.out_data<C>(1), *dc0 = buf.out_data<C>(2), *dw = buf.out_data<C>(3);
  const int64_t h = s.hidden, g = 4 * s.hidden, state = s.batch * h;
  // The products with W and h_prev read d_gates + dhidden_gates: d_gates itself unless that is zero.
  std::vector<C> with_dhg(dhg.zero() ? 0 : static_cast<size_t>(s.steps * s.batch * g));
  C* d_ah = dhg.zero() ? d_gates : with_dhg.data();
  const std::vector<C> zero_bias(static_cast<size_t>(g), C(0));
  std::vector<C> dh(static_cast<size_t>(state)), dc(dh.size()), dh_back(dh.size(), C(0)), dc_back(dh.size(), C(0));
  FixedRightGemm<C> times_w({w, h, false}, s.batch, h, g, g);  // d_ah weight_hh
  for (int64_t k = s.steps - 1; k >= 0; --k) {
    const int64_t t = s.at(k), p = s.prev(t);
    const C* c_prev = p < 0 ? c0 : cells + s.state(p);
    for_each_row(s, [&](int64_t row) {
      for (int64_t j = row * h, end = j + h; j < end; ++j) {
        dh[j] = dy.at(s.state(t) + j) + dh_back[j];
        dc[j] = dcells.at(s.state(t) + j) + dc_back[j];
      }
      const int64_t at = s.gates(t) + row * g;
      const CellGates<C> gates{gx + at, hg + at, zero_bias.data(), zero_bias.data(), h};
      simd_lstm_cell_grad(gates, c_prev + row * h, dh.data() + row * h, dc.data() + row * h, d_gates + at,
                          dc_back.data() + row * h, h);
      if (d_ah != d_gates)
        for (int64_t j = at; j < at + g; ++j) d_ah[j] = d_gates[j] + dhg.at(j);
    });
    times_w.run(d_ah + s.gates(t), k == 0 ? dh0 : dh_back.data());
  }
  std::copy(dc_back.begin(), dc_back.end(), dc0);
  weight_gradient(s, d_ah, y, h0, dw);
}

// (input_gates, h0, weight_hh, bias_hh) -> (y, hidden_gates)
template <class C>
void gru_recurrence(ComputeBuffers& buf, const Sequence& s) {
  const C *gx = buf.in_data<C>(0), *w = buf.in_data<C>(2), *bias = buf.in_data<C>(3);
  C *y = buf.out_data<C>(0), *hg = buf.out_data<C>(1);
  const std::vector<C> zero_bias(static_cast<size_t>(3 * s.hidden), C(0));
  const int64_t h = s.hidden, g = 3 * s.hidden;
  FixedRightGemm<C> times_w_t({w, h, true}, s.batch, g, h, h);  // h_prev weight_hh^T
  for (int64_t k = 0; k < s.steps; ++k) {
    const int64_t t = s.at(k), p = s.prev(t);
    const C* h_prev = p < 0 ? buf.in_data<C>(1) : y + s.state(p);
    C* hg_t = hg + s.gates(t);
    times_w_t.run(h_prev, hg_t);
    for_each_row(s, [&](int64_t row) {
      const CellGates<C> gates{gx + s.gates(t) + row * g, hg_t + row * g, zero_bias.data(), bias, h};
      simd_gru_cell(gates, h_prev + row * h, y + s.state(t) + row * h, h);
    });
  }
}

// (input_gates, h0, weight_hh, bias_hh, y, hidden_gates, dy, dhidden_gates)
//   -> (d_input_gates, dh0, dweight_hh, dbias_hh)
// Steps last to first: dh = dy_t + (dh from the later step); the fused cell gradient gives
// d_input_gates[t], the hidden gates' gradient dH_t and dhx; dh passed back = dhx + dAh_t W with
// dAh_t = dH_t + dhidden_gates[t]. Then dW = sum_t dAh_t^T h_prev_t in two GEMMs as for the LSTM, and
// dbias_hh sums dH over all rows (hidden_gates does not include the bias).
template <class C>
void gru_recurrence_grad(ComputeBuffers& buf, const Sequence& s) {
  const C *gx = buf.in_data<C>(0), *h0 = buf.in_data<C>(1), *w = buf.in_data<C>(2), *bias = buf.in_data<C>(3);
  const C *y = buf.in_data<C>(4), *hg = buf.in_data<C>(5);
  auto sensitivity = [&](size_t i) { return Sensitivity<C>{buf.in_data<C>(i), buf.in[i].ndim() == 0}; };
  const Sensitivity<C> dy = sensitivity(6), dhg = sensitivity(7);
  C *d_gates = buf.out_data<C>(0), *dh0 = buf.out_data<C>(1), *dw = buf.out_data<C>(2), *dbias = buf.out_data<C>(3);
  const int64_t h = s.hidden, g = 3 * s.hidden, state = s.batch * h;
  // The hidden gates' gradient dH (bias_hh's), and dAh = dH + dhidden_gates for the products with W
  // and h_prev: the same buffer unless dhidden_gates is nonzero.
  std::vector<C> d_hidden(static_cast<size_t>(s.steps * s.batch * g)), with_dhg(dhg.zero() ? 0 : d_hidden.size());
  C* d_ah = dhg.zero() ? d_hidden.data() : with_dhg.data();
  const std::vector<C> zero_bias(static_cast<size_t>(g), C(0));
  std::vector<C> dh(static_cast<size_t>(state)), dhx(dh.size()), dh_back(dh.size(), C(0));
  FixedRightGemm<C> times_w({w, h, false}, s.batch, h, g, g);  // d_ah weight_hh
  for (int64_t k = s.steps - 1; k >= 0; --k) {
    const int64_t t = s.at(k), p = s.prev(t);
    const C* h_prev = p < 0 ? h0 : y + s.state(p);
    for_each_row(s, [&](int64_t row) {
      for (int64_t j = row * h, end = j + h; j < end; ++j) dh[j] = dy.at(s.state(t) + j) + dh_back[j];
      const int64_t at = s.gates(t) + row * g;
      const CellGates<C> gates{gx + at, hg + at, zero_bias.data(), bias, h};
      simd_gru_cell_grad(gates, h_prev + row * h, dh.data() + row * h, d_gates + at, d_hidden.data() + at,
                         dhx.data() + row * h, h);
      if (d_ah != d_hidden.data())
        for (int64_t j = at; j < at + g; ++j) d_ah[j] = d_hidden[j] + dhg.at(j);
    });
    C* back = k == 0 ? dh0 : dh_back.data();
    times_w.run(d_ah + s.gates(t), back);
    for (int64_t j = 0; j < state; ++j) back[j] += dhx[j];
  }
  weight_gradient(s, d_ah, y, h0, dw);
  simd_reduce_columns(ReduceOp::Sum, d_hidden.data(), s.steps * s.batch, g, dbias, g);
}

// Runs fn(buffers, sizes, zero of the compute type) for a recurrence with `gates` gates per unit. With
// no rows nothing runs: only the outputs listed in `zero_when_empty` (the weight gradients) have
// elements, and they are zero.
template <class Fn>
void run_sequence(std::span<const Tensor> in, std::span<Tensor> out, int64_t gates, bool reverse,
                  std::initializer_list<size_t> zero_when_empty, Fn&& fn) {
  const Sequence s = sequence_of(in[0], gates, reverse);
  if (s.batch == 0) {
    for (size_t i : zero_when_empty) std::memset(out[i].raw_data(), 0, out[i].nbytes());  // outputs are contiguous
    return;
  }
  ComputeBuffers buf(in, out);
  if (buf.in[0].dtype() == DType::Float64) {
    fn(buf, s, double{});
  } else {
    fn(buf, s, float{});
  }
  buf.finish();
}

void lstm_recurrence_kernel(const RecurrenceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_sequence(in, out, 4, a.reverse, {}, [](ComputeBuffers& buf, const Sequence& s, auto zero) {
    lstm_recurrence<decltype(zero)>(buf, s);
  });
}

void lstm_recurrence_grad_kernel(const RecurrenceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_sequence(in, out, 4, a.reverse, {3}, [](ComputeBuffers& buf, const Sequence& s, auto zero) {
    lstm_recurrence_grad<decltype(zero)>(buf, s);
  });
}

void gru_recurrence_kernel(const RecurrenceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_sequence(in, out, 3, a.reverse, {}, [](ComputeBuffers& buf, const Sequence& s, auto zero) {
    gru_recurrence<decltype(zero)>(buf, s);
  });
}

void gru_recurrence_grad_kernel(const RecurrenceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_sequence(in, out, 3, a.reverse, {2, 3}, [](ComputeBuffers& buf, const Sequence& s, auto zero) {
    gru_recurrence_grad<decltype(zero)>(buf, s);
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_rnn_sequence) {
  register_kernel<RecurrenceAttrs>("LSTMRecurrence", Device::CPU, lstm_recurrence_kernel);
  register_kernel<RecurrenceAttrs>("LSTMRecurrenceGrad", Device::CPU, lstm_recurrence_grad_kernel);
  register_kernel<RecurrenceAttrs>("GRURecurrence", Device::CPU, gru_recurrence_kernel);
  register_kernel<RecurrenceAttrs>("GRURecurrenceGrad", Device::CPU, gru_recurrence_grad_kernel);
}

}  // namespace sprout
