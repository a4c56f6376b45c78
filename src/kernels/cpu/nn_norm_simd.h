// Vectorized per-channel sums of BatchNorm's float32 kernels (Highway, dispatched at run time as in
// simd.cc): float32 data accumulated in double with four independent vector accumulators. The
// compiler's `omp simd` reduction keeps one accumulator and waits on its add latency: the statistics
// and gradient passes ran at half the memory bandwidth (Note [BatchNorm kernels]).
#pragma once

#include <cstdint>

namespace sprout {

// sum(x[0..n)).
double simd_channel_sum(const float* x, int64_t n);
// sum((x - mu)^2), the deviations taken in double.
double simd_channel_sum_sq_dev(const float* x, int64_t n, double mu);
// sum(dy) and sum(dy * (x - mu)), added to *sum_dy and *sum_dy_dev.
void simd_channel_grad_sums(const float* dy, const float* x, int64_t n, double mu, double* sum_dy,
                            double* sum_dy_dev);

}  // namespace sprout
