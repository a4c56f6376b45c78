// BatchNorm's kernels, forward and backward, for float32 and float64: vectorized loops per channel.
//
// Note [BatchNorm kernels]
// oneDNN 2.6 normalizes plain NCHW data with its reference-grade `ncsp` implementation; measured on
// 32x64x56x56 float32, single-threaded (2026-11-22): forward (training) 30 ms and backward 20 ms,
// against 12 ms and 10 ms for these loops then. Its fast kernels want the blocked nChw16c layout, and
// reordering in and out costs about as much again, so BatchNorm keeps its own loops: per channel, the
// forward pass takes the statistics in one pass over the data and normalizes in a second; the backward
// pass takes sum(dy) and sum(dy * (x - mean)) in one and writes dx in another. Threads split the channels.
// Statistics accumulate in double (a channel of a large batch holds millions of values), for float32
// in nn_norm_simd.cc (Note [BatchNorm channel sums]), which also writes y and dx.
// The float32 statistics take one pass: sum(x - s) and sum((x - s)^2) with s the channel's first value,
// then var = E[(x - s)^2] - E[x - s]^2. Shifting by a value of the data bounds the cancellation: the
// mean lies within sqrt(count) standard deviations of every value, so E[(x - s)^2] is at most
// (1 + count) var, and the variance keeps the double sums' relative precision but for that factor. A
// shift near the mean (any value that is not an outlier) loses nothing; test_layers.py checks an outlier
// 1e4 standard deviations out. Float64 data keeps two passes (the mean, then the squared deviations):
// its result has no digits to spare.
// Two threads, Zen 4, 2026-11-27, before -> after (us; forward, backward): ResNet-18's planes at batch
// 32: 64x32x32 380 -> 260, 770 -> 730; 128x16x16 182 -> 110, 214 -> 173; 256x8x8 117 -> 74, 129 -> 110;
// 512x4x4 200 -> 58, 136 -> 65 (Note [BatchNorm channel sums]); BatchNorm1d (64, 512) 180 -> 125,
// 222 -> 126. The ResNet-18 training step's BatchNorm and BatchNormGrad: 38.6 -> 14.3 ms of ~600 (two runs
// half an hour apart, not interleaved).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/cpu/nn_norm_channels.h"
#include "kernels/cpu/nn_norm_kernels.h"
#include "base/parallel.h"

namespace sprout {

template <class T>
void loop_batch_norm(const BatchNormProblem& p, const T* x, const T* scale, const T* bias, T* mean, T* var, T* y) {
  const int64_t plane = p.s, count = p.n * p.s;
  parallel_for(p.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(count, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      if (p.training) {
        const Moments m = channel_moments(x + ch * plane, plane, p.n, p.c * plane);
        mean[ch] = static_cast<T>(m.mean);
        var[ch] = static_cast<T>(m.var);
      }
      const T gain = scale[ch] / std::sqrt(var[ch] + static_cast<T>(p.epsilon));
      channel_affine(x + ch * plane, plane, p.n, p.c * plane, mean[ch], gain, bias[ch], y + ch * plane);
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
      double sum_dy = 0, sum_dy_x = 0;  // sum(dy) and sum(dy * (x - mu)), in double
      channel_grad_sums(dy + ch * plane, x + ch * plane, plane, p.n, p.c * plane, mu, sum_dy, sum_dy_x);
      const T sum_dy_xhat = static_cast<T>(sum_dy_x) * rstd;
      dscale[ch] = sum_dy_xhat;
      dbias[ch] = static_cast<T>(sum_dy);
      // dx = gain * (dy - (sum_dy + xhat * sum_dy_xhat) / m) in training, gain * dy in inference.
      const T gain = scale[ch] * rstd, inv_m = static_cast<T>(1) / static_cast<T>(count);
      const T c_dy = p.training ? static_cast<T>(sum_dy) * inv_m : 0;
      const T c_xhat = p.training ? sum_dy_xhat * inv_m * rstd : 0;  // per unit of (x - mu)
      channel_grad_apply(dy + ch * plane, x + ch * plane, plane, p.n, p.c * plane, mu, gain, c_dy, c_xhat,
                         dx + ch * plane);
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
