"""Elementwise math, reductions and matrix products."""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div = prim("Add"), prim("Sub"), prim("Mul"), prim("Div")
_maximum, _minimum, _pow = prim("Maximum"), prim("Minimum"), prim("Pow")
_neg, _exp, _log, _sqrt = prim("Neg"), prim("Exp"), prim("Log"), prim("Sqrt")
_equal, _not_equal = prim("Equal"), prim("NotEqual")
_less, _less_equal, _greater, _greater_equal = prim("Less"), prim("LessEqual"), prim("Greater"), prim("GreaterEqual")
_matmul, _batch_matmul = prim("MatMul"), prim("BatchMatMul")
_cast = prim("Cast")


def add(input, other):
    """input + other, with broadcasting and implicit type promotion."""
    return _add(input, other)


def sub(input, other):
    """input - other, with broadcasting and implicit type promotion."""
    return _sub(input, other)


def mul(input, other):
    """input * other, with broadcasting and implicit type promotion."""
    return _mul(input, other)


def div(input, other):
    """True division input / other; integer inputs give Float32."""
    return _div(input, other)


def maximum(input, other):
    """Elementwise maximum; NaN propagates."""
    return _maximum(input, other)


def minimum(input, other):
    """Elementwise minimum; NaN propagates."""
    return _minimum(input, other)


def pow(input, exponent):
    """input ** exponent, elementwise."""
    return _pow(input, exponent)


def neg(input):
    return _neg(input)


def exp(input):
    return _exp(input)


def log(input):
    return _log(input)


def sqrt(input):
    return _sqrt(input)


def equal(input, other):
    return _equal(input, other)


def not_equal(input, other):
    return _not_equal(input, other)


def less(input, other):
    return _less(input, other)


def less_equal(input, other):
    return _less_equal(input, other)


def greater(input, other):
    return _greater(input, other)


def greater_equal(input, other):
    return _greater_equal(input, other)


eq, ne, lt, le, gt, ge = equal, not_equal, less, less_equal, greater, greater_equal
negative = neg
true_divide = div


def _to_tensor(x, api, arg):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple, np.ndarray)):
        return Tensor(x)
    raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")


def matmul(input, other):
    """Matrix product with NumPy's rules: 1-d operands are vectors, leading dims broadcast."""
    if type(input) is Tensor and type(other) is Tensor and input.ndim == 2 and other.ndim == 2:
        return _matmul(input, other)  # the common case, without the checks below (a tiny product's cost)
    a, b = _to_tensor(input, "matmul", "input"), _to_tensor(other, "matmul", "other")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: 'input' and 'other' must not be 0-d, but got shapes {a.shape} and {b.shape}")
    a2 = a.reshape(1, -1) if a.ndim == 1 else a
    b2 = b.reshape(-1, 1) if b.ndim == 1 else b
    if b2.ndim == 2 and a2.ndim > 2:
        # A stack of matrices times one matrix is one product with the stack's rows: a single large
        # GEMM instead of a batch of thin ones (x @ W^T of a linear layer on (batch, seq, features)).
        out = _matmul(a2.reshape(-1, a2.shape[-1]), b2).reshape(a2.shape[:-1] + b2.shape[-1:])
    elif a2.ndim == 2 and b2.ndim == 2:
        out = _matmul(a2, b2)
    else:
        out = _batch_matmul(a2, b2)
    if a.ndim == 1:
        out = out.reshape(out.shape[:-2] + out.shape[-1:])
    if b.ndim == 1:
        out = out.reshape(out.shape[:-1])
    return out


