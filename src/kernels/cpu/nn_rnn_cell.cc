// CPU kernels of the fused cell ops (src/ops/nn_rnn_cell.cc): batch rows split across threads, each row
// one call of the Highway loops of nn_rnn_cell_simd.cc. Float32/Float64 inputs that are contiguous are
// read in place; other layouts, and Float16/BFloat16 (computed in float, as the activation kernels do),
// go through contiguous compute-type copies.
#include <array>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_rnn_cell_simd.h"
#include "kernels/cpu/parallel.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

DType compute_dtype(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

// The kernel's inputs as contiguous tensors of the compute dtype, and outputs it can write directly:
// the real outputs when they already are such, else scratch tensors copied back by finish().
struct ComputeBuffers {
  std::vector<Tensor> in, out;
  std::span<Tensor> real_out;

  ComputeBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) : real_out(outputs) {
    const DType c = compute_dtype(inputs[0].dtype());
    for (const Tensor& t : inputs) in.push_back(contiguous_as(t, c));
    for (Tensor& t : outputs)
      out.push_back(t.dtype() == c && t.is_contiguous() ? t : Tensor::empty(t.shape(), c));
  }
  template <class C>
  const C* in_data(size_t i) const { return static_cast<const C*>(in[i].raw_data()); }
  template <class C>
  C* out_data(size_t i) { return static_cast<C*>(out[i].raw_data()); }
  void finish() {
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].raw_data() != real_out[i].raw_data()) convert_into(out[i], real_out[i]);
  }
};

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
