// Elementwise math: arithmetic, comparisons and the first unary functions.
// Binary ops broadcast (NumPy rules) and promote their inputs to a common dtype first.
#include "ops/infer_util.h"

namespace sprout {
namespace {

std::vector<TensorSpec> infer_numeric_broadcast(const OpDef& op, const NoAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return infer_broadcast(op, a, in);
}

std::vector<TensorSpec> infer_numeric_unary(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  return {in[0]};
}

void binary(const char* name, const char* doc, DTypePolicy policy = DTypePolicy::Promote,
            decltype(&infer_broadcast) infer = infer_broadcast) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x", "y"}).outputs({"output"}).dtype_policy(policy).infer(infer);
}

void compare(const char* name, const char* doc) {
  define_op<NoAttrs>(name)
      .doc(doc)
      .inputs({"x", "y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .non_differentiable({true})
      .infer(infer_broadcast_bool);
}

void unary(const char* name, const char* doc, DTypePolicy policy, decltype(&infer_same_as_first) infer) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).dtype_policy(policy).infer(infer);
}

}  // namespace

SPROUT_REGISTER(math_elementwise) {
  binary("Add", "x + y, elementwise with broadcasting.");
  binary("Sub", "x - y, elementwise with broadcasting.", DTypePolicy::Promote, infer_numeric_broadcast);
  binary("Mul", "x * y, elementwise with broadcasting.");
  binary("RealDiv", "x / y (true division), elementwise with broadcasting.", DTypePolicy::PromoteToFloat);
  binary("Div", "x / y (true division), elementwise with broadcasting.", DTypePolicy::PromoteToFloat);
  binary("Maximum", "The larger of x and y, elementwise; NaN if either is NaN.");
  binary("Minimum", "The smaller of x and y, elementwise; NaN if either is NaN.");
  binary("Pow", "x raised to the power y, elementwise with broadcasting.", DTypePolicy::Promote,
         infer_numeric_broadcast);

  compare("Equal", "x == y, elementwise; a Bool tensor.");
  compare("NotEqual", "x != y, elementwise; a Bool tensor.");
  compare("Less", "x < y, elementwise; a Bool tensor.");
  compare("LessEqual", "x <= y, elementwise; a Bool tensor.");
  compare("Greater", "x > y, elementwise; a Bool tensor.");
  compare("GreaterEqual", "x >= y, elementwise; a Bool tensor.");

  unary("Neg", "-x, elementwise.", DTypePolicy::Exact, infer_numeric_unary);
  unary("Exp", "e raised to x, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first);
  unary("Log", "Natural logarithm, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first);
  unary("Sqrt", "Square root, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first);
}

}  // namespace sprout
