// Vectorized loops of the fused LSTM/GRU cell kernels (Highway, dispatched at run time as in simd.cc).
// Each call does n consecutive hidden units of one batch row; sigmoid and tanh are the same vector
// code as the Sigmoid and Tanh kernels, so the fused ops agree with the composites they replace.
#pragma once

#include <cstdint>

namespace sprout {

// The four gate inputs of a cell op, each pointing at gate 0 of the first unit: gate k of unit j is at
// [k * stride + j] (stride = hidden size within a row; the biases are one row).
template <class T>
struct CellGates {
  const T* input_gates;
  const T* hidden_gates;
  const T* input_bias;
  const T* hidden_bias;
  int64_t stride;
};

// LSTM, gates (i, f, g, o): cy = sigmoid(f) cx + sigmoid(i) tanh(g), hy = sigmoid(o) tanh(cy).
void simd_lstm_cell(const CellGates<float>& g, const float* cx, float* hy, float* cy, int64_t n);
void simd_lstm_cell(const CellGates<double>& g, const double* cx, double* hy, double* cy, int64_t n);
// d_gates (gate k of unit j at [k * g.stride + j]) and dcx from the sensitivities dhy, dcy.
void simd_lstm_cell_grad(const CellGates<float>& g, const float* cx, const float* dhy, const float* dcy,
                         float* d_gates, float* dcx, int64_t n);
void simd_lstm_cell_grad(const CellGates<double>& g, const double* cx, const double* dhy, const double* dcy,
                         double* d_gates, double* dcx, int64_t n);

// GRU, gates (r, z, n): hy = n + z (hx - n), n = tanh(x_n + r h_n) (x, h: gates plus biases).
void simd_gru_cell(const CellGates<float>& g, const float* hx, float* hy, int64_t n);
void simd_gru_cell(const CellGates<double>& g, const double* hx, double* hy, int64_t n);
// d_input_gates, d_hidden_gates (laid out as the gates) and dhx from the sensitivity dhy.
void simd_gru_cell_grad(const CellGates<float>& g, const float* hx, const float* dhy, float* d_input_gates,
                        float* d_hidden_gates, float* dhx, int64_t n);
void simd_gru_cell_grad(const CellGates<double>& g, const double* hx, const double* dhy, double* d_input_gates,
                        double* d_hidden_gates, double* dhx, int64_t n);

}  // namespace sprout
