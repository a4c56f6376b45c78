// Vectorized float32 normalization kernels (Highway, dispatched at run time as in simd.cc).
// BatchNorm's per-channel sums: float32 data accumulated in double with four independent vector
// accumulators. The compiler's `omp simd` reduction keeps one accumulator and waits on its add latency:
// the statistics and gradient passes ran at half the memory bandwidth (Note [BatchNorm kernels]).
// LayerNorm's rows: Note [LayerNorm rows].
#pragma once

#include <cstdint>

#include "kernels/cpu/simd.h"

namespace sprout {

// sum(x[0..n)).
double simd_channel_sum(const float* x, int64_t n);
// sum((x - mu)^2), the deviations taken in double.
double simd_channel_sum_sq_dev(const float* x, int64_t n, double mu);
// sum(dy) and sum(dy * (x - mu)), added to *sum_dy and *sum_dy_dev.
void simd_channel_grad_sums(const float* dy, const float* x, int64_t n, double mu, double* sum_dy,
                            double* sum_dy_dev);

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
