// CPU kernels of GroupNorm and GroupNormGrad: float32 (the half types widened) and float64.
//
// Note [GroupNorm kernels]
// A group of one sample, C / G channels of `spatial` positions, is contiguous in NCHW: the forward takes
// its statistics in one pass and writes y channel by channel (scale rstd * gamma[c], shift beta[c]) while
// the group is still in cache; the backward takes per-channel sum(dy) and sum(dy * (x - mean)) in one
// pass, from them the group's two coefficients, and writes dx in a second. The channel passes are
// BatchNorm's (nn_norm_channels.h): float32 sums in double, the statistics shifted by the group's first
// value. Threads split the N * G groups; dgamma and dbeta add up per-sample channel sums afterwards, so no
// two threads write the same value. Built on LayerNorm over (N, G, -1) before, GroupNorm paid a second
// pass for an affine of ones, a third for the per-channel one, and LayerNormGrad's parameter gradients
// of that ones vector: 32x64x32x32, 8 groups, two threads, forward 0.70 -> 0.28 ms, forward and backward
// 1.70 -> 0.83 (PyTorch 1.66).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_norm_channels.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Runs fn(group) over the N * G groups, split across threads.
template <class Fn>
void for_each_group(const GroupNormLayout& l, Fn&& fn) {
  parallel_for(l.n * l.groups, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, l.group_size())),
               [&](int64_t begin, int64_t end) {
                 for (int64_t t = begin; t < end; ++t) fn(t);
               });
}

template <class T>
void group_norm(const GroupNormLayout& l, double epsilon, const T* x, const T* gamma, const T* beta, T* y, T* mean,
                T* rstd) {
  const int64_t k = l.group_size(), cpg = l.channels_per_group(), s = l.spatial;
  for_each_group(l, [&](int64_t t) {
    const Moments m = channel_moments(x + t * k, k, 1, k);
    const T mu = static_cast<T>(m.mean), rs = static_cast<T>(1 / std::sqrt(m.var + epsilon));
    mean[t] = mu;
    rstd[t] = rs;
    for (int64_t j = 0; j < cpg; ++j) {
      const int64_t c = t % l.groups * cpg + j, at = t * k + j * s;
      channel_affine(x + at, s, 1, s, mu, rs * gamma[c], beta[c], y + at);
    }
  });
}

// dx = rstd * (gamma dy - mean_group(gamma dy) - xhat * mean_group(gamma dy xhat)) (Note [LayerNorm
// gradients], over a group); sums[2 * (n * C + c)] get channel c's sum(dy) and sum(dy * xhat) in sample n.
template <class T>
void group_norm_grad(const GroupNormLayout& l, const T* x, const T* dy, const T* rstd, const T* mean, const T* gamma,
                     T* dx, double* sums) {
  const int64_t k = l.group_size(), cpg = l.channels_per_group(), s = l.spatial;
  for_each_group(l, [&](int64_t t) {
    const T mu = mean[t], rs = rstd[t];
    const int64_t first = t % l.groups * cpg;  // the group's first channel
    double* channel_sums = sums + 2 * (t / l.groups * l.c + first);
    double g_sum = 0, g_xhat_sum = 0;  // sums of gamma dy and gamma dy xhat over the group
    for (int64_t j = 0; j < cpg; ++j) {
      double sum_dy = 0, sum_dy_dev = 0;
      channel_grad_sums(dy + t * k + j * s, x + t * k + j * s, s, 1, s, mu, sum_dy, sum_dy_dev);
      channel_sums[2 * j] = sum_dy;
      channel_sums[2 * j + 1] = sum_dy_dev * rs;
      g_sum += gamma[first + j] * sum_dy;
      g_xhat_sum += gamma[first + j] * sum_dy_dev * rs;
    }
    const double inv_k = 1.0 / static_cast<double>(k);
    const T v = static_cast<T>(rs * g_sum * inv_k), u = static_cast<T>(rs * rs * g_xhat_sum * inv_k);
    for (int64_t j = 0; j < cpg; ++j) {
      const int64_t at = t * k + j * s;
      channel_grad_combine(dy + at, x + at, s, mu, rs * gamma[first + j], u, v, dx + at);
    }
  });
}

// Float32 or float64 buffers for in[...] and out[...] (half types widened, results narrowed back).
template <class T>
void run_forward(const GroupNormAttrs& a, const GroupNormLayout& l, std::span<const Tensor> in,
                 std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), gamma = contiguous_compute(in[1]), beta = contiguous_compute(in[2]);
  Tensor y = compute_buffer(out[0]), mean = compute_buffer(out[1]), rstd = compute_buffer(out[2]);
  group_norm(l, a.epsilon, x.data<T>(), gamma.data<T>(), beta.data<T>(), y.data<T>(), mean.data<T>(), rstd.data<T>());
  store_result(y, out[0]);
  store_result(mean, out[1]);
  store_result(rstd, out[2]);
}

template <class T>
void run_backward(const GroupNormLayout& l, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), dy = contiguous_compute(in[1]), rstd = contiguous_compute(in[2]);
  Tensor mean = contiguous_compute(in[3]), gamma = contiguous_compute(in[4]);
  Tensor dx = compute_buffer(out[0]), dgamma = compute_buffer(out[1]), dbeta = compute_buffer(out[2]);
  std::vector<double> sums(static_cast<size_t>(2 * l.n * l.c));
  group_norm_grad(l, x.data<T>(), dy.data<T>(), rstd.data<T>(), mean.data<T>(), gamma.data<T>(), dx.data<T>(),
                  sums.data());
  T *pg = dgamma.data<T>(), *pb = dbeta.data<T>();
  for (int64_t c = 0; c < l.c; ++c) {
    double sum_dy = 0, sum_dy_xhat = 0;
    for (int64_t n = 0; n < l.n; ++n) {
      sum_dy += sums[static_cast<size_t>(2 * (n * l.c + c))];
      sum_dy_xhat += sums[static_cast<size_t>(2 * (n * l.c + c) + 1)];
    }
    pg[c] = static_cast<T>(sum_dy_xhat);
    pb[c] = static_cast<T>(sum_dy);
  }
  store_result(dx, out[0]);
  store_result(dgamma, out[1]);
  store_result(dbeta, out[2]);
}

void group_norm_kernel(const GroupNormAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const GroupNormLayout l = group_norm_layout("GroupNorm", a.num_groups, in[0].shape());
  if (in[0].numel() == 0) {  // no sample, or empty groups: their statistics are NaN, as NumPy's mean
    out[1].copy_from(Tensor::scalar(std::nan(""), out[1].dtype()));
    out[2].copy_from(Tensor::scalar(std::nan(""), out[2].dtype()));
    return;
  }
  if (in[0].dtype() == DType::Float64) return run_forward<double>(a, l, in, out);
  run_forward<float>(a, l, in, out);
}

void group_norm_grad_kernel(const GroupNormGradAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const GroupNormLayout l = group_norm_layout("GroupNormGrad", a.num_groups, in[0].shape());
  if (in[0].numel() == 0) {  // nothing flows: every gradient is zero
    for (Tensor& o : out) o.copy_from(Tensor::zeros(Shape{}, o.dtype()));
    return;
  }
  if (in[0].dtype() == DType::Float64) return run_backward<double>(l, in, out);
  run_backward<float>(l, in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_norm_group) {
  register_kernel<GroupNormAttrs>("GroupNorm", Device::CPU, group_norm_kernel);
  register_kernel<GroupNormGradAttrs>("GroupNormGrad", Device::CPU, group_norm_grad_kernel);
}

}  // namespace sprout
