// Special functions: lgamma, digamma, polygamma and erfinv (Note [Special functions by series] in
// kernels/cpu/simd_special.h). Each derivative is the next function of the family (lgamma' = digamma,
// digamma' = polygamma(1), polygamma(n)' = polygamma(n + 1)) or, for erfinv, its own output: so the
// derivatives of every order are ops of this file. Integer inputs become Float32 first, as MindSpore.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "ops/math_special.h"

namespace sprout {
namespace {

using namespace math_bprop;

constexpr double kHalfSqrtPi = 0.88622692545275801365;  // sqrt(pi) / 2
constexpr int64_t kMaxPolygammaOrder = 170;

std::vector<TensorSpec> infer_special(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {in[0]};
}

std::vector<TensorSpec> infer_polygamma(const OpDef& op, const PolygammaAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.n >= 1, ValueError, op.name, ": 'n' must be >= 1 (order 0 is Digamma), but got ", a.n);
  SPROUT_CHECK(a.n <= kMaxPolygammaOrder, ValueError, op.name, ": 'n' must be <= ", kMaxPolygammaOrder,
               " (n! overflows float64 beyond), but got ", a.n);
  check_floating(op, 0, in[0]);
  return {in[0]};
}

V polygamma(BpropBuilder& b, int64_t n, V x) { return call(b, "Polygamma", {x}, {{"n", n}}); }

template <class Rule>
void special(const char* name, const char* doc, Rule rule) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).dtype_policy(DTypePolicy::PromoteToFloat)
      .infer(infer_special)
      .bprop(bprop_rule([rule](BpropBuilder& b) -> std::vector<V> {
        return {rule(b, b.input(0), b.out(), b.dout())};
      }));
}

}  // namespace

SPROUT_REGISTER(math_special) {
  special("Lgamma", "log |Gamma(x)|, elementwise: +inf at 0, the negative integers and +-inf.",
          [](BpropBuilder& b, V x, V, V d) { return b.mul(d, call(b, "Digamma", {x})); });
  special("Digamma", "The logarithmic derivative of the gamma function, elementwise: -inf at 0, NaN at the "
          "negative integers.", [](BpropBuilder& b, V x, V, V d) { return b.mul(d, polygamma(b, 1, x)); });
  // erfinv'(y) = 1 / erf'(erfinv(y)) = sqrt(pi)/2 exp(erfinv(y)^2).
  special("Erfinv", "The inverse error function on (-1, 1), elementwise: +-inf at +-1, NaN outside [-1, 1].",
          [](BpropBuilder& b, V, V out, V d) {
            return b.mul(d, b.mul(call(b, "Exp", {square(b, out)}), scalar_like(b, kHalfSqrtPi, out)));
          });
  define_op<PolygammaAttrs>("Polygamma")
      .doc("The n-th derivative of digamma, elementwise (n >= 1): (-1)^(n+1) inf at the poles, 0 at +inf.")
      .inputs({"x"})
      .outputs({"y"})
      .dtype_policy(DTypePolicy::PromoteToFloat)
      .infer(infer_polygamma)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.mul(b.dout(), polygamma(b, b.prim().attrs_as<PolygammaAttrs>().n + 1, b.input(0)))};
      }));
}

}  // namespace sprout
