// Integer bit operations: BitwiseAnd, BitwiseOr, BitwiseXor (also on Bool, as MindSpore), Invert, the
// shifts LeftShift and RightShift, and Gcd, Lcm. All broadcast and promote their inputs (int32 with int64
// gives int64, int8 with uint8 int16); the result has the promoted dtype.
//
// Gradients follow MindSpore 2.10: BitwiseAnd/Or/Xor give none to their inputs (zero, as the logical
// ops), while MindSpore defines no bprop for Invert, the shifts, Gcd and Lcm, so a gradient that has to
// pass through one of those is an error. Their rule raises it (a RuntimeError naming the op, as
// MindSpore's), in eager and graph mode alike; it runs only when a gradient really reaches the op
// (graph autodiff skips nodes that depend on no differentiated input).
//
// Note [Shift counts]
// C leaves x << n undefined for n < 0 or n >= the width of x's promoted type; MindSpore's CPU kernels
// compute exactly that C expression, so what they return is what x86 does: the count is taken modulo
// the width of the promoted type (32 bits for int8, int16 and uint8, which C widens to int; 32 or 64
// otherwise), and the result is narrowed back to x's dtype. So int32 1 << 33 is 2, int8 1 << 8 is 0
// (256 narrowed), int8 1 << 33 is 2, and a count of -1 shifts by 31 (or 63). Sprout defines the shifts
// that way on every machine, matching MindSpore's results bit for bit (checked against MindSpore 2.10
// for every count in [-65, 100]); NumPy differs only for those out-of-range counts (it gives 0, or -1
// for a right shift of a negative value). Right shifts of signed values are arithmetic.
#include "ops/infer_util.h"

namespace sprout {
namespace {

// The dtypes of each family, as MindSpore 2.10 accepts them (UInt16/32/64 included: its CPU kernels have
// them for the bitwise ops, Invert and the shifts). Gcd and Lcm take every integer dtype, as NumPy does:
// MindSpore's CPU kernels refuse int8 and uint8 (and Lcm also int16) for want of an instantiation, not for
// a reason of meaning.
std::vector<TensorSpec> infer_bitwise(const OpDef& op, const NoAttrs& a, std::span<const TensorSpec> in) {
  for (size_t i = 0; i < 2; ++i)
    check_dtype_in(op, i, in[i], {DType::Bool, DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::UInt8,
                                  DType::UInt16, DType::UInt32, DType::UInt64});
  return infer_broadcast(op, a, in);
}

std::vector<TensorSpec> infer_integer_binary(const OpDef& op, const NoAttrs& a, std::span<const TensorSpec> in) {
  for (size_t i = 0; i < 2; ++i)
    check_dtype_in(op, i, in[i], {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::UInt8, DType::UInt16,
                                  DType::UInt32, DType::UInt64});
  return infer_broadcast(op, a, in);
}

std::vector<TensorSpec> infer_invert(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::UInt8, DType::UInt16,
                                DType::UInt32, DType::UInt64});
  return {in[0]};
}

BpropFn no_gradient(size_t inputs) {
  return [inputs](Emitter&, const BpropArgs&) { return std::vector<Emitter::Value>(inputs); };
}

void bitwise(const char* name, const char* doc) {
  define_op<NoAttrs>(name)
      .doc(doc)
      .inputs({"x", "y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .non_differentiable({true})
      .infer(infer_bitwise)
      .bprop(no_gradient(2));
}

// The rule of the ops MindSpore gives no gradient (see the top of the file).
BpropFn gradient_error() {
  return [](Emitter&, const BpropArgs& args) -> std::vector<Emitter::Value> {
    throw RuntimeError(str("grad: ", args.prim.name(), " has no gradient (MindSpore defines none); compute it "
                           "outside the differentiated function, or stop the gradient before it "
                           "(ops.stop_gradient)"));
  };
}

void integer_binary(const char* name, const char* doc) {
  define_op<NoAttrs>(name)
      .doc(doc)
      .inputs({"x1", "x2"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_integer_binary)
      .bprop(gradient_error());
}

}  // namespace

SPROUT_REGISTER(math_bitwise) {
  bitwise("BitwiseAnd", "Bitwise and of x and y, elementwise with broadcasting, on integer or Bool tensors.");
  bitwise("BitwiseOr", "Bitwise or of x and y, elementwise with broadcasting, on integer or Bool tensors.");
  bitwise("BitwiseXor", "Bitwise xor of x and y, elementwise with broadcasting, on integer or Bool tensors.");
  define_op<NoAttrs>("Invert")
      .doc("~x: every bit of an integer tensor flipped. No gradient (MindSpore has none).")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_invert)
      .bprop(gradient_error());
  integer_binary("LeftShift",
                 "x1 << x2, elementwise with broadcasting; counts outside [0, width) as MindSpore's CPU gives them "
                 "(Note [Shift counts]). No gradient (MindSpore has none).");
  integer_binary("RightShift",
                 "x1 >> x2 (arithmetic for signed x1), elementwise with broadcasting; counts outside [0, width) as "
                 "MindSpore's CPU gives them (Note [Shift counts]). No gradient (MindSpore has none).");
  integer_binary("Gcd",
                 "The greatest common divisor of the absolute values of x1 and x2, elementwise with broadcasting "
                 "(NumPy's gcd: gcd(0, 0) = 0). No gradient (MindSpore has none).");
  integer_binary("Lcm",
                 "The least common multiple of the absolute values of x1 and x2, elementwise with broadcasting "
                 "(NumPy's lcm: 0 if either is 0). No gradient (MindSpore has none).");
}

}  // namespace sprout
