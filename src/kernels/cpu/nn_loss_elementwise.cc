// CPU kernels of the elementwise losses. One driver walks the logits' shape with every other input
// broadcast onto it (NdLoop, no copies), computes each element's loss in float (double for Float64)
// into a buffer, split across threads, then reduces it (SIMD partial sums, added in double). The
// transcendental terms (softplus, log) are computed first by the SIMD loops and join as inputs:
// a scalar libm call per element made BCEWithLogitsLoss 20x slower.
#include <cmath>
#include <utility>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_act_simd.h"
#include "base/parallel.h"
#include "kernels/cpu/simd.h"
#include "ops/nn_loss.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

// Runs fn with C the compute type of the floating dtype t.
template <class Fn>
void with_compute_type(DType t, Fn&& fn) {
  if (t == DType::Float64) fn(double{});
  else fn(float{});
}

// Runs loss(v[0], ..., v[K-1]) over the elements of in[0] (the others broadcast to its shape) and
// writes the result reduced by `r` into out. Inputs are read in the compute type C (half-precision
// ones are converted first), so precomputed SIMD terms (log, softplus) can join them as inputs.
template <size_t K, class Loss>
void elementwise_loss(std::span<const Tensor> in, Reduction r, const Tensor& out, Loss loss) {
  const Tensor& x = in[0];
  const int64_t count = x.numel();
  with_compute_type(x.dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor values = Tensor::empty(x.shape(), dtype_of<C>());
    std::array<Tensor, K> ins;
    std::array<std::span<const int64_t>, K + 1> strides;
    strides[0] = values.strides();
    for (size_t k = 0; k < K; ++k) {
      ins[k] = (in[k].dtype() == dtype_of<C>() ? in[k] : contiguous_as(in[k], dtype_of<C>())).expand(x.shape());
      strides[k + 1] = ins[k].strides();
    }
    NdLoop<K + 1> loop(x.shape(), strides);
    C* pv = values.data<C>();
    // Pointers and inner strides as locals, so the inner loop keeps them in registers.
    std::array<const C*, K> base;
    std::array<int64_t, K> inner;
    for (size_t k = 0; k < K; ++k) {
      base[k] = static_cast<const C*>(ins[k].raw_data());
      inner[k] = loop.inner_stride(k + 1);
    }
    bool all_unit = loop.inner_stride(0) == 1;
    for (size_t k = 0; k < K; ++k) all_unit = all_unit && inner[k] == 1;
    parallel_for(count, kParallelGrain / 8, [&](int64_t begin, int64_t end) {
      loop.run_elements(begin, end, [&](const std::array<int64_t, K + 1>& off, int64_t n) {
        std::array<const C*, K> row;
        for (size_t k = 0; k < K; ++k) row[k] = base[k] + off[k + 1];
        C* dst = pv + off[0];
        if (all_unit) {  // the common case: a loop the compiler vectorizes
          for (int64_t i = 0; i < n; ++i)
            dst[i] = [&]<size_t... k>(std::index_sequence<k...>) { return loss(row[k][i]...); }(std::make_index_sequence<K>{});
          return;
        }
        for (int64_t i = 0; i < n; ++i) {
          std::array<C, K> v;
          for (size_t k = 0; k < K; ++k) v[k] = row[k][i * inner[k]];
          dst[i] = std::apply(loss, v);
        }
      });
    });
    if (r == Reduction::None) return convert_into(values, out);
    // Vector partial sums over blocks, accumulated in double across blocks.
    double sum = 0;
    for (int64_t i = 0; i < count; i += 4096) sum += simd_reduce(ReduceOp::Sum, pv + i, std::min<int64_t>(4096, count - i));
    if (r == Reduction::Mean) sum /= static_cast<double>(count);  // a mean of nothing is NaN
    if (r == Reduction::BatchMean) sum /= static_cast<double>(x.ndim() ? x.shape()[0] : 1);
    Tensor total = Tensor::empty(Shape{}, dtype_of<C>());
    total.data<C>()[0] = static_cast<C>(sum);
    convert_into(total, out);
  });
}

// `x` in the compute type C mapped through a contiguous SIMD loop fn(in, out, n), split across threads:
// the transcendental part of a loss, computed ahead of the elementwise pass.
template <class C, class Fn>
Tensor simd_map(const Tensor& x, Fn fn) {
  Tensor xc = contiguous_as(x, dtype_of<C>());
  Tensor out = Tensor::empty(x.shape(), dtype_of<C>());
  const C* px = xc.data<C>();
  C* po = out.data<C>();
  parallel_for(xc.numel(), kParallelGrain / 8, [&](int64_t b, int64_t e) { fn(px + b, po + b, e - b); });
  return out;
}

void bce_logits_kernel(const ReductionAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    // softplus(-x) = softplus(x) - x: one SIMD softplus serves both terms.
    Tensor sp = simd_map<C>(in[0], [](const C* x, C* o, int64_t n) { simd_activation(Activation::Softplus, C(0), x, o, n); });
    const Tensor args[] = {in[0], in[1], in[2], in[3], sp};
    elementwise_loss<5>(args, parse_reduction("BCEWithLogitsLoss", a.reduction), out[0],
                        [](C x, C y, C w, C pw, C spx) { return w * (pw * y * (spx - x) + (1 - y) * spx); });
  });
}

void bce_kernel(const ReductionAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor log_x = simd_map<C>(in[0], [](const C* x, C* o, int64_t n) { simd_unary(UnaryOp::Log, x, o, n); });
    Tensor log_1mx = simd_map<C>(in[0], [](const C* x, C* o, int64_t n) {
      const C one = 1;
      simd_binary(BinaryOp::Sub, &one, 0, x, 1, o, n);
      C tmp[1024];  // simd_unary must not run in place
      for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = std::min<int64_t>(1024, n - i);
        std::copy(o + i, o + i + m, tmp);
        simd_unary(UnaryOp::Log, tmp, o + i, m);
      }
    });
    const Tensor args[] = {in[0], in[1], in[2], log_x, log_1mx};
    elementwise_loss<5>(args, parse_reduction("BinaryCrossEntropy", a.reduction), out[0], [](C, C y, C w, C lx, C l1mx) {
      return -w * (y * std::max(lx, C(-100)) + (1 - y) * std::max(l1mx, C(-100)));
    });
  });
}

void smooth_l1_kernel(const SmoothL1LossAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    const C b = static_cast<C>(a.beta), half_over_b = C(0.5) / b;
    // 0.5 min(d, b)^2 / b + max(d - b, 0) is the quadratic piece below beta and d - 0.5 beta above,
    // without a branch (a mispredicted one per element cost 10x).
    elementwise_loss<2>(in, parse_reduction("SmoothL1Loss", a.reduction), out[0], [=](C x, C y) {
      const C d = std::abs(x - y), m = std::min(d, b);
      return half_over_b * m * m + std::max(d - b, C(0));
    });
  });
}

void kl_div_kernel(const KLDivLossAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor log_y = simd_map<C>(in[1], [](const C* y, C* o, int64_t n) { simd_unary(UnaryOp::Log, y, o, n); });
    const Tensor args[] = {in[0], in[1], log_y.reshape(in[1].shape())};
    elementwise_loss<3>(args, parse_reduction("KLDivLoss", a.reduction, true), out[0], [](C x, C y, C ly) {
      const C term = y * (ly - x);
      return y > C(0) ? term : (y == y ? C(0) : y);  // 0 log 0 = 0; a NaN label stays NaN
    });
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
