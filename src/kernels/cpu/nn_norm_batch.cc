// BatchNorm's two backends, forward and backward: oneDNN's batch normalization primitives for float32,
// and direct loops (two passes per channel) for float64.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

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

struct BatchNormBackwardPlan {
  dnnl::batch_normalization_backward::primitive_desc pd;
  dnnl::batch_normalization_backward prim;
};

dnnl::memory::desc data_desc(const BatchNormProblem& p) {
  return dnnl::memory::desc({p.n, p.c, p.s, 1}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::nchw);
}

dnnl::normalization_flags flags_of(const BatchNormProblem& p) {
  auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  return p.training ? flags : flags | dnnl::normalization_flags::use_global_stats;
}

std::string problem_key(const char* pass, const BatchNormProblem& p) {
  return str(pass, p.n, ',', p.c, ',', p.s, ',', std::bit_cast<uint64_t>(p.epsilon), ',', p.training);
}

dnnl::memory wrap(const dnnl::memory::desc& md, const void* data) {
  return dnnl::memory(md, onednn::engine(), const_cast<void*>(data));
}

}  // namespace

void onednn_batch_norm(const BatchNormProblem& p, const float* x, const float* scale, const float* bias, float* mean,
                       float* var, float* y) {
  using dnnl::memory;
  memory::desc data_md = data_desc(p);
  auto& plan = onednn::cached<BatchNormPlan>(problem_key("fwd", p), [&] {
    auto prop = p.training ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
    dnnl::batch_normalization_forward::desc desc(prop, data_md, static_cast<float>(p.epsilon), flags_of(p));
    dnnl::batch_normalization_forward::primitive_desc pd(desc, onednn::engine());
    return BatchNormPlan{pd, dnnl::batch_normalization_forward(pd)};
  });
  memory::desc channel_md({p.c}, memory::data_type::f32, memory::format_tag::a);
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(data_md, x)},
                                       {DNNL_ARG_DST, wrap(data_md, y)},
                                       {DNNL_ARG_SCALE, wrap(channel_md, scale)},
                                       {DNNL_ARG_SHIFT, wrap(channel_md, bias)},
                                       {DNNL_ARG_MEAN, wrap(plan.pd.mean_desc(), mean)},
                                       {DNNL_ARG_VARIANCE, wrap(plan.pd.variance_desc(), var)}});
  onednn::stream().wait();
}

void onednn_batch_norm_backward(const BatchNormProblem& p, const float* dy, const float* x, const float* scale,
                                const float* mean, const float* var, float* dx, float* dscale, float* dbias) {
  using dnnl::memory;
  memory::desc data_md = data_desc(p);
  auto& plan = onednn::cached<BatchNormBackwardPlan>(problem_key("bwd", p), [&] {
    auto eps = static_cast<float>(p.epsilon);
    dnnl::batch_normalization_forward::primitive_desc hint(
        dnnl::batch_normalization_forward::desc(dnnl::prop_kind::forward_training, data_md, eps, flags_of(p)),
        onednn::engine());
    dnnl::batch_normalization_backward::desc desc(dnnl::prop_kind::backward, data_md, data_md, eps, flags_of(p));
    dnnl::batch_normalization_backward::primitive_desc pd(desc, onednn::engine(), hint);
    return BatchNormBackwardPlan{pd, dnnl::batch_normalization_backward(pd)};
  });
  memory::desc channel_md({p.c}, memory::data_type::f32, memory::format_tag::a);
  // The primitive takes the shift as an argument although the gradients do not depend on it.
  std::vector<float> shift(static_cast<size_t>(p.c), 0.0f);
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(data_md, x)},
                                       {DNNL_ARG_SHIFT, wrap(channel_md, shift.data())},
                                       {DNNL_ARG_DIFF_DST, wrap(data_md, dy)},
                                       {DNNL_ARG_MEAN, wrap(plan.pd.mean_desc(), mean)},
                                       {DNNL_ARG_VARIANCE, wrap(plan.pd.variance_desc(), var)},
                                       {DNNL_ARG_SCALE, wrap(channel_md, scale)},
                                       {DNNL_ARG_DIFF_SRC, wrap(data_md, dx)},
                                       {DNNL_ARG_DIFF_SCALE, wrap(channel_md, dscale)},
                                       {DNNL_ARG_DIFF_SHIFT, wrap(channel_md, dbias)}});
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

// Per channel: one pass for sum(dy) and sum(dy * xhat), one to write dx.
template <class T>
void loop_batch_norm_backward(const BatchNormProblem& p, const T* dy, const T* x, const T* scale, const T* mean,
                              const T* var, T* dx, T* dscale, T* dbias) {
  const int64_t plane = p.s, count = p.n * p.s;
  parallel_for(p.c, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(count, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      const T mu = mean[ch], rstd = 1 / std::sqrt(var[ch] + static_cast<T>(p.epsilon));
      T sum_dy = 0, sum_dy_xhat = 0;
      for (int64_t i = 0; i < p.n; ++i)
        for (int64_t j = 0; j < plane; ++j) {
          int64_t at = (i * p.c + ch) * plane + j;
          sum_dy += dy[at];
          sum_dy_xhat += dy[at] * (x[at] - mu) * rstd;
        }
      dscale[ch] = sum_dy_xhat;
      dbias[ch] = sum_dy;
      const T gain = scale[ch] * rstd, m = static_cast<T>(count);
      for (int64_t i = 0; i < p.n; ++i)
        for (int64_t j = 0; j < plane; ++j) {
          int64_t at = (i * p.c + ch) * plane + j;
          dx[at] = p.training ? gain * (dy[at] - (sum_dy + (x[at] - mu) * rstd * sum_dy_xhat) / m) : gain * dy[at];
        }
    }
  });
}

template void loop_batch_norm_backward<double>(const BatchNormProblem&, const double*, const double*, const double*,
                                               const double*, const double*, double*, double*, double*);
template void loop_batch_norm<double>(const BatchNormProblem&, const double*, const double*, const double*, double*,
                                      double*, double*);

}  // namespace sprout
