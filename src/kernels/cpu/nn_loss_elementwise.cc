// CPU kernels of the elementwise losses. One driver walks the logits' shape with every other input
// broadcast onto it (NdLoop, no copies), computes each element's loss in float (double for Float64)
// into a buffer, split across threads, then reduces it with a double accumulator.
#include <cmath>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/parallel.h"
#include "ops/nn_loss.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

template <class C>
C softplus(C x) { return std::max(x, C(0)) + std::log1p(std::exp(-std::abs(x))); }

// Runs loss(v[0], ..., v[K-1]) over the elements of in[0] (the others broadcast to its shape) and
// writes the result reduced by `r` into out.
template <size_t K, class Loss>
void elementwise_loss(std::span<const Tensor> in, Reduction r, const Tensor& out, Loss loss) {
  const Tensor& x = in[0];
  const int64_t count = x.numel();
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      Tensor values = Tensor::empty(x.shape(), dtype_of<C>());
      std::array<Tensor, K> ins;
      std::array<std::span<const int64_t>, K + 1> strides;
      strides[0] = values.strides();
      for (size_t k = 0; k < K; ++k) {
        ins[k] = in[k].expand(x.shape());
        strides[k + 1] = ins[k].strides();
      }
      NdLoop<K + 1> loop(x.shape(), strides);
      C* pv = values.data<C>();
      std::array<const T*, K> base;
      for (size_t k = 0; k < K; ++k) base[k] = static_cast<const T*>(ins[k].raw_data());
      parallel_for(count, kParallelGrain / 8, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, K + 1>& off, int64_t n) {
          std::array<C, K> v;
          for (int64_t i = 0; i < n; ++i) {
            for (size_t k = 0; k < K; ++k)
              v[k] = static_cast<C>(base[k][off[k + 1] + i * loop.inner_stride(k + 1)]);
            pv[off[0] + i] = std::apply(loss, v);
          }
        });
      });
      if (r == Reduction::None) return convert_into(values, out);
      double sum = 0;
      for (int64_t i = 0; i < count; ++i) sum += pv[i];
      if (r == Reduction::Mean) sum /= static_cast<double>(count);  // a mean of nothing is NaN
      if (r == Reduction::BatchMean) sum /= static_cast<double>(x.ndim() ? x.shape()[0] : 1);
      Tensor total = Tensor::empty(Shape{}, dtype_of<C>());
      total.data<C>()[0] = static_cast<C>(sum);
      convert_into(total, out);
    } else {
      SPROUT_ASSERT(false, "loss kernel on ", name(x.dtype()));
    }
  });
}

void bce_logits_kernel(const ReductionAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  elementwise_loss<4>(in, parse_reduction("BCEWithLogitsLoss", a.reduction), out[0], [](auto x, auto y, auto w, auto pw) {
    return w * (pw * y * softplus(-x) + (1 - y) * softplus(x));
  });
}

void bce_kernel(const ReductionAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  elementwise_loss<3>(in, parse_reduction("BinaryCrossEntropy", a.reduction), out[0], [](auto x, auto y, auto w) {
    using C = decltype(x);
    C log_x = std::max(std::log(x), C(-100)), log_1mx = std::max(std::log(1 - x), C(-100));
    return -w * (y * log_x + (1 - y) * log_1mx);
  });
}

void smooth_l1_kernel(const SmoothL1LossAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  elementwise_loss<2>(in, parse_reduction("SmoothL1Loss", a.reduction), out[0], [beta = a.beta](auto x, auto y) {
    using C = decltype(x);
    C d = std::abs(x - y), b = static_cast<C>(beta);
    return d < b ? C(0.5) * d * d / b : d - C(0.5) * b;
  });
}

void kl_div_kernel(const KLDivLossAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  elementwise_loss<2>(in, parse_reduction("KLDivLoss", a.reduction, true), out[0], [](auto x, auto y) {
    using C = decltype(x);
    return y > C(0) ? y * (std::log(y) - x) : (std::isnan(y) ? y : C(0));
  });
}

void l2_loss_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  elementwise_loss<1>(in, Reduction::Sum, out[0], [](auto x) { return decltype(x)(0.5) * x * x; });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_loss_elementwise) {
  register_kernel<ReductionAttrs>("BCEWithLogitsLoss", Device::CPU, bce_logits_kernel);
  register_kernel<ReductionAttrs>("BinaryCrossEntropy", Device::CPU, bce_kernel);
  register_kernel<SmoothL1LossAttrs>("SmoothL1Loss", Device::CPU, smooth_l1_kernel);
  register_kernel<KLDivLossAttrs>("KLDivLoss", Device::CPU, kl_div_kernel);
  register_kernel<NoAttrs>("L2Loss", Device::CPU, l2_loss_kernel);
}

}  // namespace sprout
