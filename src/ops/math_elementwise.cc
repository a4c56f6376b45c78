// Elementwise math: arithmetic, comparisons and the first unary functions.
// Binary ops broadcast (NumPy rules) and promote their inputs to a common dtype first.
#include "ops/bprop_builder.h"
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

using V = BpropBuilder::V;

// Which of x, y want a gradient (BpropArgs::wanted): a constant operand (a Python scalar, an attention
// mask) costs no product and no sum back to its shape.
struct Wants {
  bool x, y;
};

// Gradients of a broadcasting binary op: the rule gives dx, dy at the output's shape (V{} where not
// wanted); each is then summed back to its input's shape.
template <class Rule>
BpropFn broadcast_bprop(Rule rule) {
  return bprop_rule([rule](BpropBuilder& b) -> std::vector<V> {
    auto [dx, dy] = rule(b, b.input(0), b.input(1), b.out(), b.dout(), Wants{b.wants(0), b.wants(1)});
    return b.binary_input_grads(dx, dy);
  });
}

void binary(const char* name, const char* doc, BpropFn bprop, DTypePolicy policy = DTypePolicy::Promote,
            decltype(&infer_broadcast) infer = infer_broadcast) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x", "y"}).outputs({"output"}).dtype_policy(policy).infer(infer).bprop(
      std::move(bprop));
}

BpropFn no_gradient(size_t inputs) {
  return [inputs](Emitter&, const BpropArgs&) { return std::vector<V>(inputs); };
}

void compare(const char* name, const char* doc) {
  define_op<NoAttrs>(name)
      .doc(doc)
      .inputs({"x", "y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .non_differentiable({true})
      .infer(infer_broadcast_bool)
      .bprop(no_gradient(2));
}

template <class Rule>
void unary(const char* name, const char* doc, DTypePolicy policy, decltype(&infer_same_as_first) infer, Rule rule) {
  define_op<NoAttrs>(name).doc(doc).inputs({"x"}).outputs({"output"}).dtype_policy(policy).infer(infer).bprop(
      bprop_rule([rule](BpropBuilder& b) -> std::vector<V> { return {rule(b, b.input(0), b.out(), b.dout())}; }));
}

// d max(x, y): the gradient goes to x where x >= y (ties to x), else to y; Minimum mirrors it.
std::pair<V, V> select_grad(BpropBuilder& b, V x_wins, V dout, Wants w) {
  V gx = b.mul(dout, x_wins);
  return {w.x ? gx : V{}, w.y ? b.sub(dout, gx) : V{}};
}

V if_wanted(bool want, const auto& make) { return want ? make() : V{}; }

}  // namespace

SPROUT_REGISTER(math_elementwise) {
  binary("Add", "x + y, elementwise with broadcasting.",
         broadcast_bprop([](BpropBuilder&, V, V, V, V d, Wants w) { return std::pair{w.x ? d : V{}, w.y ? d : V{}}; }));
  binary("Sub", "x - y, elementwise with broadcasting.",
         broadcast_bprop([](BpropBuilder& b, V, V, V, V d, Wants w) {
           return std::pair{w.x ? d : V{}, if_wanted(w.y, [&] { return b.neg(d); })};
         }),
         DTypePolicy::Promote, infer_numeric_broadcast);
  binary("Mul", "x * y, elementwise with broadcasting.",
         broadcast_bprop([](BpropBuilder& b, V x, V y, V, V d, Wants w) {
           return std::pair{if_wanted(w.x, [&] { return b.mul(d, y); }), if_wanted(w.y, [&] { return b.mul(d, x); })};
         }));
  auto div_bprop = broadcast_bprop([](BpropBuilder& b, V, V y, V out, V d, Wants w) {
    V dx = b.div(d, y);
    return std::pair{w.x ? dx : V{}, if_wanted(w.y, [&] { return b.neg(b.mul(dx, out)); })};  // d(x/y)/dy = -out/y
  });
  binary("RealDiv", "x / y (true division), elementwise with broadcasting.", div_bprop, DTypePolicy::PromoteToFloat);
  binary("Div", "x / y (true division), elementwise with broadcasting.", div_bprop, DTypePolicy::PromoteToFloat);
  binary("Maximum", "The larger of x and y, elementwise; NaN if either is NaN.",
         broadcast_bprop([](BpropBuilder& b, V x, V y, V, V d, Wants w) {
           return select_grad(b, b.mask(b.greater_equal(x, y), d), d, w);
         }));
  binary("Minimum", "The smaller of x and y, elementwise; NaN if either is NaN.",
         broadcast_bprop([](BpropBuilder& b, V x, V y, V, V d, Wants w) {
           return select_grad(b, b.mask(b.greater_equal(y, x), d), d, w);
         }));
  binary("Pow", "x raised to the power y, elementwise with broadcasting.",
         broadcast_bprop([](BpropBuilder& b, V x, V y, V out, V d, Wants w) {
           DType t = b.spec(out).dtype;
           V dx = if_wanted(w.x, [&] { return b.mul(d, b.mul(y, b.pow(x, b.sub(y, b.scalar(1, t))))); });  // y x^(y-1)
           V dy = if_wanted(w.y, [&] { return b.mul(d, b.mul(out, b.log(x))); });                      // x^y ln x
           return std::pair{dx, dy};
         }),
         DTypePolicy::Promote, infer_numeric_broadcast);

  compare("Equal", "x == y, elementwise; a Bool tensor.");
  compare("NotEqual", "x != y, elementwise; a Bool tensor.");
  compare("Less", "x < y, elementwise; a Bool tensor.");
  compare("LessEqual", "x <= y, elementwise; a Bool tensor.");
  compare("Greater", "x > y, elementwise; a Bool tensor.");
  compare("GreaterEqual", "x >= y, elementwise; a Bool tensor.");

  unary("Neg", "-x, elementwise.", DTypePolicy::Exact, infer_numeric_unary,
        [](BpropBuilder& b, V, V, V d) { return b.neg(d); });
  unary("Exp", "e raised to x, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first, [](BpropBuilder& b, V, V out, V d) { return b.mul(d, out); });
  unary("Log", "Natural logarithm, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first, [](BpropBuilder& b, V x, V, V d) { return b.div(d, x); });
  unary("Sqrt", "Square root, elementwise; integer inputs give Float32.", DTypePolicy::PromoteToFloat,
        infer_same_as_first, [](BpropBuilder& b, V, V out, V d) {
          return b.div(d, b.mul(out, b.scalar(2, b.spec(out).dtype)));
        });
}

}  // namespace sprout
