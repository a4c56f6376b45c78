// CPU kernel of LayerNormGrad (Note [LayerNorm gradients]): one read of x and dy per row gives both row
// sums, a second pass writes dx. Float32 rows with gamma spanning the row go to the vectorized kernel
// (Note [LayerNorm gradient rows]); other layouts run over runs contiguous in both x and gamma.
// dgamma and dbeta accumulate into per-thread partials (element i of x feeds gamma[i % params]) that are
// added up at the end. Float32 (float16 widened) or float64.
#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_norm_simd.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Calls fn(k, pk, n) over the runs of a row that are contiguous in both x (from k) and gamma (from pk):
// a row of K elements starting at flat index `first` meets gamma's P elements cyclically.
template <class Fn>
void for_each_run(int64_t first, int64_t k_size, int64_t p_size, Fn&& fn) {
  for (int64_t k = 0, pk = first % p_size; k < k_size;) {
    int64_t n = std::min(k_size - k, p_size - pk);
    fn(k, pk, n);
    k += n;
    pk = pk + n == p_size ? 0 : pk + n;
  }
}

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
    const int64_t first = l.rows * t / threads, last = l.rows * (t + 1) / threads;
    if constexpr (std::is_same_v<T, float>) {
      if (p_size == k_size) {  // gamma spans the row: the vectorized rows
        simd_layer_norm_grad_rows(x + first * k_size, dy + first * k_size, last - first, k_size, mean + first,
                                  rstd + first, gamma, dx + first * k_size, pg, pb);
        continue;
      }
    }
    for (int64_t r = first; r < last; ++r) {
      const T *xr = x + r * k_size, *dyr = dy + r * k_size;
      T* dxr = dx + r * k_size;
      const T mu = mean[r], rs = rstd[r];
      T sum_g = 0, sum_gx = 0;
      for_each_run(r * k_size, k_size, p_size, [&](int64_t k0, int64_t p0, int64_t n) {
        const T *xs = xr + k0, *dys = dyr + k0, *gs = gamma + p0;
        T *pgs = pg + p0, *pbs = pb + p0, sg = 0, sgx = 0;
#pragma omp simd reduction(+ : sg, sgx)
        for (int64_t i = 0; i < n; ++i) {
          T xhat = (xs[i] - mu) * rs, g = dys[i] * gs[i];
          sg += g;
          sgx += g * xhat;
          pgs[i] += dys[i] * xhat;
          pbs[i] += dys[i];
        }
        sum_g += sg, sum_gx += sgx;
      });
      const T mean_g = sum_g / static_cast<T>(k_size), mean_gx = sum_gx / static_cast<T>(k_size);
      for_each_run(r * k_size, k_size, p_size, [&](int64_t k0, int64_t p0, int64_t n) {
        const T *xs = xr + k0, *dys = dyr + k0, *gs = gamma + p0;
        T* dxs = dxr + k0;
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) dxs[i] = rs * (dys[i] * gs[i] - mean_g - (xs[i] - mu) * rs * mean_gx);
      });
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
