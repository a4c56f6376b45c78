// Optimizer update ops, in place (Note [In-place updates]): ApplyGradientDescent, ApplyMomentum, Adam,
// AdamWeightDecay, ApplyRMSProp, ApplyCenteredRMSProp, ApplyAdagrad, Lamb, SGD, ApplyAdaMax, ApplyAdadelta.
// The formulas are MindSpore's, written out in each op's doc.
#include "ops/infer_util.h"
#include "ops/optim.h"
#include "ops/optim_dispatch.h"

namespace sprout {
namespace {

using V = Emitter::Value;

std::string_view roles_of(const OpDef& op) {
  for (const UpdateSignature& s : kUpdateSignatures)
    if (s.op == op.name) return s.roles;
  SPROUT_ASSERT(false, op.name, " has no entry in kUpdateSignatures");
}

template <class A>
std::vector<TensorSpec> infer_update(const OpDef& op, const A&, std::span<const TensorSpec> in) {
  const std::string_view roles = roles_of(op);
  SPROUT_ASSERT(roles.size() == op.inputs.size(), op.name, ": roles and inputs disagree");
  const TensorSpec& var = in[0];
  check_floating(op, 0, var);
  for (size_t i = 1; i < in.size(); ++i) {
    if (roles[i] == 's') {
      SPROUT_CHECK(numel(in[i].shape) == 1, ValueError, op.name, ": '", op.inputs[i],
                   "' must be a scalar (a number or a one-element tensor), but got shape ", shape_str(in[i].shape));
      SPROUT_CHECK(in[i].dtype != DType::Bool, TypeError, op.name, ": '", op.inputs[i],
                   "' must be a real number, but got a Bool tensor");
      continue;
    }
    SPROUT_CHECK(in[i].dtype == var.dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '",
                 op.inputs[0], "' (", name(var.dtype), "), but got ", name(in[i].dtype));
    SPROUT_CHECK(in[i].shape == var.shape, ValueError, op.name, ": '", op.inputs[i], "' must have the shape of '",
                 op.inputs[0], "' ", shape_str(var.shape), ", but got ", shape_str(in[i].shape));
  }
  return std::vector<TensorSpec>(op.outputs.size(), var);
}

template <class A, const char* kName>
std::vector<Tensor> dispatch(const A& attrs, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get(kName);
  return run_in_place(def, &attrs, in, roles_of(def));
}

BpropFn no_gradient() {
  return [](Emitter&, const BpropArgs& args) { return std::vector<V>(args.inputs.size()); };
}

template <class A, const char* kName>
void update_op(std::string doc, std::vector<std::string> inputs, std::vector<std::string> outputs) {
  const size_t n_outputs = outputs.size();
  define_op<A>(kName)
      .side_effect()
      .doc(std::move(doc))
      .inputs(std::move(inputs))
      .outputs(std::move(outputs))
      .non_differentiable(std::vector<bool>(n_outputs, true))
      .infer(infer_update<A>)
      .view(dispatch<A, kName>)
      .bprop(no_gradient());
}

constexpr char kGradientDescent[] = "ApplyGradientDescent", kMomentum[] = "ApplyMomentum", kAdam[] = "Adam",
               kAdamWeightDecay[] = "AdamWeightDecay", kRMSProp[] = "ApplyRMSProp",
               kCenteredRMSProp[] = "ApplyCenteredRMSProp", kAdagrad[] = "ApplyAdagrad", kLamb[] = "Lamb",
               kSGD[] = "SGD", kAdaMax[] = "ApplyAdaMax", kAdadelta[] = "ApplyAdadelta";

}  // namespace

SPROUT_REGISTER(optim) {
  update_op<NoAttrs, kGradientDescent>("In place: var -= alpha * delta; returns var.", {"var", "alpha", "delta"},
                                       {"var"});
  update_op<ApplyMomentumAttrs, kMomentum>(
      "In place: accum = momentum * accum + g (g = gradient_scale * gradient); variable -= learning_rate * accum, "
      "or with use_nesterov variable -= learning_rate * (g + momentum * accum); returns variable.",
      {"variable", "accumulation", "learning_rate", "gradient", "momentum"}, {"output"});
  update_op<AdamAttrs, kAdam>(
      "In place: m = beta1 * m + (1 - beta1) * g, v = beta2 * v + (1 - beta2) * g * g, "
      "var -= lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m' / (sqrt(v) + epsilon) with m' = m, or with "
      "use_nesterov m' = beta1 * m + (1 - beta1) * g; returns (var, m, v).",
      {"var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "gradient"},
      {"var", "m", "v"});
  update_op<LockingAttrs, kAdamWeightDecay>(
      "In place: m = beta1 * m + (1 - beta1) * g, v = beta2 * v + (1 - beta2) * g * g, "
      "var -= lr * (m / (sqrt(v) + epsilon) + decay * var); returns (var, m, v).",
      {"var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "gradient"}, {"var", "m", "v"});
  update_op<LockingAttrs, kRMSProp>(
      "In place: mean_square = decay * mean_square + (1 - decay) * grad^2, moment = momentum * moment + "
      "learning_rate * grad / sqrt(mean_square + epsilon), var -= moment; returns var.",
      {"var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum", "epsilon"}, {"var"});
  update_op<LockingAttrs, kCenteredRMSProp>(
      "In place: mean_gradient = decay * mean_gradient + (1 - decay) * grad, mean_square = decay * mean_square + "
      "(1 - decay) * grad^2, moment = momentum * moment + learning_rate * grad / sqrt(mean_square - "
      "mean_gradient^2 + epsilon), var -= moment; returns var.",
      {"var", "mean_gradient", "mean_square", "moment", "grad", "learning_rate", "decay", "momentum", "epsilon"},
      {"var"});
  update_op<ApplyAdagradAttrs, kAdagrad>(
      "In place: accum += grad^2 (if update_slots), var -= lr * grad / sqrt(accum); returns (var, accum).",
      {"var", "accum", "lr", "grad"}, {"var", "accum"});
  update_op<NoAttrs, kLamb>(
      "In place, with t = global_step: m = beta1 * m + (1 - beta1) * g, v = beta2 * v + (1 - beta2) * g^2, "
      "r = m / (1 - beta1^t) / (sqrt(v / (1 - beta2^t)) + epsilon) + decay * var, "
      "var -= lr * ratio * r with ratio = ||var|| / ||r|| (1 if either norm is 0); returns var.",
      {"var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "global_step", "gradient"}, {"var"});
  update_op<SGDAttrs, kSGD>(
      "In place, with g = gradient + weight_decay * parameters: when momentum > 0, accum = g where stat > 0 (the "
      "first step) and momentum * accum + (1 - dampening) * g elsewhere, stat = 0, and g becomes accum, or with "
      "nesterov g + momentum * accum; then parameters -= learning_rate * g; returns parameters.",
      {"parameters", "gradient", "learning_rate", "accum", "momentum", "stat"}, {"parameters"});
  update_op<LockingAttrs, kAdaMax>(
      "In place: m = beta1 * m + (1 - beta1) * grad, v = max(beta2 * v, |grad|), "
      "var -= lr / (1 - beta1_power) * m / (v + epsilon); returns (var, m, v).",
      {"var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"}, {"var", "m", "v"});
  update_op<LockingAttrs, kAdadelta>(
      "In place: accum = rho * accum + (1 - rho) * grad^2, update = sqrt(accum_update + epsilon) / "
      "sqrt(accum + epsilon) * grad, accum_update = rho * accum_update + (1 - rho) * update^2, var -= lr * update; "
      "returns (var, accum, accum_update).",
      {"var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"}, {"var", "accum", "accum_update"});
}

}  // namespace sprout
