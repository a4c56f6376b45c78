// Attributes of the optimizer update ops (ApplyMomentum, Adam, ...) and Assign/AssignAdd/AssignSub,
// shared with their kernels.
//
// Note [In-place updates]
// These ops write their state inputs (var, and the slots m, v, accum, ...) in place and return the
// updated var (MindSpore's Parameters are updated by the op itself, nothing is rebound). Eager mode
// runs them through the op's view slot, as ScatterAdd does: the dispatch function makes every input
// contiguous, runs the kernel with `outputs` = every state input (so the kernel's outputs span is
// longer than the op's output list), copies back into states that were not contiguous, and returns
// the first outputs.size() states. An update is one fused loop over memory: each element of var and
// its slots is read and written once, in blocks split across threads (Lamb needs two norms first, so
// two passes). Scalar hyperparameters are 0-d or one-element tensors of any real dtype, read once.
// The updates are not differentiable: their bprop rules return no gradient.
//
// use_locking is accepted for MindSpore compatibility and has no effect: an eager call runs alone on
// its tensors, so there is no concurrent writer to lock against.
#pragma once

#include <string_view>
#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// The role of each input of an update op, one character per input in the op's order:
//   'u' a state updated in place (var first), 't' a tensor read with var's shape and dtype (the
//   gradient), 's' a scalar hyperparameter.
struct UpdateSignature {
  std::string_view op;
  std::string_view roles;
};

inline constexpr UpdateSignature kUpdateSignatures[] = {
    {"ApplyGradientDescent", "ust"},
    {"ApplyMomentum", "uusts"},
    {"Adam", "uuusssssst"},
    {"AdamWeightDecay", "uuussssst"},
    {"ApplyRMSProp", "uuustsss"},
    {"ApplyCenteredRMSProp", "uuuutssss"},
    {"ApplyAdagrad", "uust"},
    {"Lamb", "uuusssssst"},
    {"SGD", "utsusu"},
    {"ApplyAdaMax", "uuussssst"},
    {"ApplyAdadelta", "uuussst"},
};

struct LockingAttrs {
  bool use_locking = false;
  static constexpr auto fields() {
    return std::tuple{attr("use_locking", &LockingAttrs::use_locking, "Accepted for MindSpore compatibility; no effect.")};
  }
};

struct ApplyMomentumAttrs {
  bool use_locking = false;
  bool use_nesterov = false;
  double gradient_scale = 1.0;
  static constexpr auto fields() {
    return std::tuple{
        attr("use_locking", &ApplyMomentumAttrs::use_locking, "Accepted for MindSpore compatibility; no effect."),
        attr("use_nesterov", &ApplyMomentumAttrs::use_nesterov, "Nesterov momentum: step along grad + momentum * accum."),
        attr("gradient_scale", &ApplyMomentumAttrs::gradient_scale, "Factor applied to the gradient first.")};
  }
};

struct AdamAttrs {
  bool use_locking = false;
  bool use_nesterov = false;
  static constexpr auto fields() {
    return std::tuple{attr("use_locking", &AdamAttrs::use_locking, "Accepted for MindSpore compatibility; no effect."),
                      attr("use_nesterov", &AdamAttrs::use_nesterov,
                           "Nesterov-accelerated step: beta1 * m + (1 - beta1) * grad in place of m.")};
  }
};

struct ApplyAdagradAttrs {
  bool update_slots = true;
  static constexpr auto fields() {
    return std::tuple{attr("update_slots", &ApplyAdagradAttrs::update_slots,
                           "Add grad * grad to 'accum' before the step (False: accum is read only).")};
  }
};

struct SGDAttrs {
  double dampening = 0.0;
  double weight_decay = 0.0;
  bool nesterov = false;
  static constexpr auto fields() {
    return std::tuple{
        attr("dampening", &SGDAttrs::dampening, "The gradient enters accum scaled by 1 - dampening."),
        attr("weight_decay", &SGDAttrs::weight_decay, "weight_decay * parameters is added to the gradient first."),
        attr("nesterov", &SGDAttrs::nesterov, "Nesterov momentum: step along grad + momentum * accum.")};
  }
};

}  // namespace sprout
