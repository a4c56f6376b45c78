// CPU kernels of BatchNorm and BatchNormGrad (Note [BatchNorm outputs]): float32 (float16 widened) and
// float64 through the loops of nn_norm_batch.cc (Note [BatchNorm kernels]).
#include <algorithm>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_norm_kernels.h"
#include "ops/nn_norm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// `value` (float32 or float64) written into `target` of any floating dtype and layout.
void write_into(const Tensor& value, const Tensor& target) {
  if (value.dtype() == target.dtype()) return target.copy_from(value);
  Tensor narrowed = Tensor::empty(value.shape(), target.dtype());
  store_result(value, narrowed);
  target.copy_from(narrowed);
}

template <class T>
void run(const BatchNormAttrs& a, const BatchNormProblem& p, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor x = contiguous_compute(in[0]), scale = contiguous_compute(in[1]), bias = contiguous_compute(in[2]);
  DType t = x.dtype();
  Tensor y = compute_buffer(out[0]);
  // The statistics y is normalized with: computed here (training) or the running ones (inference).
  Tensor mean = p.training ? Tensor::empty(Shape{p.c}, t) : contiguous_compute(in[3]);
  Tensor var = p.training ? Tensor::empty(Shape{p.c}, t) : contiguous_compute(in[4]);
  if (p.n * p.c * p.s > 0)
    loop_batch_norm(p, x.data<T>(), scale.data<T>(), bias.data<T>(), mean.data<T>(), var.data<T>(), y.data<T>());
  store_result(y, out[0]);
  write_into(mean, out[3]);
  write_into(var, out[4]);
  if (!p.training) {
    write_into(mean, out[1]);
    write_into(var, out[2]);
    return;
  }
  Tensor running_mean = contiguous_compute(in[3]).clone(), running_var = contiguous_compute(in[4]).clone();
  const T m = static_cast<T>(a.momentum);
  T *rm = running_mean.data<T>(), *rv = running_var.data<T>();
  const T *bm = mean.data<T>(), *bv = var.data<T>();
  for (int64_t ch = 0; ch < p.c; ++ch) {
    rm[ch] = (1 - m) * rm[ch] + m * bm[ch];
    rv[ch] = (1 - m) * rv[ch] + m * bv[ch];
  }
  write_into(running_mean, out[1]);
  write_into(running_var, out[2]);
  write_into(running_mean, in[3]);  // MindSpore updates the running-statistics Parameters in place
  write_into(running_var, in[4]);
}

void batch_norm_kernel(const BatchNormAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Shape& xs = in[0].shape();
  BatchNormProblem p{xs[0], xs[1], xs.size() == 4 ? xs[2] * xs[3] : 1, a.epsilon, a.is_training};
  if (in[0].dtype() == DType::Float64) return run<double>(a, p, in, out);
  run<float>(a, p, in, out);
}

template <class T>
void run_grad(const BatchNormProblem& p, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor dy = contiguous_compute(in[0]), x = contiguous_compute(in[1]), scale = contiguous_compute(in[2]);
  Tensor mean = contiguous_compute(in[3]), var = contiguous_compute(in[4]);
  Tensor dx = compute_buffer(out[0]), dscale = compute_buffer(out[1]), dbias = compute_buffer(out[2]);
  if (p.n * p.s == 0) {  // an empty batch: no gradient
    std::fill(dscale.data<T>(), dscale.data<T>() + p.c, T(0));
    std::fill(dbias.data<T>(), dbias.data<T>() + p.c, T(0));
  } else {
    loop_batch_norm_backward(p, dy.data<T>(), x.data<T>(), scale.data<T>(), mean.data<T>(), var.data<T>(), dx.data<T>(),
                             dscale.data<T>(), dbias.data<T>());
  }
  store_result(dx, out[0]);
  store_result(dscale, out[1]);
  store_result(dbias, out[2]);
}

void batch_norm_grad_kernel(const BatchNormGradAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Shape& xs = in[1].shape();
  BatchNormProblem p{xs[0], xs[1], xs.size() == 4 ? xs[2] * xs[3] : 1, a.epsilon, a.is_training};
  if (in[1].dtype() == DType::Float64) return run_grad<double>(p, in, out);
  run_grad<float>(p, in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_norm) {
  register_kernel<BatchNormAttrs>("BatchNorm", Device::CPU, batch_norm_kernel);
  register_kernel<BatchNormGradAttrs>("BatchNormGrad", Device::CPU, batch_norm_grad_kernel);
}

}  // namespace sprout
