// CPU kernel of LayerNormGrad (Note [LayerNorm gradients]): one read of x and dy per row gives both row
// sums, a second pass writes dx; dgamma and dbeta accumulate into per-thread partials (element i of x
// feeds gamma[i % params]) that are added up at the end. Float32 (float16 widened) or float64.
#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/parallel.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <class T>
void layer_norm_grad(const LayerNormLayout& l, const T* x, const T* dy, const T* rstd, const T* mean, const T* gamma,
                     T* dx, T* dgamma, T* dbeta) {
  const int64_t k_size = l.row_size, p_size = l.params;
  const int threads = static_cast<int>(std::min<int64_t>(num_threads(), std::max<int64_t>(1, l.rows * k_size / kParallelGrain)));
  std::vector<T> partial(static_cast<size_t>(2 * p_size * threads), T(0));
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int t = 0; t < threads; ++t) {
    T* pg = partial.data() + 2 * p_size * t;
    T* pb = pg + p_size;
    for (int64_t r = l.rows * t / threads, end = l.rows * (t + 1) / threads; r < end; ++r) {
      const T *xr = x + r * k_size, *dyr = dy + r * k_size;
      const T mu = mean[r], rs = rstd[r];
      int64_t p = (r * k_size) % p_size;
      T sum_g = 0, sum_gx = 0;
      for (int64_t k = 0, pk = p; k < k_size; ++k, pk = pk + 1 == p_size ? 0 : pk + 1) {
        T xhat = (xr[k] - mu) * rs, g = dyr[k] * gamma[pk];
        sum_g += g;
        sum_gx += g * xhat;
        pg[pk] += dyr[k] * xhat;
        pb[pk] += dyr[k];
      }
      const T mean_g = sum_g / static_cast<T>(k_size), mean_gx = sum_gx / static_cast<T>(k_size);
      for (int64_t k = 0, pk = p; k < k_size; ++k, pk = pk + 1 == p_size ? 0 : pk + 1) {
        T xhat = (xr[k] - mu) * rs;
        dx[r * k_size + k] = rs * (dyr[k] * gamma[pk] - mean_g - xhat * mean_gx);
      }
    }
  }
  for (int64_t i = 0; i < p_size; ++i) {
    T sg = 0, sb = 0;
    for (int t = 0; t < threads; ++t) sg += partial[2 * p_size * t + i], sb += partial[2 * p_size * t + p_size + i];
    dgamma[i] = sg;
    dbeta[i] = sb;
  }
}

template <class T>
void run(const LayerNormLayout& l, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), dy = contiguous_compute(in[1]), rstd = contiguous_compute(in[2]);
  Tensor mean = contiguous_compute(in[3]), gamma = contiguous_compute(in[4]);
  Tensor dx = compute_buffer(out[0]), dgamma = compute_buffer(out[1]), dbeta = compute_buffer(out[2]);
  layer_norm_grad(l, x.data<T>(), dy.data<T>(), rstd.data<T>(), mean.data<T>(), gamma.data<T>(), dx.data<T>(),
                  dgamma.data<T>(), dbeta.data<T>());
  store_result(dx, out[0]);
  store_result(dgamma, out[1]);
  store_result(dbeta, out[2]);
}

void layer_norm_grad_kernel(const LayerNormGradAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  LayerNormLayout l = layer_norm_layout("LayerNormGrad", a.begin_norm_axis, a.begin_params_axis, in[0].shape());
  if (in[0].dtype() == DType::Float64) return run<double>(l, in, out);
  run<float>(l, in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_norm_layer_grad) {
  register_kernel<LayerNormGradAttrs>("LayerNormGrad", Device::CPU, layer_norm_grad_kernel);
}

}  // namespace sprout
