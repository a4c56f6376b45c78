// BatchNorm's kernels, forward and backward, for float32 and float64: vectorized loops per channel.
//
// Note [BatchNorm kernels]
// oneDNN 2.6 normalizes plain NCHW data with its reference-grade `ncsp` implementation; measured on
// 32x64x56x56 float32, single-threaded (2026-11-22): forward (training) 30 ms and backward 20 ms,
// against 12 ms and 10 ms for these loops (two passes for the statistics, one to normalize; one for
// the gradient sums, one to write dx). Its fast kernels want the blocked nChw16c layout, and reordering
// in and out costs about as much again, so BatchNorm keeps its own loops. Statistics accumulate in double:
// a channel of a large batch holds millions of values.
#include <algorithm>
#include <cmath>

#include "kernels/cpu/nn_norm_kernels.h"
#include "base/parallel.h"

namespace sprout {

template <class T>
void loop_batch_norm(const BatchNormProblem& p, const T* x, const T* scale, const T* bias, T* mean, T* var, T* y) {
  const int64_t plane = p.s, count = p.n * p.s;
  parallel_for(p.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(count, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      if (p.training) {
        double sum = 0, sq = 0;  // double accumulators: a channel may hold millions of values
        for (int64_t i = 0; i < p.n; ++i) {
          const T* run = x + (i * p.c + ch) * plane;
#pragma omp simd reduction(+ : sum)
          for (int64_t j = 0; j < plane; ++j) sum += run[j];
        }
        const double mu = sum / static_cast<double>(count);
        for (int64_t i = 0; i < p.n; ++i) {
          const T* run = x + (i * p.c + ch) * plane;
#pragma omp simd reduction(+ : sq)
          for (int64_t j = 0; j < plane; ++j) sq += (run[j] - mu) * (run[j] - mu);
        }
        mean[ch] = static_cast<T>(mu);
        var[ch] = static_cast<T>(sq / static_cast<double>(count));
      }
      const T gain = scale[ch] / std::sqrt(var[ch] + static_cast<T>(p.epsilon));
      const T shift = bias[ch] - mean[ch] * gain;
      for (int64_t i = 0; i < p.n; ++i) {
        const int64_t at = (i * p.c + ch) * plane;
#pragma omp simd
        for (int64_t j = 0; j < plane; ++j) y[at + j] = x[at + j] * gain + shift;
      }
    }
  });
}

// Per channel: one pass for sum(dy) and sum(dy * xhat), one to write dx.
template <class T>
void loop_batch_norm_backward(const BatchNormProblem& p, const T* dy, const T* x, const T* scale, const T* mean,
                              const T* var, T* dx, T* dscale, T* dbias) {
  const int64_t plane = p.s, count = p.n * p.s;
  parallel_for(p.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(count, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      const T mu = mean[ch], rstd = 1 / std::sqrt(var[ch] + static_cast<T>(p.epsilon));
      double sum_dy = 0, sum_dy_x = 0;  // sum(dy * (x - mu)) = sum(dy * x) - mu * sum(dy), in double
      for (int64_t i = 0; i < p.n; ++i) {
        const int64_t at = (i * p.c + ch) * plane;
#pragma omp simd reduction(+ : sum_dy, sum_dy_x)
        for (int64_t j = 0; j < plane; ++j) {
          sum_dy += dy[at + j];
          sum_dy_x += static_cast<double>(dy[at + j]) * (x[at + j] - mu);
        }
      }
      const T sum_dy_xhat = static_cast<T>(sum_dy_x) * rstd;
      dscale[ch] = sum_dy_xhat;
      dbias[ch] = static_cast<T>(sum_dy);
      // dx = gain * (dy - (sum_dy + xhat * sum_dy_xhat) / m) in training, gain * dy in inference.
      const T gain = scale[ch] * rstd, inv_m = static_cast<T>(1) / static_cast<T>(count);
      const T c_dy = p.training ? static_cast<T>(sum_dy) * inv_m : 0;
      const T c_xhat = p.training ? sum_dy_xhat * inv_m * rstd : 0;  // per unit of (x - mu)
      for (int64_t i = 0; i < p.n; ++i) {
        const int64_t at = (i * p.c + ch) * plane;
#pragma omp simd
        for (int64_t j = 0; j < plane; ++j) dx[at + j] = gain * (dy[at + j] - c_dy - (x[at + j] - mu) * c_xhat);
      }
    }
  });
}

template void loop_batch_norm_backward<double>(const BatchNormProblem&, const double*, const double*, const double*,
                                               const double*, const double*, double*, double*, double*);
template void loop_batch_norm_backward<float>(const BatchNormProblem&, const float*, const float*, const float*,
                                              const float*, const float*, float*, float*, float*);
template void loop_batch_norm<double>(const BatchNormProblem&, const double*, const double*, const double*, double*,
                                      double*, double*);
template void loop_batch_norm<float>(const BatchNormProblem&, const float*, const float*, const float*, float*, float*,
                                     float*);

}  // namespace sprout