def _axes(axis, api):
    if axis is None:
        return ()
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        return (int(axis),)
    if isinstance(axis, (tuple, list)) and all(isinstance(a, (int, np.integer)) for a in axis):
        return tuple(int(a) for a in axis)
    raise TypeError(f"{api}: 'axis' must be None, an int or a tuple of ints, but got {axis!r}")


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over `dim` (all dims when None); `dtype` casts the input first."""
    x = input.astype(dtype, copy=False) if dtype is not None else input
    return prim("ReduceSum", keep_dims=bool(keepdim))(x, _axes(dim, "sum"))


def mean(input, axis=None, keep_dims=False):
    """Mean over `axis` (all axes when None)."""
    return prim("ReduceMean", keep_dims=bool(keep_dims))(input, _axes(axis, "mean"))


def amax(input, axis=None, keepdims=False):
    """Maximum over `axis` (all axes when None)."""
    return prim("ReduceMax", keep_dims=bool(keepdims))(input, _axes(axis, "amax"))


def amin(input, axis=None, keepdims=False):
    """Minimum over `axis` (all axes when None)."""
    return prim("ReduceMin", keep_dims=bool(keepdims))(input, _axes(axis, "amin"))



# --- unary math -----------------------------------------------------------------------------------

_abs, _sign, _square, _reciprocal = prim("Abs"), prim("Sign"), prim("Square"), prim("Reciprocal")
_rsqrt, _floor, _ceil, _expm1 = prim("Rsqrt"), prim("Floor"), prim("Ceil"), prim("Expm1")
_log1p, _sin, _cos, _tan = prim("Log1p"), prim("Sin"), prim("Cos"), prim("Tan")
_asin, _acos, _atan, _sinh = prim("Asin"), prim("ACos"), prim("Atan"), prim("Sinh")
_cosh, _tanh, _erf, _erfc = prim("Cosh"), prim("Tanh"), prim("Erf"), prim("Erfc")
_isnan, _isinf, _isfinite = prim("IsNan"), prim("IsInf"), prim("IsFinite")


def abs(input):
    """|input|, elementwise."""
    return _abs(input)


def sign(input):
    """-1, 0 or 1 by the sign of each element; NaN stays NaN."""
    return _sign(input)


def square(input):
    """input * input, elementwise."""
    return _square(input)


def reciprocal(input):
    """1 / input, elementwise; integers give Float32."""
    return _reciprocal(input)


def rsqrt(input):
    """1 / sqrt(input), elementwise."""
    return _rsqrt(input)


def floor(input):
    """The largest integer not greater than each element (floating-point input)."""
    return _floor(input)


def ceil(input):
    """The smallest integer not less than each element (floating-point input)."""
    return _ceil(input)


def expm1(input):
    """exp(input) - 1, accurate near 0."""
    return _expm1(input)


def log1p(input):
    """log(1 + input), accurate near 0."""
    return _log1p(input)


def sin(input):
    """Sine (radians), elementwise."""
    return _sin(input)


def cos(input):
    """Cosine (radians), elementwise."""
    return _cos(input)


def tan(input):
    """Tangent (radians), elementwise."""
    return _tan(input)


def asin(input):
    """Arcsine, elementwise; NaN outside [-1, 1]."""
    return _asin(input)


def acos(input):
    """Arccosine, elementwise; NaN outside [-1, 1]."""
    return _acos(input)


def atan(input):
    """Arctangent, elementwise."""
    return _atan(input)


def sinh(input):
    """Hyperbolic sine, elementwise."""
    return _sinh(input)


def cosh(input):
    """Hyperbolic cosine, elementwise."""
    return _cosh(input)


def tanh(input):
    """Hyperbolic tangent, elementwise."""
    return _tanh(input)


def erf(input):
    """The Gauss error function, elementwise."""
    return _erf(input)


def erfc(input):
    """The complementary error function 1 - erf(input), elementwise."""
    return _erfc(input)


def isnan(input):
    """Where input is NaN; a Bool tensor."""
    return _isnan(input)


def isinf(input):
    """Where input is +inf or -inf; a Bool tensor."""
    return _isinf(input)


def isfinite(input):
    """Where input is neither infinite nor NaN; a Bool tensor."""
    return _isfinite(input)


absolute, arcsin, arccos, arctan = abs, asin, acos, atan

_round = prim("Round")


def round(input, *, decimals=0):
    """Rounds to `decimals` decimal places, halves to even (as NumPy)."""
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise TypeError(f"round: 'decimals' must be an int, but got {decimals!r}")
    if decimals == 0:
        return _round(input)
    scale = 10.0 ** decimals
    return _div(_round(_mul(input, scale)), scale)


# --- binary math ----------------------------------------------------------------------------------

_floor_div, _floor_mod, _mod, _atan2 = prim("FloorDiv"), prim("FloorMod"), prim("Mod"), prim("Atan2")


def floor_divide(input, other):
    """input / other rounded toward negative infinity (Python's //)."""
    return _floor_div(input, other)


def floor_div(x, y):
    """Same as floor_divide (MindSpore 1.x name)."""
    return _floor_div(x, y)


def floor_mod(x, y):
    """x - floor(x / y) * y: the remainder with the sign of y (Python's %)."""
    return _floor_mod(x, y)


def remainder(input, other):
    """The remainder with the sign of `other` (Python's %)."""
    return _floor_mod(input, other)


def fmod(input, other):
    """The remainder with the sign of `input` (C's fmod)."""
    return _mod(input, other)


def atan2(input, other):
    """The angle of the point (other, input): arctan(input / other) in [-pi, pi]."""
    return _atan2(input, other)


arctan2 = atan2

# --- logical --------------------------------------------------------------------------------------

_logical_and, _logical_or, _logical_xor, _logical_not = (prim("LogicalAnd"), prim("LogicalOr"), prim("LogicalXor"),
                                                         prim("LogicalNot"))


def _as_bool(x):
    """The functional forms take any dtype (nonzero is True); the primitives take Bool only."""
    if isinstance(x, Tensor):
        return x if x.dtype == mstype.bool_ else _cast(x, mstype.bool_)
    return x


def logical_and(input, other):
    """input and other, elementwise (nonzero is True)."""
    return _logical_and(_as_bool(input), _as_bool(other))


def logical_or(input, other):
    """input or other, elementwise (nonzero is True)."""
    return _logical_or(_as_bool(input), _as_bool(other))


def logical_xor(input, other):
    """input xor other, elementwise (nonzero is True)."""
    return _logical_xor(_as_bool(input), _as_bool(other))


def logical_not(input):
    """not input, elementwise (nonzero is True)."""
    return _logical_not(_as_bool(input))


# --- several inputs -------------------------------------------------------------------------------

_add_n, _clip, _lerp, _addcmul = prim("AddN"), prim("ClipByValue"), prim("Lerp"), prim("Addcmul")


def addn(x):
    """The elementwise sum of a tuple or list of tensors of one shape and dtype."""
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"addn: 'x' must be a tuple or list of tensors, but got {type(x).__name__}")
    return _add_n(tuple(x))


