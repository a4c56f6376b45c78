// CPU kernels of the elementwise optimizer updates (formulas in src/ops/optim.cc). Each is one fused
// loop: the states arrive as `out` (var first) and are written in place (Note [In-place updates]), the
// arithmetic in the vector loops of optim_simd.cc.
// Hyperparameters are converted to the compute type once, outside the loop.
#include <cmath>

#include "kernels/cpu/optim_loops.h"
#include "kernels/cpu/optim_simd.h"
#include "ops/op_def.h"
#include "ops/optim.h"

namespace sprout {
namespace {

void gradient_descent_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double alpha = scalar_of(in[1]);
  fused_update<1, 1>(out, {in[2]}, [&](auto u, auto r, int64_t n) { simd_gradient_descent(alpha, u[0], r[0], n); });
}

void momentum_kernel(const ApplyMomentumAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const MomentumStep step{scalar_of(in[2]), scalar_of(in[4]), attrs.gradient_scale, attrs.use_nesterov};
  fused_update<2, 1>(out, {in[3]}, [&](auto u, auto r, int64_t n) { simd_momentum(step, u[0], u[1], r[0], n); });
}

void sgd_kernel(const SGDAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  // out: the states parameters, accum, stat (inputs 0, 3, 5); in[1] the gradient.
  const SgdStep step{scalar_of(in[2]), scalar_of(in[4]), attrs.dampening, attrs.weight_decay, attrs.nesterov};
  fused_update<3, 1>(out, {in[1]}, [&](auto u, auto r, int64_t n) { simd_sgd(step, u[0], u[1], u[2], r[0], n); });
}

void adam_kernel(const AdamAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double b1p = scalar_of(in[3]), b2p = scalar_of(in[4]), lr = scalar_of(in[5]);
  const double beta1 = scalar_of(in[6]), beta2 = scalar_of(in[7]), eps = scalar_of(in[8]);
  const double lr_t = lr * std::sqrt(1 - b2p) / (1 - b1p);  // the bias corrections folded into the rate
  const AdamStep step{lr_t, beta1, beta2, eps, attrs.use_nesterov};
  fused_update<3, 1>(out, {in[9]}, [&](auto u, auto r, int64_t n) { simd_adam(step, u[0], u[1], u[2], r[0], n); });
}

void adam_weight_decay_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const AdamWeightDecayStep step{scalar_of(in[3]), scalar_of(in[4]), scalar_of(in[5]), scalar_of(in[6]),
                                 scalar_of(in[7])};
  fused_update<3, 1>(out, {in[8]},
                     [&](auto u, auto r, int64_t n) { simd_adam_weight_decay(step, u[0], u[1], u[2], r[0], n); });
}

void adamax_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  // The bias correction folded into the rate: lr / (1 - beta1_power).
  const AdaMaxStep step{scalar_of(in[4]) / (1 - scalar_of(in[3])), scalar_of(in[5]), scalar_of(in[6]), scalar_of(in[7])};
  fused_update<3, 1>(out, {in[8]}, [&](auto u, auto r, int64_t n) { simd_adamax(step, u[0], u[1], u[2], r[0], n); });
}

void adadelta_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const AdadeltaStep step{scalar_of(in[3]), scalar_of(in[4]), scalar_of(in[5])};
  fused_update<3, 1>(out, {in[6]}, [&](auto u, auto r, int64_t n) { simd_adadelta(step, u[0], u[1], u[2], r[0], n); });
}

void rmsprop_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const RmsPropStep step{scalar_of(in[3]), scalar_of(in[5]), scalar_of(in[6]), scalar_of(in[7])};
  fused_update<3, 1>(out, {in[4]}, [&](auto u, auto r, int64_t n) { simd_rmsprop(step, u[0], u[1], u[2], r[0], n); });
}

void centered_rmsprop_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const RmsPropStep step{scalar_of(in[5]), scalar_of(in[6]), scalar_of(in[7]), scalar_of(in[8])};
  fused_update<4, 1>(out, {in[4]},
                     [&](auto u, auto r, int64_t n) { simd_centered_rmsprop(step, u[0], u[1], u[2], u[3], r[0], n); });
}

void adagrad_kernel(const ApplyAdagradAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const AdagradStep step{scalar_of(in[2]), attrs.update_slots};
  fused_update<2, 1>(out, {in[3]}, [&](auto u, auto r, int64_t n) { simd_adagrad(step, u[0], u[1], r[0], n); });
}

}  // namespace

SPROUT_REGISTER(cpu_optim) {
  register_kernel<NoAttrs>("ApplyGradientDescent", Device::CPU, gradient_descent_kernel);
  register_kernel<ApplyMomentumAttrs>("ApplyMomentum", Device::CPU, momentum_kernel);
  register_kernel<SGDAttrs>("SGD", Device::CPU, sgd_kernel);
  register_kernel<AdamAttrs>("Adam", Device::CPU, adam_kernel);
  register_kernel<LockingAttrs>("AdamWeightDecay", Device::CPU, adam_weight_decay_kernel);
  register_kernel<LockingAttrs>("ApplyAdaMax", Device::CPU, adamax_kernel);
  register_kernel<LockingAttrs>("ApplyAdadelta", Device::CPU, adadelta_kernel);
  register_kernel<LockingAttrs>("ApplyRMSProp", Device::CPU, rmsprop_kernel);
  register_kernel<LockingAttrs>("ApplyCenteredRMSProp", Device::CPU, centered_rmsprop_kernel);
  register_kernel<ApplyAdagradAttrs>("ApplyAdagrad", Device::CPU, adagrad_kernel);
}

}  // namespace sprout
