// Passes over one channel or group of a normalization (nn_norm_channels.h).
#include "kernels/cpu/nn_norm_channels.h"

#include <cmath>

#include "kernels/cpu/nn_norm_simd.h"

namespace sprout {

// The mean and (biased) variance of one channel: `runs` runs of `plane` values, `stride` apart.
// float32 in one pass over the data (Note [BatchNorm kernels]); float64, whose result has no digits to
// spare, in two.
Moments channel_moments(const float* x, int64_t plane, int64_t runs, int64_t stride) {
  // An infinite or NaN first value would turn the shifted sums into NaN where the two-pass mean is inf.
  const double shift = std::isfinite(x[0]) ? x[0] : 0.0, count = static_cast<double>(plane * runs);
  double sum = 0, sum_sq = 0;
  simd_channel_moments(x, plane, runs, stride, shift, &sum, &sum_sq);
  const double offset = sum / count;  // mean - shift
  const double var = sum_sq / count - offset * offset;
  return {shift + offset, var < 0 ? 0.0 : var};  // rounding may leave it just below 0; a NaN stays NaN
}

Moments channel_moments(const double* x, int64_t plane, int64_t runs, int64_t stride) {
  const double count = static_cast<double>(plane * runs);
  double sum = 0, sq = 0;
  for (int64_t r = 0; r < runs; ++r)
#pragma omp simd reduction(+ : sum)
    for (int64_t j = 0; j < plane; ++j) sum += x[r * stride + j];
  const double mu = sum / count;
  for (int64_t r = 0; r < runs; ++r)
#pragma omp simd reduction(+ : sq)
    for (int64_t j = 0; j < plane; ++j) sq += (x[r * stride + j] - mu) * (x[r * stride + j] - mu);
  return {mu, sq / count};
}

// sum(dy) and sum(dy * (x - mu)) over one channel, laid out as in channel_moments.
void channel_grad_sums(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                       double& sum_dy, double& sum_dy_dev) {
  simd_channel_grad_sums(dy, x, plane, runs, stride, mu, &sum_dy, &sum_dy_dev);
}

void channel_grad_sums(const double* dy, const double* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                       double& sum_dy, double& sum_dy_dev) {
  double s_dy = 0, s_dev = 0;
  for (int64_t r = 0; r < runs; ++r)
#pragma omp simd reduction(+ : s_dy, s_dev)
    for (int64_t j = 0; j < plane; ++j) {
      s_dy += dy[r * stride + j];
      s_dev += dy[r * stride + j] * (x[r * stride + j] - mu);
    }
  sum_dy = s_dy;
  sum_dy_dev = s_dev;
}

// y = (x - mu) * gain + beta over one channel, not x * gain + (beta - mu * gain): data far from zero
// relative to its spread (offset 1000, std 0.01) lost two decimal digits to the cancellation.
void channel_affine(const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain, float beta,
                    float* y) {
  simd_channel_affine(x, plane, runs, stride, mu, gain, beta, y);
}

void channel_affine(const double* x, int64_t plane, int64_t runs, int64_t stride, double mu, double gain, double beta,
                    double* y) {
  for (int64_t r = 0; r < runs; ++r)
#pragma omp simd
    for (int64_t j = 0; j < plane; ++j) y[r * stride + j] = (x[r * stride + j] - mu) * gain + beta;
}

// dx = gain * (dy - c_dy - (x - mu) * c_xhat) over one channel.
void channel_grad_apply(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, float mu,
                        float gain, float c_dy, float c_xhat, float* dx) {
  simd_channel_grad_apply(dy, x, plane, runs, stride, mu, gain, c_dy, c_xhat, dx);
}

void channel_grad_apply(const double* dy, const double* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                        double gain, double c_dy, double c_xhat, double* dx) {
  for (int64_t r = 0; r < runs; ++r) {
    const int64_t at = r * stride;
#pragma omp simd
    for (int64_t j = 0; j < plane; ++j) dx[at + j] = gain * (dy[at + j] - c_dy - (x[at + j] - mu) * c_xhat);
  }
}


void channel_grad_combine(const float* dy, const float* x, int64_t n, float mu, float a, float u, float v, float* dx) {
  simd_channel_grad_combine(dy, x, n, mu, a, u, v, dx);
}

void channel_grad_combine(const double* dy, const double* x, int64_t n, double mu, double a, double u, double v,
                          double* dx) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) dx[j] = a * dy[j] - u * (x[j] - mu) - v;
}

}  // namespace sprout
