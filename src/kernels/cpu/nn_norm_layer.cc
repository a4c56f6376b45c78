// CPU kernel of LayerNorm: float32 (and float16, widened) through oneDNN's layer_normalization_forward,
// float64 through direct loops (two passes per row: mean, then variance about it). oneDNN's scale and
// shift are per element of a row; when gamma covers fewer axes than are normalized
// (begin_params_axis > begin_norm_axis) or more (<), the affine step runs as a separate pass.
#include <algorithm>
#include <bit>
#include <cmath>

#include "base/error.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/onednn.h"
#include "base/parallel.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

struct LayerNormPlan {
  dnnl::layer_normalization_forward::primitive_desc pd;
  dnnl::layer_normalization_forward prim;
};

// Normalizes x into y and fills mean and variance per row; applies gamma/beta only if `affine`.
void onednn_layer_norm(const LayerNormLayout& l, double epsilon, bool affine, const float* x, const float* gamma,
                       const float* beta, float* y, float* mean, float* var) {
  using dnnl::memory;
  memory::desc data_md({l.rows, l.row_size}, memory::data_type::f32, memory::format_tag::ab);
  memory::desc stat_md({l.rows}, memory::data_type::f32, memory::format_tag::a);
  std::string key = str(l.rows, ',', l.row_size, ',', std::bit_cast<uint64_t>(epsilon), ',', affine);
  auto& plan = onednn::cached<LayerNormPlan>(key, [&] {
    auto flags = affine ? dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift
                        : dnnl::normalization_flags::none;
    dnnl::layer_normalization_forward::desc desc(dnnl::prop_kind::forward_training, data_md, stat_md,
                                                 static_cast<float>(epsilon), flags);
    dnnl::layer_normalization_forward::primitive_desc pd(desc, onednn::engine());
    return LayerNormPlan{pd, dnnl::layer_normalization_forward(pd)};
  });
  auto wrap = [](const memory::desc& md, const void* data) {
    return memory(md, onednn::engine(), const_cast<void*>(data));
  };
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, wrap(data_md, x)},
                                       {DNNL_ARG_DST, wrap(data_md, y)},
                                       {DNNL_ARG_MEAN, wrap(stat_md, mean)},
                                       {DNNL_ARG_VARIANCE, wrap(stat_md, var)}};
  if (affine) {
    memory::desc param_md({l.row_size}, memory::data_type::f32, memory::format_tag::a);
    args.emplace(DNNL_ARG_SCALE, wrap(param_md, gamma));
    args.emplace(DNNL_ARG_SHIFT, wrap(param_md, beta));
  }
  plan.prim.execute(onednn::stream(), args);
  onednn::stream().wait();
}

template <class T>
void loop_layer_norm(const LayerNormLayout& l, double epsilon, const T* x, T* y, T* mean, T* var) {
  parallel_for(l.rows, std::max<int64_t>(1, kParallelGrain / l.row_size), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* row = x + r * l.row_size;
      T sum = 0, sq = 0;
      for (int64_t k = 0; k < l.row_size; ++k) sum += row[k];
      T mu = sum / static_cast<T>(l.row_size);
      for (int64_t k = 0; k < l.row_size; ++k) sq += (row[k] - mu) * (row[k] - mu);
      mean[r] = mu;
      var[r] = sq / static_cast<T>(l.row_size);
      T rstd = 1 / std::sqrt(var[r] + static_cast<T>(epsilon));
      for (int64_t k = 0; k < l.row_size; ++k) y[r * l.row_size + k] = (row[k] - mu) * rstd;
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

template <class T>
void run(const LayerNormAttrs& a, const LayerNormLayout& l, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), gamma = contiguous_compute(in[1]), beta = contiguous_compute(in[2]);
  Tensor y = compute_buffer(out[0]);
  Tensor mean = Tensor::empty(Shape{l.rows}, x.dtype()), rstd = Tensor::empty(Shape{l.rows}, x.dtype());
  T *pm = mean.data<T>(), *pr = rstd.data<T>();
  const bool fused_affine = std::is_same_v<T, float> && l.params == l.row_size;
  if constexpr (std::is_same_v<T, float>)
    onednn_layer_norm(l, a.epsilon, fused_affine, x.data<T>(), gamma.data<T>(), beta.data<T>(), y.data<T>(), pm, pr);
  else
    loop_layer_norm(l, a.epsilon, x.data<T>(), y.data<T>(), pm, pr);
  if (!fused_affine) apply_affine(l, gamma.data<T>(), beta.data<T>(), y.data<T>());
  for (int64_t r = 0; r < l.rows; ++r) pr[r] = 1 / std::sqrt(pr[r] + static_cast<T>(a.epsilon));  // variance -> rstd
  store_result(y, out[0]);
  store_result(mean, out[1]);
  store_result(rstd, out[2]);
}

void layer_norm_kernel(const LayerNormAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  LayerNormLayout l = layer_norm_layout("LayerNorm", a.begin_norm_axis, a.begin_params_axis, in[0].shape());
  if (l.rows == 0) return;
  if (in[0].dtype() == DType::Float64) return run<double>(a, l, in, out);
  run<float>(a, l, in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_norm_layer) { register_kernel<LayerNormAttrs>("LayerNorm", Device::CPU, layer_norm_kernel); }

}  // namespace sprout
