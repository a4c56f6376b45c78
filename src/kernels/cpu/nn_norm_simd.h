// Vectorized float32 normalization kernels (Highway, dispatched at run time as in simd.cc).
// BatchNorm's per-channel passes (Note [BatchNorm kernels]): the sums, float32 data accumulated in double
// with four independent vector accumulators (the compiler's `omp simd` reduction kept one and waited on
// its add latency: half the memory bandwidth), and the loops that write y and dx.
// LayerNorm's rows: Note [LayerNorm rows].
#pragma once

#include <cstdint>

#include "kernels/cpu/simd.h"

namespace sprout {

// Sums over one channel of an NCHW tensor: `runs` runs of `plane` floats, run r at x + r * stride, in
// double (Note [BatchNorm channel sums]).
// sum(x - shift) and sum((x - shift)^2).
void simd_channel_moments(const float* x, int64_t plane, int64_t runs, int64_t stride, double shift, double* sum,
                          double* sum_sq);
// sum(dy) and sum(dy * (x - mu)), dy laid out as x.
void simd_channel_grad_sums(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                            double* sum_dy, double* sum_dy_dev);
// y = (x - mu) * gain + beta, y laid out as x.
void simd_channel_affine(const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain, float beta,
                         float* y);
// dx = gain * (dy - c_dy - (x - mu) * c_xhat), dy and dx laid out as x.
void simd_channel_grad_apply(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, float mu,
                             float gain, float c_dy, float c_xhat, float* dx);
// dx = a * dy - u * (x - mu) - v over n contiguous floats.
void simd_channel_grad_combine(const float* dy, const float* x, int64_t n, float mu, float a, float u, float v,
                               float* dx);

// LayerNorm over `rows` contiguous rows of n floats: y = (x - mean) * rstd, then * gamma + beta when
// gamma is not null (gamma and beta then have n elements); each row's mean and
// rstd = 1 / sqrt(variance + epsilon) go to mean[r], rstd[r]. With Stores::Streaming, y is written
// around the caches (Note [Streaming stores]) where its rows are whole aligned vectors.
void simd_layer_norm_rows(const float* x, int64_t rows, int64_t n, const float* gamma, const float* beta,
                          double epsilon, float* y, float* mean, float* rstd, Stores stores);

// LayerNorm's gradient over `rows` contiguous rows of n floats with gamma of n elements (Note
// [LayerNorm gradient rows]): writes dx, adds each row's dy * xhat and dy into dgamma and dbeta.
void simd_layer_norm_grad_rows(const float* x, const float* dy, int64_t rows, int64_t n, const float* mean,
                               const float* rstd, const float* gamma, float* dx, float* dgamma, float* dbeta);

}  // namespace sprout
