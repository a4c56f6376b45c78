// Vectorized inner loops of the activation and softmax kernels (Highway, dispatched at run time for
// the machine's instruction set as in simd.cc). Callers pass contiguous runs of float or double.
//
// Note [Activation edge values]
// Every function here gives the IEEE limit at the edges: NaN in gives NaN out; +-inf give the
// activation's limits (sigmoid(-inf) = 0, silu(-inf) = 0, softplus(inf) = inf ...), never the NaN
// of inf * 0. Exponentials are only ever taken of non-positive arguments (exp(-|x|)), so nothing
// overflows; results below the smallest normal number flush to 0.
#pragma once

#include <cstdint>

namespace sprout {

enum class Activation : uint8_t {
  ReLU, ReLU6, LeakyReLU, Elu, GeLU, GeLUTanh, SiLU, Mish, HSwish, HSigmoid, Sigmoid, Softplus,
};

// out[i] = act(x[i]); `alpha` is the slope of LeakyReLU and the scale of Elu (ignored otherwise).
void simd_activation(Activation act, float alpha, const float* x, float* out, int64_t n);
void simd_activation(Activation act, double alpha, const double* x, double* out, int64_t n);

// The activations whose derivative has a fused kernel (their composite bprop cost 7-10x the forward).
// SigmoidFromOutput takes the forward's output y instead of x: sigmoid' = y (1 - y).
enum class ActivationGrad : uint8_t { ReLU, GeLU, GeLUTanh, SiLU, SigmoidFromOutput };

// out[i] = dy[i] * act'(x[i]).
void simd_activation_grad(ActivationGrad act, const float* dy, const float* x, float* out, int64_t n);
void simd_activation_grad(ActivationGrad act, const double* dy, const double* x, double* out, int64_t n);

// out[i] = exp(x[i] - shift) (out may be null: nothing stored); returns the sum of those values.
// The softmax of a row with shift = its maximum. With `next`, also sets *next_max to the max of
// next[0..n), NaN possibly ignored: the next row's first pass overlapped with this row's exp (Note
// [Softmax rows pipelined]).
float simd_exp_shifted_sum(const float* x, float shift, float* out, int64_t n, const float* next = nullptr,
                           float* next_max = nullptr);
double simd_exp_shifted_sum(const double* x, double shift, double* out, int64_t n, const double* next = nullptr,
                            double* next_max = nullptr);

// out[i] = scale * exp(x[i] - shift) - w_scale * w[i] (no w term when w is null): a row of a softmax
// from its log-sum-exp, scaled, in one pass (CrossEntropyGrad, LogSoftmaxGrad). x[i] - shift must be at
// most 20 (exp_flush's domain): a log-probability, or logits less their log-sum-exp.
void simd_scaled_exp_shifted(const float* x, float shift, float scale, const float* w, float w_scale, float* out,
                             int64_t n);
void simd_scaled_exp_shifted(const double* x, double shift, double scale, const double* w, double w_scale,
                             double* out, int64_t n);

// out[i] = exp(x[i] - shift[i]); sum[i] += out[i]: one row of a softmax over an outer axis.
void simd_exp_shifted_accumulate(const float* x, const float* shift, float* out, float* sum, int64_t n);
void simd_exp_shifted_accumulate(const double* x, const double* shift, double* out, double* sum, int64_t n);
// Softmax's gradient over `rows` contiguous rows of n: dx = (dy - sum(dy * y)) * y per row, one call for
// all of them (per-row calls cost more than the arithmetic of a 128-long row).
void simd_softmax_grad_rows(const float* y, const float* dy, float* dx, int64_t rows, int64_t n);
void simd_softmax_grad_rows(const double* y, const double* dy, double* dx, int64_t rows, int64_t n);

}  // namespace sprout
