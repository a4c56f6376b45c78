// Elementwise activations. Each keeps its input's shape and dtype; all but ReLU and ReLU6 take
// floating-point inputs only (as MindSpore). Gradients are written from registry ops (Sigmoid and
// Softplus included), so every rule is itself differentiable; ReLU, GeLU, SiLU and Sigmoid, the ones training
// spends most time in, use the fused gradient ops of nn_act_grad.cc.
#include "ops/infer_util.h"
#include "ops/nn_act.h"
#include "ops/nn_act_bprop.h"

namespace sprout {
namespace {

using nn::V;

std::vector<TensorSpec> infer_float_unary(const OpDef& op, const auto&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {in[0]};
}

std::vector<TensorSpec> infer_numeric_unary(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0],
                 {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::UInt8, DType::Float16, DType::BFloat16,
                  DType::Float32, DType::Float64});
  return {in[0]};
}

std::vector<TensorSpec> infer_gelu(const OpDef& op, const GeLUAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.approximate == "tanh" || a.approximate == "none", ValueError, op.name,
               ": 'approximate' must be 'none' or 'tanh', but got '", a.approximate, "'");
  return infer_float_unary(op, a, in);
}

// Declares a one-input activation whose rule maps (builder, x, out, dout) to dx.
template <class A, class Rule>
void activation(const char* name, const char* input, const char* doc,
                std::vector<TensorSpec> (*infer)(const OpDef&, const A&, std::span<const TensorSpec>), Rule rule) {
  define_op<A>(name).doc(doc).inputs({input}).outputs({"output"}).infer(infer).bprop(
      bprop_rule([rule](BpropBuilder& b) -> std::vector<V> { return {rule(b, b.input(0), b.out(), b.dout())}; }));
}

}  // namespace

SPROUT_REGISTER(nn_act) {
  activation<NoAttrs>("ReLU", "input_x", "max(x, 0), elementwise.", infer_numeric_unary,
                      [](BpropBuilder& b, V x, V out, V d) {
                        if (!is_floating(b.spec(x).dtype)) return V{};  // no gradient flows into integers
                        // The mask from the output (out > 0 exactly where x > 0), as MindSpore does: the
                        // input can then be freed after the forward, and in graph mode the bias add that
                        // produced it fuses with the ReLU (Note [Elementwise fusion]).
                        return b.emitter().emit("ReluGrad", {d, out});
                      });
  activation<NoAttrs>("ReLU6", "x", "min(max(x, 0), 6), elementwise.", infer_numeric_unary,
                      [](BpropBuilder& b, V x, V, V d) {
                        return b.mul(d, b.mul(nn::mask_greater(b, x, 0), nn::mask_less(b, x, 6)));
                      });
  activation<LeakyReLUAttrs>("LeakyReLU", "input_x", "x where x > 0, else alpha * x.", infer_float_unary,
                             [](BpropBuilder& b, V x, V, V d) {
                               double alpha = b.prim().attrs_as<LeakyReLUAttrs>().alpha;
                               V slope = nn::add_scalar(b, nn::mul_scalar(b, nn::mask_greater(b, x, 0), 1 - alpha), alpha);
                               return b.mul(d, slope);
                             });
  activation<EluAttrs>("Elu", "input_x", "x where x > 0, else alpha * (exp(x) - 1).", infer_float_unary,
                       [](BpropBuilder& b, V x, V out, V d) {
                         double alpha = b.prim().attrs_as<EluAttrs>().alpha;
                         V pos = nn::mask_greater(b, x, 0);  // slope 1 there, out + alpha elsewhere
                         V slope = b.add(pos, b.mul(nn::rsub_scalar(b, 1, pos), nn::add_scalar(b, out, alpha)));
                         return b.mul(d, slope);
                       });
  activation<GeLUAttrs>("GeLU", "x", "Gaussian error linear unit x * Phi(x), exact or tanh-approximated.", infer_gelu,
                        [](BpropBuilder& b, V x, V, V d) {
                          const std::string& approximate = b.prim().attrs_as<GeLUAttrs>().approximate;
                          return b.emitter().emit("GeLUGrad", {d, x}, {{"approximate", approximate}});
                        });
  activation<NoAttrs>("SiLU", "input", "x * sigmoid(x) (swish), elementwise.", infer_float_unary,
                      [](BpropBuilder& b, V x, V, V d) { return b.emitter().emit("SiLUGrad", {d, x}); });
  activation<NoAttrs>("Mish", "x", "x * tanh(softplus(x)), elementwise.", infer_float_unary,
                      [](BpropBuilder& b, V x, V, V d) {
                        V t = nn::tanh(b, nn::softplus(b, x));  // d = t + x (1 - t^2) sigmoid(x)
                        V sech2 = nn::rsub_scalar(b, 1, b.mul(t, t));
                        return b.mul(d, b.add(t, b.mul(b.mul(x, sech2), nn::sigmoid(b, x))));
                      });
  activation<NoAttrs>("HSwish", "x", "Hard swish x * relu6(x + 3) / 6, elementwise.", infer_float_unary,
                      [](BpropBuilder& b, V x, V, V d) {
                        V inside = b.mul(nn::mask_greater(b, x, -3), nn::mask_less(b, x, 3));
                        V ramp = b.mul(inside, nn::add_scalar(b, nn::mul_scalar(b, x, 1.0 / 3.0), 0.5));
                        V above = b.mask(b.greater_equal(x, nn::scalar_like(b, 3, x)), x);
                        return b.mul(d, b.add(ramp, above));
                      });
  activation<NoAttrs>("HSigmoid", "input_x", "Hard sigmoid relu6(x + 3) / 6, elementwise.", infer_float_unary,
                      [](BpropBuilder& b, V x, V, V d) {
                        V inside = b.mul(nn::mask_greater(b, x, -3), nn::mask_less(b, x, 3));
                        return b.mul(d, nn::mul_scalar(b, inside, 1.0 / 6.0));
                      });
  activation<NoAttrs>("Sigmoid", "input_x", "1 / (1 + exp(-x)), elementwise.", infer_float_unary,
                      [](BpropBuilder& b, V, V out, V d) { return b.emitter().emit("SigmoidGrad", {out, d}); });
  activation<NoAttrs>("Softplus", "input_x", "log(1 + exp(x)), elementwise, without overflow.", infer_float_unary,
                      [](BpropBuilder& b, V x, V, V d) { return b.mul(d, nn::sigmoid(b, x)); });
}

}  // namespace sprout