def clamp(input, min=None, max=None):
    """input limited to [min, max] elementwise; either bound may be None (not both)."""
    if min is None and max is None:
        raise ValueError("clamp: at least one of 'min' and 'max' must be given, but both are None")
    if min is None:
        return _minimum(input, max)
    if max is None:
        return _maximum(input, min)
    return _clip(input, min, max)


def clip(input, min=None, max=None):
    """Same as clamp."""
    return clamp(input, min, max)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """x limited to [clip_value_min, clip_value_max] elementwise (MindSpore 1.x name of clamp)."""
    return clamp(x, clip_value_min, clip_value_max)


def lerp(input, end, weight):
    """input + weight * (end - input), elementwise with broadcasting."""
    return _lerp(input, end, weight)


def addcmul(input, tensor1, tensor2, value=1):
    """input + value * tensor1 * tensor2, elementwise with broadcasting."""
    return _addcmul(input, tensor1, tensor2, value)


__all__ = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "neg", "negative", "exp", "log", "sqrt",
           "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "eq", "ne", "lt", "le", "gt",
           "ge", "true_divide", "matmul", "sum", "mean", "amax", "amin",
           "abs", "absolute", "sign", "square", "reciprocal", "rsqrt", "floor", "ceil", "round", "expm1", "log1p",
           "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "erf",
           "erfc", "isnan", "isinf", "isfinite", "floor_divide", "floor_div", "floor_mod", "remainder", "fmod",
           "atan2", "arctan2", "logical_and", "logical_or", "logical_xor", "logical_not", "addn", "clamp", "clip",
           "clip_by_value", "lerp", "addcmul"]

# Also Tensor methods (x.exp(), x.add(y) ...): same name, the tensor as first argument.
TENSOR_METHODS = ["exp", "log", "sqrt", "neg", "add", "sub", "mul", "div", "pow", "maximum", "minimum",
                  "matmul", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                  "abs", "absolute", "sign", "square", "reciprocal", "rsqrt", "floor", "ceil", "round", "expm1",
                  "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                  "tanh", "erf", "erfc", "isnan", "isinf", "isfinite", "floor_divide", "remainder", "fmod", "atan2",
                  "arctan2", "logical_and", "logical_or", "logical_xor", "logical_not", "clamp", "clip", "lerp",
                  "addcmul"]
