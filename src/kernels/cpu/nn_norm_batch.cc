// BatchNorm's two backends: oneDNN's batch_normalization_forward for float32, and direct loops
// (two passes per channel: mean, then variance about it) for float64.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "base/error.h"
#include "kernels/cpu/nn_norm_kernels.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/parallel.h"

namespace sprout {
namespace {

struct BatchNormPlan {
  dnnl::batch_normalization_forward::primitive_desc pd;
  dnnl::batch_normalization_forward prim;
};

}  // namespace

void onednn_batch_norm(const BatchNormProblem& p, const float* x, const float* scale, const float* bias, float* mean,
                       float* var, float* y) {
  using dnnl::memory;
  memory::desc data_md({p.n, p.c, p.s, 1}, memory::data_type::f32, memory::format_tag::nchw);
  std::string key = str(p.n, ',', p.c, ',', p.s, ',', std::bit_cast<uint64_t>(p.epsilon), ',', p.training);
  auto& plan = onednn::cached<BatchNormPlan>(key, [&] {
    auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
    if (!p.training) flags = flags | dnnl::normalization_flags::use_global_stats;
    auto prop = p.training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    dnnl::batch_normalization_forward::desc desc(prop, data_md, static_cast<float>(p.epsilon), flags);
    dnnl::batch_normalization_forward::primitive_desc pd(desc, onednn::engine());
    return BatchNormPlan{pd, dnnl::batch_normalization_forward(pd)};
  });
  auto wrap = [](const memory::desc& md, const void* data) {
    return memory(md, onednn::engine(), const_cast<void*>(data));
  };
  memory::desc channel_md({p.c}, memory::data_type::f32, memory::format_tag::a);
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(data_md, x)},
                                       {DNNL_ARG_DST, wrap(data_md, y)},
                                       {DNNL_ARG_SCALE, wrap(channel_md, scale)},
                                       {DNNL_ARG_SHIFT, wrap(channel_md, bias)},
                                       {DNNL_ARG_MEAN, wrap(plan.pd.mean_desc(), mean)},
                                       {DNNL_ARG_VARIANCE, wrap(plan.pd.variance_desc(), var)}});
  onednn::stream().wait();
}

template <class T>
void loop_batch_norm(const BatchNormProblem& p, const T* x, const T* scale, const T* bias, T* mean, T* var, T* y) {
  const int64_t plane = p.s, count = p.n * p.s;
  parallel_for(p.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(count, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      if (p.training) {
        T sum = 0;
        for (int64_t i = 0; i < p.n; ++i)
          for (int64_t j = 0; j < plane; ++j) sum += x[(i * p.c + ch) * plane + j];
        T mu = sum / static_cast<T>(count), sq = 0;
        for (int64_t i = 0; i < p.n; ++i)
          for (int64_t j = 0; j < plane; ++j) {
            T d = x[(i * p.c + ch) * plane + j] - mu;
            sq += d * d;
          }
        mean[ch] = mu;
        var[ch] = sq / static_cast<T>(count);
      }
      T gain = scale[ch] / std::sqrt(var[ch] + static_cast<T>(p.epsilon)), mu = mean[ch];
      for (int64_t i = 0; i < p.n; ++i)
        for (int64_t j = 0; j < plane; ++j) {
          int64_t at = (i * p.c + ch) * plane + j;
          y[at] = (x[at] - mu) * gain + bias[ch];
        }
    }
  });
}

template void loop_batch_norm<double>(const BatchNormProblem&, const double*, const double*, const double*, double*,
                                      double*, double*);

}  // namespace sprout
