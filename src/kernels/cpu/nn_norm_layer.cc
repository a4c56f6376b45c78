// CPU kernel of LayerNorm: float32 (and the half types, widened a block of rows at a time) by vectorized
// rows (Note [LayerNorm rows]),
// float64 through direct loops (two passes per row: mean, then variance about it). Both return the
// mean and rstd = 1 / sqrt(variance + epsilon) of each row. When gamma covers fewer axes than are
// normalized (begin_params_axis > begin_norm_axis) or more (<), the affine step runs as a separate pass.
#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "base/parallel.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_norm_simd.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Float32 rows, in parallel (Note [LayerNorm rows]); gamma and beta are per element of a row or null.
void simd_layer_norm(const LayerNormLayout& l, double epsilon, const float* x, const float* gamma,
                     const float* beta, float* y, float* mean, float* rstd) {
  // Every byte the op touches (x, y, gamma and beta, mean and rstd), as for an elementwise op (Note
  // [Streaming stores]).
  const int64_t floats = 2 * l.rows * l.row_size + (gamma ? 2 * l.row_size : 0) + 2 * l.rows;
  const Stores stores = stores_for(floats * static_cast<int64_t>(sizeof(float)));
  parallel_for(l.rows, std::max<int64_t>(1, kParallelGrain / l.row_size), [&](int64_t begin, int64_t end) {
    const int64_t at = begin * l.row_size;
    simd_layer_norm_rows(x + at, end - begin, l.row_size, gamma, beta, epsilon, y + at, mean + begin, rstd + begin,
                         stores);
  });
}

template <class T>
void loop_layer_norm(const LayerNormLayout& l, double epsilon, const T* x, T* y, T* mean, T* rstd) {
  parallel_for(l.rows, std::max<int64_t>(1, kParallelGrain / l.row_size), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* row = x + r * l.row_size;
      T sum = 0, sq = 0;
      for (int64_t k = 0; k < l.row_size; ++k) sum += row[k];
      T mu = sum / static_cast<T>(l.row_size);
      for (int64_t k = 0; k < l.row_size; ++k) sq += (row[k] - mu) * (row[k] - mu);
      T rs = 1 / std::sqrt(sq / static_cast<T>(l.row_size) + static_cast<T>(epsilon));
      mean[r] = mu;
      rstd[r] = rs;
      for (int64_t k = 0; k < l.row_size; ++k) y[r * l.row_size + k] = (row[k] - mu) * rs;
    }
  });
}

// y[i] = y[i] * gamma[i % params] + beta[i % params].
template <class T>
void apply_affine(const LayerNormLayout& l, const T* gamma, const T* beta, T* y) {
  const int64_t total = l.rows * l.row_size, blocks = total / l.params;
  parallel_for(blocks, std::max<int64_t>(1, kParallelGrain / l.params), [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b)
      for (int64_t p = 0; p < l.params; ++p) y[b * l.params + p] = y[b * l.params + p] * gamma[p] + beta[p];
  });
}

// A half-precision x with a gamma per element of a row: blocks of rows widened, normalized, narrowed
// (half_rows_in_float); gamma, beta, mean and rstd are small and go through float copies.
void half_layer_norm(const LayerNormAttrs& a, const LayerNormLayout& l, std::span<const Tensor> in,
                     std::span<Tensor> out) {
  Tensor gamma = contiguous_compute(in[1]), beta = contiguous_compute(in[2]);
  Tensor mean = Tensor::empty(Shape{l.rows}, DType::Float32), rstd = Tensor::empty(Shape{l.rows}, DType::Float32);
  float *pm = mean.data<float>(), *pr = rstd.data<float>();
  auto rows = [&](const float* x, float* y, int64_t first, int64_t count) {
    simd_layer_norm_rows(x, count, l.row_size, gamma.data<float>(), beta.data<float>(), a.epsilon, y, pm + first,
                         pr + first, Stores::Cached);
  };
  half_rows_in_float(in[0].contiguous(), out[0], l.rows, l.row_size, rows);
  store_result(mean, out[1]);
  store_result(rstd, out[2]);
}

template <class T>
void run(const LayerNormAttrs& a, const LayerNormLayout& l, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), gamma = contiguous_compute(in[1]), beta = contiguous_compute(in[2]);
  Tensor y = compute_buffer(out[0]);
  Tensor mean = Tensor::empty(Shape{l.rows}, x.dtype()), rstd = Tensor::empty(Shape{l.rows}, x.dtype());
  T *pm = mean.data<T>(), *pr = rstd.data<T>();
  const bool fused_affine = std::is_same_v<T, float> && l.params == l.row_size;
  if constexpr (std::is_same_v<T, float>) {
    simd_layer_norm(l, a.epsilon, x.data<T>(), fused_affine ? gamma.data<T>() : nullptr,
                    fused_affine ? beta.data<T>() : nullptr, y.data<T>(), pm, pr);
  } else {
    loop_layer_norm(l, a.epsilon, x.data<T>(), y.data<T>(), pm, pr);
  }
  if (!fused_affine) apply_affine(l, gamma.data<T>(), beta.data<T>(), y.data<T>());
  store_result(y, out[0]);
  store_result(mean, out[1]);
  store_result(rstd, out[2]);
}

void layer_norm_kernel(const LayerNormAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  LayerNormLayout l = layer_norm_layout("LayerNorm", a.begin_norm_axis, a.begin_params_axis, in[0].shape());
  if (l.rows == 0) return;
  if (in[0].dtype() == DType::Float64) return run<double>(a, l, in, out);
  if (in[0].dtype() != DType::Float32 && l.params == l.row_size && out[0].is_contiguous())
    return half_layer_norm(a, l, in, out);
  run<float>(a, l, in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_norm_layer) { register_kernel<LayerNormAttrs>("LayerNorm", Device::CPU, layer_norm_kernel); }

}  // namespace sprout
