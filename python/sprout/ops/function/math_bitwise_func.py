"""Bit operations on integer tensors, and gcd and lcm: each one registry primitive (src/ops/math_bitwise.cc).

bitwise_and/or/xor also take Bool tensors, as MindSpore's; the others take integers only. Inputs are promoted
(int32 with int64 computes in int64) and broadcast; a Python int takes the tensor's dtype. Shift counts
outside [0, bit width) give what MindSpore's CPU gives (Note [Shift counts]). MindSpore 2.x names and
arguments."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import op_function, prim

bitwise_and = op_function("BitwiseAnd", "bitwise_and(input, other)",
                          "input & other, elementwise with broadcasting, on integer or Bool tensors.")
bitwise_or = op_function("BitwiseOr", "bitwise_or(input, other)",
                         "input | other, elementwise with broadcasting, on integer or Bool tensors.")
bitwise_xor = op_function("BitwiseXor", "bitwise_xor(input, other)",
                          "input ^ other, elementwise with broadcasting, on integer or Bool tensors.")
bitwise_left_shift = op_function(
    "LeftShift", "bitwise_left_shift(input, other)",
    "input << other, elementwise with broadcasting, on integer tensors; counts outside [0, bit width) as "
    "MindSpore's CPU gives them (taken modulo the width of C's promoted type).")
bitwise_right_shift = op_function(
    "RightShift", "bitwise_right_shift(input, other)",
    "input >> other (arithmetic for signed input), elementwise with broadcasting, on integer tensors; counts "
    "outside [0, bit width) as MindSpore's CPU gives them (taken modulo the width of C's promoted type).")
invert = op_function("Invert", "invert(x)", "~x: every bit of an integer tensor flipped.")
gcd = op_function("Gcd", "gcd(input, other)",
                  "The greatest common divisor of |input| and |other|, elementwise with broadcasting, on integer "
                  "tensors (NumPy's gcd: gcd(0, 0) = 0).")
lcm = op_function("Lcm", "lcm(input, other)",
                  "The least common multiple of |input| and |other|, elementwise with broadcasting, on integer "
                  "tensors (NumPy's lcm: 0 when either is 0).")

_invert, _logical_not = prim("Invert"), prim("LogicalNot")


def _bitwise_not(self):
    """Every bit flipped, in the same dtype: ~x for an integer tensor, not x for a Bool one."""
    return _logical_not(self) if self.dtype == mstype.bool_ else _invert(self)


__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "invert", "gcd",
           "lcm"]

# Also Tensor methods (x.gcd(y) ...): same name, the tensor as first argument.
TENSOR_METHODS = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "invert",
                  "gcd", "lcm"]

# MindSpore has Tensor.bitwise_not but no ops.bitwise_not: a method only.
_bitwise_not.__name__ = _bitwise_not.__qualname__ = "bitwise_not"
Tensor.bitwise_not = _bitwise_not
