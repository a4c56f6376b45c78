// Unary math: abs and sign, powers and roots, rounding, exponentials and logarithms, trigonometric
// and hyperbolic functions, the error function. Transcendentals promote integer inputs to Float32
// (as MindSpore); abs, sign, square and round keep the dtype; floor and ceil take floats only.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_numeric(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return {in[0]};
}

std::vector<TensorSpec> infer_floating(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {in[0]};
}

template <class Rule>
void unary(const char* name, const char* doc, DTypePolicy policy, decltype(&infer_numeric) infer, Rule rule) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).dtype_policy(policy).infer(infer).bprop(
      bprop_rule([rule](BpropBuilder& b) -> std::vector<V> { return {rule(b, b.input(0), b.out(), b.dout())}; }));
}

// Transcendental: integer inputs become Float32 first.
template <class Rule>
void transcendental(const char* name, const char* doc, Rule rule) {
  unary(name, doc, DTypePolicy::PromoteToFloat, infer_floating, rule);
}

V exp_neg_square(BpropBuilder& b, V x) { return call(b, "Exp", {b.neg(square(b, x))}); }

constexpr double kTwoOverSqrtPi = 1.12837916709551257390;

}  // namespace

SPROUT_REGISTER(math_unary) {
  unary("Abs", "|x|, elementwise.", DTypePolicy::Exact, infer_numeric,
        [](BpropBuilder& b, V x, V, V d) { return b.mul(d, call(b, "Sign", {x})); });
  unary("Sign", "-1, 0 or 1 by the sign of x (NaN stays NaN), elementwise.", DTypePolicy::Exact, infer_numeric,
        [](BpropBuilder& b, V x, V, V) { return zero_grad(b, x); });
  unary("Square", "x * x, elementwise.", DTypePolicy::Exact, infer_numeric,
        [](BpropBuilder& b, V x, V, V d) { return b.mul(d, b.mul(x, scalar_like(b, 2, x))); });
  transcendental("Reciprocal", "1 / x, elementwise; integer inputs give Float32.",
                 [](BpropBuilder& b, V, V out, V d) { return b.neg(b.mul(d, square(b, out))); });
  transcendental("Rsqrt", "1 / sqrt(x), elementwise; integer inputs give Float32.", [](BpropBuilder& b, V, V out, V d) {
    return b.mul(d, b.mul(b.mul(out, square(b, out)), scalar_like(b, -0.5, out)));
  });
  unary("Floor", "The largest integer not greater than x, elementwise (floating-point inputs).", DTypePolicy::Exact,
        infer_floating, [](BpropBuilder& b, V x, V, V) { return zero_grad(b, x); });
  unary("Ceil", "The smallest integer not less than x, elementwise (floating-point inputs).", DTypePolicy::Exact,
        infer_floating, [](BpropBuilder& b, V x, V, V) { return zero_grad(b, x); });
  unary("Trunc", "x rounded toward zero, elementwise (floating-point inputs).", DTypePolicy::Exact, infer_floating,
        [](BpropBuilder& b, V x, V, V) { return zero_grad(b, x); });
  unary("Round", "x rounded to the nearest integer, halves to even; integers are returned as they are.",
        DTypePolicy::Exact, infer_numeric, [](BpropBuilder& b, V x, V, V) { return zero_grad(b, x); });

  transcendental("Expm1", "exp(x) - 1, accurate near 0.", [](BpropBuilder& b, V, V out, V d) {
    return b.mul(d, one_plus(b, out));
  });
  transcendental("Log1p", "log(1 + x), accurate near 0.", [](BpropBuilder& b, V x, V, V d) {
    return b.div(d, one_plus(b, x));
  });
  transcendental("Sin", "Sine, elementwise (radians).", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, call(b, "Cos", {x}));
  });
  transcendental("Cos", "Cosine, elementwise (radians).", [](BpropBuilder& b, V x, V, V d) {
    return b.neg(b.mul(d, call(b, "Sin", {x})));
  });
  transcendental("Tan", "Tangent, elementwise (radians).", [](BpropBuilder& b, V, V out, V d) {
    return b.mul(d, one_plus(b, square(b, out)));
  });
  transcendental("Asin", "Arcsine, elementwise; NaN outside [-1, 1].", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, call(b, "Rsqrt", {one_minus(b, square(b, x))}));
  });
  transcendental("ACos", "Arccosine, elementwise; NaN outside [-1, 1].", [](BpropBuilder& b, V x, V, V d) {
    return b.neg(b.mul(d, call(b, "Rsqrt", {one_minus(b, square(b, x))})));
  });
  transcendental("Atan", "Arctangent, elementwise.", [](BpropBuilder& b, V x, V, V d) {
    return b.div(d, one_plus(b, square(b, x)));
  });
  transcendental("Sinh", "Hyperbolic sine, elementwise.", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, call(b, "Cosh", {x}));
  });
  transcendental("Cosh", "Hyperbolic cosine, elementwise.", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, call(b, "Sinh", {x}));
  });
  transcendental("Tanh", "Hyperbolic tangent, elementwise.", [](BpropBuilder& b, V, V out, V d) {
    return b.mul(d, one_minus(b, square(b, out)));
  });
  // d erf(x) = 2/sqrt(pi) exp(-x^2); erfc = 1 - erf.
  transcendental("Erf", "The Gauss error function, elementwise.", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, b.mul(exp_neg_square(b, x), scalar_like(b, kTwoOverSqrtPi, x)));
  });
  transcendental("Erfc", "The complementary error function 1 - erf(x), elementwise.", [](BpropBuilder& b, V x, V, V d) {
    return b.mul(d, b.mul(exp_neg_square(b, x), scalar_like(b, -kTwoOverSqrtPi, x)));
  });
}

}  // namespace sprout
