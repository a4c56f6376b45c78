// Vectorized loops of the optimizer kernels (Highway, dispatched at run time as in simd.cc): the
// baseline build's auto-vectorized loops are SSE2 at best and keep sqrt and division scalar. Each
// function updates n elements of its states in place from n elements of the gradient g, with the
// formula of its op in src/ops/optim.cc; the hyperparameters arrive in double and are rounded to the
// element type once.
#pragma once

#include <cstdint>

namespace sprout {

// var -= alpha * g
void simd_gradient_descent(double alpha, float* var, const float* g, int64_t n);
void simd_gradient_descent(double alpha, double* var, const double* g, int64_t n);

struct MomentumStep {
  double lr, momentum, gradient_scale;
  bool nesterov;
};

// acc = momentum * acc + scale * g, var -= lr * acc; nesterov: var -= lr * (scale * g + momentum * acc).
void simd_momentum(const MomentumStep& s, float* var, float* acc, const float* g, int64_t n);
void simd_momentum(const MomentumStep& s, double* var, double* acc, const double* g, int64_t n);

struct SgdStep {
  double lr, momentum, dampening, weight_decay;
  bool nesterov;
};

// g += weight_decay * var; when momentum > 0: accum = g where stat > 0 (the first step), else
// momentum * accum + (1 - dampening) * g, stat = 0, and g = accum (nesterov: g + momentum * accum);
// then var -= lr * g.
void simd_sgd(const SgdStep& s, float* var, float* accum, float* stat, const float* g, int64_t n);
void simd_sgd(const SgdStep& s, double* var, double* accum, double* stat, const double* g, int64_t n);

struct AdamStep {
  double lr;  // with the bias corrections folded in
  double beta1, beta2, eps;
  bool nesterov;
};

// m = m + (g - m)(1 - beta1), v = v + (g^2 - v)(1 - beta2), var -= lr * step / (sqrt(v) + eps) with
// step = m, or beta1 m + (1 - beta1) g when nesterov.
void simd_adam(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n);
void simd_adam(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n);

struct AdaMaxStep {
  double lr;  // divided by 1 - beta1^t
  double beta1, beta2, eps;
};

// m = beta1 m + (1 - beta1) g, v = max(beta2 v, |g|), var -= lr m / (v + eps).
void simd_adamax(const AdaMaxStep& s, float* var, float* m, float* v, const float* g, int64_t n);
void simd_adamax(const AdaMaxStep& s, double* var, double* m, double* v, const double* g, int64_t n);

struct AdadeltaStep {
  double lr, rho, eps;
};

// accum = rho accum + (1 - rho) g^2, update = sqrt(accum_update + eps) / sqrt(accum + eps) g,
// accum_update = rho accum_update + (1 - rho) update^2, var -= lr update.
void simd_adadelta(const AdadeltaStep& s, float* var, float* accum, float* accum_update, const float* g, int64_t n);
void simd_adadelta(const AdadeltaStep& s, double* var, double* accum, double* accum_update, const double* g,
                   int64_t n);

struct AdamWeightDecayStep {
  double lr, beta1, beta2, eps, decay;
};

// m = beta1 m + (1 - beta1) g, v = beta2 v + (1 - beta2) g^2, var -= lr (m / (sqrt(v) + eps) + decay var).
void simd_adam_weight_decay(const AdamWeightDecayStep& s, float* var, float* m, float* v, const float* g, int64_t n);
void simd_adam_weight_decay(const AdamWeightDecayStep& s, double* var, double* m, double* v, const double* g,
                            int64_t n);

struct RmsPropStep {
  double lr, decay, momentum, eps;
};

// ms = decay ms + (1 - decay) g^2, mom = momentum mom + lr g / sqrt(ms + eps), var -= mom.
void simd_rmsprop(const RmsPropStep& s, float* var, float* ms, float* mom, const float* g, int64_t n);
void simd_rmsprop(const RmsPropStep& s, double* var, double* ms, double* mom, const double* g, int64_t n);

// As simd_rmsprop with mg = decay mg + (1 - decay) g and ms - mg^2 in place of ms under the root.
void simd_centered_rmsprop(const RmsPropStep& s, float* var, float* mg, float* ms, float* mom, const float* g,
                           int64_t n);
void simd_centered_rmsprop(const RmsPropStep& s, double* var, double* mg, double* ms, double* mom, const double* g,
                           int64_t n);

struct AdagradStep {
  double lr;
  bool update_slots;
};

// acc += g^2 (when update_slots), var -= lr g / sqrt(acc).
void simd_adagrad(const AdagradStep& s, float* var, float* acc, const float* g, int64_t n);
void simd_adagrad(const AdagradStep& s, double* var, double* acc, const double* g, int64_t n);

struct LambStep {
  double beta1, beta2, eps, decay;
  double bias1, bias2;  // 1 - beta1^t, 1 - beta2^t
};

// Lamb's first pass: m = beta1 m + (1 - beta1) g, v = beta2 v + (1 - beta2) g^2 in place; adds the sums
// of var^2 and of r^2 to sums[0] and sums[1] (in double), r = m / bias1 / (sqrt(v / bias2) + eps) +
// decay var the update direction.
void simd_lamb_moments(const LambStep& s, const float* var, float* m, float* v, const float* g, int64_t n,
                       double sums[2]);
void simd_lamb_moments(const LambStep& s, const double* var, double* m, double* v, const double* g, int64_t n,
                       double sums[2]);
// Its second: var -= step * r, r recomputed from the new m and v exactly as the first pass computed it.
void simd_lamb_step(const LambStep& s, double step, float* var, const float* m, const float* v, int64_t n);
void simd_lamb_step(const LambStep& s, double step, double* var, const double* m, const double* v, int64_t n);

}  // namespace sprout
