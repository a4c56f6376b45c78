"""More elementwise math composed from registry primitives: ldexp, copysign, signbit, sinc, float_power,
logaddexp2, fmax/fmin, xdivy, sgn, positive, isneginf/isposinf/isreal, and the MindSpore names that are
another op with extra arguments or another spelling (divide with rounding_mode, subtract with alpha,
multiply, floordiv, floormod). MindSpore 2.x names and arguments."""
import math
import numbers

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import op_function, prim
from sprout.ops.function.array_func import _tensor
from sprout.ops.function.math_elementwise_func import trunc
from sprout.ops.function.math_reduce_func import _FINITE_MAX

_add, _sub, _mul, _div = prim("Add"), prim("Sub"), prim("Mul"), prim("Div")
_cast, _select, _isnan, _equal, _less = prim("Cast"), prim("Select"), prim("IsNan"), prim("Equal"), prim("Less")

_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _float_pair(api, input_arg, input, other_arg, other):
    """Both operands as tensors of one floating dtype: the promoted dtype, Float32 when that is an integer
    or Bool (as MindSpore's float-valued binary ops). Python numbers take the other operand's dtype."""
    a = input if isinstance(input, Tensor) else None
    b = other if isinstance(other, Tensor) else None
    if a is None and b is None:
        raise TypeError(f"{api}: '{input_arg}' or '{other_arg}' must be a Tensor, but got "
                        f"{type(input).__name__} and {type(other).__name__}")
    if a is None:
        a = _number(api, input_arg, input)
    if b is None:
        b = _number(api, other_arg, other)
    dtype = _C.promote_types(a.dtype, b.dtype) if isinstance(input, Tensor) and isinstance(other, Tensor) else (
        (input if isinstance(input, Tensor) else other).dtype)
    if dtype not in _FLOATS:
        dtype = mstype.float32
    return (a if a.dtype == dtype else _cast(a, dtype)), (b if b.dtype == dtype else _cast(b, dtype))


