// CPU kernels of the fused cell ops (src/ops/nn_rnn_cell.cc): batch rows split across threads, each row
// one call of the Highway loops of nn_rnn_cell_simd.cc, on ComputeBuffers (nn_rnn_buffers.h).
#include <array>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_rnn_buffers.h"
#include "kernels/cpu/nn_rnn_cell_simd.h"
#include "base/parallel.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Runs fn(C-typed buffers, row gates, row) for each batch row, rows split across threads. The work per
// element is a few exps, so a block of rows is worth a thread at an eighth of the elementwise grain.
template <class Fn>
void for_each_row(ComputeBuffers& buf, int64_t gates, Fn&& fn) {
  const int64_t batch = buf.in[2].shape()[0], hidden = buf.in[2].shape()[1];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(1, gates * hidden));
  auto run = [&](auto zero) {
    using C = decltype(zero);
    parallel_for(batch, grain, [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; ++row) {
        const int64_t at = row * gates * hidden;
        CellGates<C> g{buf.in_data<C>(0) + at, buf.in_data<C>(1) + at, buf.in_data<C>(3), buf.in_data<C>(4), hidden};
        fn(zero, g, row * hidden, at);
      }
    });
  };
  if (buf.in[0].dtype() == DType::Float64) {
    run(double{});
  } else {
    run(float{});
  }
  buf.finish();
}

// (input_gates, hidden_gates, cx, input_bias, hidden_bias) -> (hy, cy)
void lstm_cell_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  ComputeBuffers buf(in, out);
  const int64_t hidden = in[2].shape()[1];
  for_each_row(buf, 4, [&](auto zero, const auto& g, int64_t state, int64_t) {
    using C = decltype(zero);
    simd_lstm_cell(g, buf.in_data<C>(2) + state, buf.out_data<C>(0) + state, buf.out_data<C>(1) + state, hidden);
  });
}

// (input_gates, hidden_gates, cx, input_bias, hidden_bias, dhy, dcy) -> (d_gates, dcx)
void lstm_cell_grad_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  ComputeBuffers buf(in, out);
  const int64_t hidden = in[2].shape()[1];
  for_each_row(buf, 4, [&](auto zero, const auto& g, int64_t state, int64_t gates) {
    using C = decltype(zero);
    simd_lstm_cell_grad(g, buf.in_data<C>(2) + state, buf.in_data<C>(5) + state, buf.in_data<C>(6) + state,
                        buf.out_data<C>(0) + gates, buf.out_data<C>(1) + state, hidden);
  });
}

// (input_gates, hidden_gates, hx, input_bias, hidden_bias) -> hy
void gru_cell_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  ComputeBuffers buf(in, out);
  const int64_t hidden = in[2].shape()[1];
  for_each_row(buf, 3, [&](auto zero, const auto& g, int64_t state, int64_t) {
    using C = decltype(zero);
    simd_gru_cell(g, buf.in_data<C>(2) + state, buf.out_data<C>(0) + state, hidden);
  });
}

// (input_gates, hidden_gates, hx, input_bias, hidden_bias, dhy) -> (d_input_gates, d_hidden_gates, dhx)
void gru_cell_grad_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  ComputeBuffers buf(in, out);
  const int64_t hidden = in[2].shape()[1];
  for_each_row(buf, 3, [&](auto zero, const auto& g, int64_t state, int64_t gates) {
    using C = decltype(zero);
    simd_gru_cell_grad(g, buf.in_data<C>(2) + state, buf.in_data<C>(5) + state, buf.out_data<C>(0) + gates,
                       buf.out_data<C>(1) + gates, buf.out_data<C>(2) + state, hidden);
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_rnn_cell) {
  register_kernel<NoAttrs>("LSTMCellPointwise", Device::CPU, lstm_cell_kernel);
  register_kernel<NoAttrs>("LSTMCellPointwiseGrad", Device::CPU, lstm_cell_grad_kernel);
  register_kernel<NoAttrs>("GRUCellPointwise", Device::CPU, gru_cell_kernel);
  register_kernel<NoAttrs>("GRUCellPointwiseGrad", Device::CPU, gru_cell_grad_kernel);
}

}  // namespace sprout
