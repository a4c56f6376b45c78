// BatchNorm's kernels (Note [BatchNorm kernels]). Buffers are dense; x is (N, C, S) with S the spatial
// size (1 for a 2-d input).
#pragma once

#include <cstdint>

namespace sprout {

struct BatchNormProblem {
  int64_t n, c, s;
  double epsilon;
  bool training;  // normalize with the batch's statistics, written to mean/var; else read them
};

template <class T>
void loop_batch_norm(const BatchNormProblem& p, const T* x, const T* scale, const T* bias, T* mean, T* var, T* y);

// Gradient: dx, dscale, dbias from dy, x, scale and the statistics x was normalized with.
template <class T>
void loop_batch_norm_backward(const BatchNormProblem& p, const T* dy, const T* x, const T* scale, const T* mean,
                              const T* var, T* dx, T* dscale, T* dbias);

}  // namespace sprout