def _number(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a Tensor or a number, but got {type(value).__name__}")
    return Tensor(float(value), mstype.float64)


def _float(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x if x.dtype in _FLOATS else _cast(x, mstype.float32)


def ldexp(x, other):
    """x * 2 ** other, elementwise with broadcasting (`other` need not be integral); a float tensor."""
    a, b = _float_pair("ldexp", "x", x, "other", other)
    return _mul(a, prim("Pow")(Tensor(2.0, b.dtype), b))


def copysign(x, other):
    """|x| with the sign of `other`, elementwise with broadcasting; a float tensor. As MindSpore, the sign is
    negative where other < 0 (so -0.0 and NaN count as positive)."""
    a, b = _float_pair("copysign", "x", x, "other", other)
    magnitude = prim("Abs")(a)
    return _select(_less(b, Tensor(0, b.dtype)), prim("Neg")(magnitude), _add(magnitude, prim("ZerosLike")(b)))


def signbit(input):
    """Where input < 0, elementwise; a Bool tensor (-0.0 and NaN give False, as MindSpore documents)."""
    x = _tensor(input, "signbit", "input")
    if x.dtype == mstype.bool_:
        return prim("ZerosLike")(x)
    return _less(x, Tensor(0, x.dtype))


def sinc(input):
    """sin(pi x) / (pi x), 1 at x = 0; integers give Float32."""
    x = _float("sinc", "input", input)
    zero = _equal(x, Tensor(0, x.dtype))
    # Guard: at 0 the quotient divides by a stand-in 1, so neither it nor its gradient holds 0 / 0.
    angle = _mul(_select(zero, prim("OnesLike")(x), x), Tensor(math.pi, x.dtype))
    return _select(zero, prim("OnesLike")(x), _div(prim("Sin")(angle), angle))


def float_power(input, exponent):
    """input ** exponent computed in float64 (both cast to it), elementwise with broadcasting; a Float64
    tensor. One of them may be a number."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError(f"float_power: 'input' or 'exponent' must be a Tensor, but got {type(input).__name__} "
                        f"and {type(exponent).__name__}")
    a = _cast(input, mstype.float64) if isinstance(input, Tensor) else _number("float_power", "input", input)
    b = _cast(exponent, mstype.float64) if isinstance(exponent, Tensor) else _number("float_power", "exponent",
                                                                                      exponent)
    return prim("Pow")(a, b)


def logaddexp2(input, other):
    """log2(2 ** input + 2 ** other), elementwise, without overflow."""
    a, b = _float_pair("logaddexp2", "input", input, "other", other)
    # Shifted by the larger operand, held constant for autodiff: the result does not depend on the shift, so
    # the gradient is the pair's base-2 softmax, (1/2, 1/2) at ties (where Maximum's gradient would go to one
    # side). The shift is clamped into the finite range so that equal infinities give inf - finite, not NaN.
    limit = _FINITE_MAX[a.dtype]
    shift = prim("StopGradient")(prim("ClipByValue")(prim("Maximum")(a, b), Tensor(-limit, a.dtype),
                                                     Tensor(limit, a.dtype)))
    ln2 = Tensor(math.log(2.0), a.dtype)
    powers = _add(prim("Exp")(_mul(_sub(a, shift), ln2)), prim("Exp")(_mul(_sub(b, shift), ln2)))
    return _add(shift, _div(prim("Log")(powers), ln2))


def _nan_ignoring(api, op, input, other):
    a, b = _tensor(input, api, "input"), _tensor(other, api, "other")
    dtype = _C.promote_types(a.dtype, b.dtype)
    a, b = (a if a.dtype == dtype else _cast(a, dtype)), (b if b.dtype == dtype else _cast(b, dtype))
    out = prim(op)(a, b)
    if dtype not in _FLOATS:
        return out
    # Where one side is NaN the other is the answer (NaN only when both are), as NumPy's fmax/fmin.
    return _select(_isnan(a), _add(b, prim("ZerosLike")(a)), _select(_isnan(b), _add(a, prim("ZerosLike")(b)),
                                                                        out))


def fmax(input, other):
    """The elementwise maximum with broadcasting, ignoring NaN: NaN only where both are NaN."""
    return _nan_ignoring("fmax", "Maximum", input, other)


def fmin(input, other):
    """The elementwise minimum with broadcasting, ignoring NaN: NaN only where both are NaN."""
    return _nan_ignoring("fmin", "Minimum", input, other)


def xdivy(x, y):
    """x / y elementwise with broadcasting, and 0 wherever x is 0 (even where y is 0 or NaN)."""
    a, b = _float_pair("xdivy", "x", x, "y", y)
    zero = _equal(a, Tensor(0, a.dtype))
    # Guard: where x is 0 the quotient divides by 1, so no 0 / 0 reaches its gradient.
    b = _add(b, prim("ZerosLike")(a))  # broadcast to the result's shape, as the select needs
    quotient = _div(a, _select(zero, prim("OnesLike")(b), b))
    return _select(zero, prim("ZerosLike")(quotient), quotient)


def positive(input):
    """`input` itself (the unary plus)."""
    return _tensor(input, "positive", "input")


def sgn(input):
    """The sign of each element: -1, 0 or 1 (NaN stays NaN); for real tensors the same as sign (Sprout has
    no complex dtypes, where sgn would be input / |input|)."""
    return prim("Sign")(_tensor(input, "sgn", "input"))


def _is_infinity(api, input, value):
    x = _tensor(input, api, "input")
    if x.dtype not in _FLOATS:
        return _cast(prim("ZerosLike")(x), mstype.bool_)
    return _equal(x, Tensor(value, x.dtype))


def isneginf(input):
    """Where input is -inf; a Bool tensor (all False for integers)."""
    return _is_infinity("isneginf", input, -math.inf)


def isposinf(input):
    """Where input is +inf; a Bool tensor (all False for integers)."""
    return _is_infinity("isposinf", input, math.inf)


def isreal(input):
    """Where input is real; a Bool tensor, all True (Sprout's dtypes are all real)."""
    x = _tensor(input, "isreal", "input")
    return _cast(prim("OnesLike")(x), mstype.bool_)


def divide(input, other, *, rounding_mode=None):
    """input / other with broadcasting. `rounding_mode` None: true division (integers give Float32);
    'floor': rounded toward -inf (Python's //); 'trunc': rounded toward 0 (C's integer division). With
    'floor' and 'trunc', integer operands give integers."""
    if rounding_mode is None:
        return _div(input, other)
    if rounding_mode == "floor":
        return prim("FloorDiv")(input, other)
    if rounding_mode != "trunc":
        raise ValueError(f"divide: 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError(f"divide: 'input' or 'other' must be a Tensor, but got {type(input).__name__} and "
                        f"{type(other).__name__}")
    a, b = input, other
    if any(isinstance(v, float) or (isinstance(v, Tensor) and v.dtype in _FLOATS) for v in (a, b)):
        return trunc(_div(a, b))
    # Integers: the floor quotient, one higher where the division is inexact and the signs differ (exact;
    # no detour through floats, which would round large int64 values).
    floor = prim("FloorDiv")(a, b)
    inexact = prim("NotEqual")(prim("FloorMod")(a, b), Tensor(0, floor.dtype))
    signs_differ = prim("NotEqual")(_less(a, Tensor(0, floor.dtype)), _less(b, Tensor(0, floor.dtype)))
    return _select(prim("LogicalAnd")(inexact, signs_differ), _add(floor, Tensor(1, floor.dtype)), floor)


def subtract(input, other, *, alpha=1):
    """input - alpha * other, with broadcasting and type promotion (a float alpha makes integers float)."""
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Number):
        raise TypeError(f"subtract: 'alpha' must be a number, but got {alpha!r}")
    if alpha == 1:
        return _sub(input, other)
    return _sub(input, _mul(other, alpha))


multiply = op_function("Mul", "multiply(input, other)", "Same as mul: input * other, with broadcasting.")
floordiv = op_function("FloorDiv", "floordiv(input, other)",
                       "Same as floor_divide: input / other rounded toward negative infinity (Python's //).")
floormod = op_function("FloorMod", "floormod(x, y)",
                       "Same as floor_mod: x - floor(x / y) * y, the remainder with the sign of y (Python's %).")


__all__ = ["ldexp", "copysign", "signbit", "sinc", "float_power", "logaddexp2", "fmax", "fmin", "xdivy", "positive",
           "sgn", "isneginf", "isposinf", "isreal", "divide", "subtract", "multiply", "floordiv", "floormod"]
# MindSpore's Tensor methods among them (floordiv and floormod are not).
TENSOR_METHODS = ["ldexp", "copysign", "signbit", "sinc", "float_power", "logaddexp2", "fmax", "fmin", "xdivy",
                  "positive", "sgn", "isneginf", "isposinf", "isreal", "divide", "subtract", "multiply"]
