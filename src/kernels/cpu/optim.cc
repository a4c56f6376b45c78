// CPU kernels of the elementwise optimizer updates (formulas in src/ops/optim.cc). Each is one fused
// loop: the states arrive as `out` (var first) and are written in place (Note [In-place updates]).
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
  fused_update<1, 1>(out, {in[2]}, [&](auto u, auto r, int64_t m) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C a = static_cast<C>(alpha);
    for (int64_t i = 0; i < m; ++i) u[0][i] -= a * r[0][i];
  });
}

void momentum_kernel(const ApplyMomentumAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double lr = scalar_of(in[2]), momentum = scalar_of(in[4]);
  fused_update<2, 1>(out, {in[3]}, [&](auto u, auto r, int64_t m) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C l = static_cast<C>(lr), mu = static_cast<C>(momentum), scale = static_cast<C>(attrs.gradient_scale);
    C* var = u[0];
    C* acc = u[1];
    if (attrs.use_nesterov) {
      for (int64_t i = 0; i < m; ++i) {
        const C g = scale * r[0][i], a = mu * acc[i] + g;
        acc[i] = a;
        var[i] -= l * (g + mu * a);
      }
    } else {
      for (int64_t i = 0; i < m; ++i) {
        const C a = mu * acc[i] + scale * r[0][i];
        acc[i] = a;
        var[i] -= l * a;
      }
    }
  });
}

void adam_kernel(const AdamAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double b1p = scalar_of(in[3]), b2p = scalar_of(in[4]), lr = scalar_of(in[5]);
  const double beta1 = scalar_of(in[6]), beta2 = scalar_of(in[7]), eps = scalar_of(in[8]);
  const double lr_t = lr * std::sqrt(1 - b2p) / (1 - b1p);  // the bias corrections folded into the rate
  const AdamStep step{lr_t, beta1, beta2, eps, attrs.use_nesterov};
  fused_update<3, 1>(out, {in[9]}, [&](auto u, auto r, int64_t n) { simd_adam(step, u[0], u[1], u[2], r[0], n); });
}

void adam_weight_decay_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double lr = scalar_of(in[3]), beta1 = scalar_of(in[4]), beta2 = scalar_of(in[5]);
  const double eps = scalar_of(in[6]), decay = scalar_of(in[7]);
  fused_update<3, 1>(out, {in[8]}, [&](auto u, auto r, int64_t n) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C l = static_cast<C>(lr), b1 = static_cast<C>(beta1), b2 = static_cast<C>(beta2), e = static_cast<C>(eps),
            d = static_cast<C>(decay);
    C* var = u[0];
    C* m = u[1];
    C* v = u[2];
    for (int64_t i = 0; i < n; ++i) {
      const C g = r[0][i];
      const C mi = b1 * m[i] + (1 - b1) * g, vi = b2 * v[i] + (1 - b2) * g * g;
      m[i] = mi;
      v[i] = vi;
      var[i] -= l * (mi / (std::sqrt(vi) + e) + d * var[i]);
    }
  });
}

void rmsprop_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double lr = scalar_of(in[3]), decay = scalar_of(in[5]), momentum = scalar_of(in[6]), eps = scalar_of(in[7]);
  fused_update<3, 1>(out, {in[4]}, [&](auto u, auto r, int64_t n) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C l = static_cast<C>(lr), rho = static_cast<C>(decay), mu = static_cast<C>(momentum), e = static_cast<C>(eps);
    C* var = u[0];
    C* ms = u[1];
    C* mom = u[2];
    for (int64_t i = 0; i < n; ++i) {
      const C g = r[0][i];
      const C s = rho * ms[i] + (1 - rho) * g * g;
      const C mo = mu * mom[i] + l * g / std::sqrt(s + e);
      ms[i] = s;
      mom[i] = mo;
      var[i] -= mo;
    }
  });
}

void centered_rmsprop_kernel(const LockingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double lr = scalar_of(in[5]), decay = scalar_of(in[6]), momentum = scalar_of(in[7]), eps = scalar_of(in[8]);
  fused_update<4, 1>(out, {in[4]}, [&](auto u, auto r, int64_t n) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C l = static_cast<C>(lr), rho = static_cast<C>(decay), mu = static_cast<C>(momentum), e = static_cast<C>(eps);
    C* var = u[0];
    C* mg = u[1];
    C* ms = u[2];
    C* mom = u[3];
    for (int64_t i = 0; i < n; ++i) {
      const C g = r[0][i];
      const C gm = rho * mg[i] + (1 - rho) * g, s = rho * ms[i] + (1 - rho) * g * g;
      const C mo = mu * mom[i] + l * g / std::sqrt(s - gm * gm + e);
      mg[i] = gm;
      ms[i] = s;
      mom[i] = mo;
      var[i] -= mo;
    }
  });
}

void adagrad_kernel(const ApplyAdagradAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double lr = scalar_of(in[2]);
  fused_update<2, 1>(out, {in[3]}, [&](auto u, auto r, int64_t n) {
    using C = std::remove_pointer_t<typename decltype(u)::value_type>;
    const C l = static_cast<C>(lr);
    const bool update_slots = attrs.update_slots;
    C* var = u[0];
    C* acc = u[1];
    for (int64_t i = 0; i < n; ++i) {
      const C g = r[0][i], a = update_slots ? acc[i] + g * g : acc[i];
      acc[i] = a;
      var[i] -= l * g / std::sqrt(a);
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_optim) {
  register_kernel<NoAttrs>("ApplyGradientDescent", Device::CPU, gradient_descent_kernel);
  register_kernel<ApplyMomentumAttrs>("ApplyMomentum", Device::CPU, momentum_kernel);
  register_kernel<AdamAttrs>("Adam", Device::CPU, adam_kernel);
  register_kernel<LockingAttrs>("AdamWeightDecay", Device::CPU, adam_weight_decay_kernel);
  register_kernel<LockingAttrs>("ApplyRMSProp", Device::CPU, rmsprop_kernel);
  register_kernel<LockingAttrs>("ApplyCenteredRMSProp", Device::CPU, centered_rmsprop_kernel);
  register_kernel<ApplyAdagradAttrs>("ApplyAdagrad", Device::CPU, adagrad_kernel);
}

}  // namespace sprout
