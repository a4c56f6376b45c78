// Passes over one channel (or one group) of a normalization, shared by BatchNorm and GroupNorm: `runs`
// runs of `plane` values, run r at r * stride. Float32 through the vectorized loops of nn_norm_simd.cc
// (sums in double), float64 through direct loops (Note [BatchNorm kernels]).
#pragma once

#include <cstdint>

namespace sprout {

struct Moments {
  double mean, var;  // the biased variance
};

// Float32 in one pass shifted by the first value, float64 in two (Note [BatchNorm kernels]).
Moments channel_moments(const float* x, int64_t plane, int64_t runs, int64_t stride);
Moments channel_moments(const double* x, int64_t plane, int64_t runs, int64_t stride);

// sum(dy) and sum(dy * (x - mu)), dy laid out as x.
void channel_grad_sums(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                       double& sum_dy, double& sum_dy_dev);
void channel_grad_sums(const double* dy, const double* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                       double& sum_dy, double& sum_dy_dev);

// y = (x - mu) * gain + beta, y laid out as x.
void channel_affine(const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain, float beta,
                    float* y);
void channel_affine(const double* x, int64_t plane, int64_t runs, int64_t stride, double mu, double gain, double beta,
                    double* y);

// dx = gain * (dy - c_dy - (x - mu) * c_xhat), dy and dx laid out as x.
void channel_grad_apply(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, float mu,
                        float gain, float c_dy, float c_xhat, float* dx);
void channel_grad_apply(const double* dy, const double* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                        double gain, double c_dy, double c_xhat, double* dx);

// dx = a * dy - u * (x - mu) - v over n contiguous values: channel_grad_apply without the common factor,
// for a gain that may be 0 (GroupNorm's dx still depends on x and the group's other channels then).
void channel_grad_combine(const float* dy, const float* x, int64_t n, float mu, float a, float u, float v, float* dx);
void channel_grad_combine(const double* dy, const double* x, int64_t n, double mu, double a, double u, double v,
                          double* dx);

}  // namespace sprout
