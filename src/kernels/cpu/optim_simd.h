// Vectorized loops of the optimizer kernels (Highway, dispatched at run time as in simd.cc): the
// baseline build's auto-vectorized loops are SSE2 at best and keep sqrt scalar.
#pragma once

#include <cstdint>

namespace sprout {

struct AdamStep {
  double lr;  // with the bias corrections folded in
  double beta1, beta2, eps;
  bool nesterov;
};

// m = m + (g - m)(1 - beta1), v = v + (g^2 - v)(1 - beta2), var -= lr * step / (sqrt(v) + eps) with
// step = m, or beta1 m + (1 - beta1) g when nesterov; n elements of each, in place.
void simd_adam(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n);
void simd_adam(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n);

}  // namespace sprout
