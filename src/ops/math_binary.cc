// Binary math: floor division and the two remainders, atan2; the logical ops and the elementwise
// predicates (isnan ...), whose outputs are Bool and carry no gradient.
//
// FloorDiv and FloorMod follow Python (the quotient rounds toward -inf, the remainder takes the sign
// of y); Mod is C's fmod (the remainder takes the sign of x), as MindSpore. Integer division by zero
// gives 0 rather than a crash.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_numeric_broadcast(const OpDef& op, const NoAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return infer_broadcast(op, a, in);
}

std::vector<TensorSpec> infer_bool_binary(const OpDef& op, const NoAttrs& a, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], {DType::Bool});
  check_dtype_in(op, 1, in[1], {DType::Bool});
  return infer_broadcast_bool(op, a, in);
}

std::vector<TensorSpec> infer_bool_unary(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], {DType::Bool});
  return {in[0]};
}

std::vector<TensorSpec> infer_predicate(const OpDef&, const NoAttrs&, std::span<const TensorSpec> in) {
  return {TensorSpec{DType::Bool, in[0].shape}};
}

// Gradients of a broadcasting binary op: dx, dy at the output's shape, summed back to each input's
// where wanted (the arithmetic ops in math_elementwise.cc also skip the products).
template <class Rule>
BpropFn broadcast_bprop(Rule rule) {
  return bprop_rule([rule](BpropBuilder& b) -> std::vector<V> {
    auto [dx, dy] = rule(b, b.input(0), b.input(1), b.out(), b.dout());
    return b.binary_input_grads(dx, dy);
  });
}

BpropFn no_gradient(size_t inputs) {
  return [inputs](Emitter&, const BpropArgs&) { return std::vector<V>(inputs); };
}

void binary(const char* name, const char* doc, DTypePolicy policy, decltype(&infer_broadcast) infer, BpropFn bprop) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x", "y"}).outputs({"output"}).dtype_policy(policy).infer(infer).bprop(
      std::move(bprop));
}

void boolean(const char* name, const char* doc, std::vector<std::string> inputs, decltype(&infer_broadcast) infer) {
  size_t n = inputs.size();
  define_op<NoAttrs>(name)
      .doc(doc)
      .inputs(std::move(inputs))
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer)
      .bprop(no_gradient(n));
}

// x - y * q = r, so for a remainder r(x, y) with a piecewise-constant quotient q: dr/dx = 1 and
// dr/dy = -q = (r - x) / y.
std::pair<V, V> remainder_grad(BpropBuilder& b, V x, V y, V out, V d) {
  return {d, b.mul(d, b.div(b.sub(out, x), y))};
}

}  // namespace

SPROUT_REGISTER(math_binary) {
  binary("FloorDiv", "x / y rounded toward negative infinity, elementwise with broadcasting.", DTypePolicy::Promote,
         infer_numeric_broadcast, broadcast_bprop([](BpropBuilder& b, V x, V y, V, V) {
           return std::pair{zero_grad(b, x), zero_grad(b, y)};
         }));
  binary("FloorMod", "x - floor(x / y) * y: the remainder with the sign of y (Python's %).", DTypePolicy::Promote,
         infer_numeric_broadcast, broadcast_bprop(remainder_grad));
  binary("Mod", "x - trunc(x / y) * y: the remainder with the sign of x (C's fmod).", DTypePolicy::Promote,
         infer_numeric_broadcast, broadcast_bprop(remainder_grad));
  binary("Atan2", "The angle of the point (y, x): arctan(x / y) in the right quadrant, in [-pi, pi].",
         DTypePolicy::PromoteToFloat, infer_broadcast, broadcast_bprop([](BpropBuilder& b, V x, V y, V, V d) {
           // atan2(x, y) = the angle of (y, x): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2).
           V scale = b.div(d, b.add(square(b, x), square(b, y)));
           return std::pair{b.mul(scale, y), b.neg(b.mul(scale, x))};
         }));
  binary("Hypot", "sqrt(x1^2 + x2^2) without overflow or underflow: +inf where either is infinite, even beside NaN.",
         DTypePolicy::PromoteToFloat, infer_broadcast, broadcast_bprop([](BpropBuilder& b, V x, V y, V out, V d) {
           // d/dx = x / h, d/dy = y / h; 0 at h = 0, where hypot has no derivative.
           const V scale = div_or_zero(b, d, out);
           return std::pair{b.mul(scale, x), b.mul(scale, y)};
         }));

  boolean("LogicalAnd", "x and y, elementwise on Bool tensors with broadcasting.", {"x", "y"}, infer_bool_binary);
  boolean("LogicalOr", "x or y, elementwise on Bool tensors with broadcasting.", {"x", "y"}, infer_bool_binary);
  boolean("LogicalXor", "x xor y, elementwise on Bool tensors with broadcasting.", {"x", "y"}, infer_bool_binary);
  boolean("LogicalNot", "not x, elementwise on a Bool tensor.", {"x"}, infer_bool_unary);
  boolean("IsNan", "Where x is NaN; a Bool tensor.", {"x"}, infer_predicate);
  boolean("IsInf", "Where x is +inf or -inf; a Bool tensor.", {"x"}, infer_predicate);
  boolean("IsFinite", "Where x is neither infinite nor NaN; a Bool tensor.", {"x"}, infer_predicate);
}

}  // namespace sprout
