"""Elementwise math, reductions and matrix products."""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import op_function, prim

_mul, _div = prim("Mul"), prim("Div")
_maximum, _minimum = prim("Maximum"), prim("Minimum")
_matmul, _batch_matmul = prim("MatMul"), prim("BatchMatMul")
_cast = prim("Cast")

# Functions that are one primitive applied to their arguments are C++ callables (Note [Functional ops
# without a Python frame] in src/python/op_function.cc): a tiny ops.add costs what `x + y` does.
add = op_function("Add", "add(input, other)", "input + other, with broadcasting and implicit type promotion.")
sub = op_function("Sub", "sub(input, other)", "input - other, with broadcasting and implicit type promotion.")
mul = op_function("Mul", "mul(input, other)", "input * other, with broadcasting and implicit type promotion.")
def _div_with_keywords(input, other, **kwargs):
    unknown = sorted(set(kwargs) - {"rounding_mode"})
    if unknown:
        raise TypeError(f"div() got an unexpected keyword argument {unknown[0]!r}")
    from sprout.ops.function.math_more_elementwise_func import divide  # it builds on this module
    return divide(input, other, rounding_mode=kwargs.get("rounding_mode"))


div = op_function("Div", "div(input, other)", "True division input / other; integer inputs give Float32. With "
                  "rounding_mode='floor' or 'trunc', the quotient rounded (as ops.divide).", _div_with_keywords)
maximum = op_function("Maximum", "maximum(input, other)", "Elementwise maximum; NaN propagates.")
minimum = op_function("Minimum", "minimum(input, other)", "Elementwise minimum; NaN propagates.")
pow = op_function("Pow", "pow(input, exponent)", "input ** exponent, elementwise.")
neg = op_function("Neg", "neg(input)", "-input, elementwise.")
exp = op_function("Exp", "exp(input)", "e ** input, elementwise; integers give Float32.")
log = op_function("Log", "log(input)", "The natural logarithm, elementwise; integers give Float32.")
sqrt = op_function("Sqrt", "sqrt(input)", "The square root, elementwise; integers give Float32.")
equal = op_function("Equal", "equal(input, other)", "input == other, elementwise with broadcasting; a Bool tensor.")
not_equal = op_function("NotEqual", "not_equal(input, other)",
                        "input != other, elementwise with broadcasting; a Bool tensor.")
less = op_function("Less", "less(input, other)", "input < other, elementwise with broadcasting; a Bool tensor.")
less_equal = op_function("LessEqual", "less_equal(input, other)",
                         "input <= other, elementwise with broadcasting; a Bool tensor.")
greater = op_function("Greater", "greater(input, other)",
                      "input > other, elementwise with broadcasting; a Bool tensor.")
greater_equal = op_function("GreaterEqual", "greater_equal(input, other)",
                            "input >= other, elementwise with broadcasting; a Bool tensor.")

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
    """Sum over `dim` (all dims when None); `dtype` casts the input first. Integers and bools sum in Int64
    (MindSpore's, as PyTorch's: narrow integers would overflow); ops.ReduceSum keeps the dtype. UInt16/32/64
    keep theirs too, wrapping around, as in MindSpore, which converts them implicitly to no other dtype."""
    if dtype is None and isinstance(input, Tensor) and input.dtype in mstype.int_type + (mstype.uint8, mstype.bool_):
        dtype = mstype.int64
    x = input.astype(mstype._dtype_arg("sum", "dtype", dtype), copy=False) if dtype is not None else input
    return prim("ReduceSum", keep_dims=bool(keepdim))(x, _axes(dim, "sum"))


def mean(input, axis=None, keep_dims=False):
    """Mean over `axis` (all axes when None). An integer input gives its dtype back, the mean truncated
    toward zero, as MindSpore's CPU kernel computes it (computed here in float64)."""
    reduce_mean = prim("ReduceMean", keep_dims=bool(keep_dims))
    if isinstance(input, Tensor) and input.dtype in mstype.int_type + mstype.uint_type:
        return reduce_mean(input.astype(mstype.float64), _axes(axis, "mean")).trunc().astype(input.dtype)
    return reduce_mean(input, _axes(axis, "mean"))


def _masked_extreme(api, reduce_name, combine_name, input, axis, keepdims, initial, where):
    """MindSpore's (and NumPy's) `initial` and `where`: elements outside `where` are left out, and `initial`
    takes part in every reduction (so an all-excluded slice gives `initial`)."""
    x = input
    if where is not None:
        if initial is None:
            raise ValueError(f"{api}: 'where' needs an 'initial' value (the result of a slice where nothing is "
                             f"selected), but 'initial' is None")
        if not isinstance(where, Tensor) or where.dtype != mstype.bool_:
            raise TypeError(f"{api}: 'where' must be a Bool Tensor, but got "
                            f"{where.dtype if isinstance(where, Tensor) else type(where).__name__}")
        mask = prim("BroadcastTo", shape=np.broadcast_shapes(tuple(where.shape), tuple(input.shape)))(where)
        x = prim("BroadcastTo", shape=mask.shape)(input) if tuple(mask.shape) != tuple(input.shape) else input
        x = prim("Select")(mask, x, prim("Fill")(input.dtype, tuple(mask.shape), initial))
    out = prim(reduce_name, keep_dims=bool(keepdims))(x, _axes(axis, api))
    if initial is not None:
        if isinstance(initial, bool) or not isinstance(initial, numbers.Number):
            raise TypeError(f"{api}: 'initial' must be a number, but got {type(initial).__name__}")
        out = prim(combine_name)(out, Tensor(initial, out.dtype))
    return out


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum over `axis` (all axes when None); `initial` joins every maximum, `where` (Bool, broadcast to
    input) selects the elements taken (it needs `initial`)."""
    if initial is None and where is None:
        return prim("ReduceMax", keep_dims=bool(keepdims))(input, _axes(axis, "amax"))
    return _masked_extreme("amax", "ReduceMax", "Maximum", input, axis, keepdims, initial, where)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum over `axis` (all axes when None); `initial` joins every minimum, `where` (Bool, broadcast to
    input) selects the elements taken (it needs `initial`)."""
    if initial is None and where is None:
        return prim("ReduceMin", keep_dims=bool(keepdims))(input, _axes(axis, "amin"))
    return _masked_extreme("amin", "ReduceMin", "Minimum", input, axis, keepdims, initial, where)


# --- unary math -----------------------------------------------------------------------------------

abs = op_function("Abs", "abs(input)", "|input|, elementwise.")
sign = op_function("Sign", "sign(input)", "-1, 0 or 1 by the sign of each element; NaN stays NaN.")
square = op_function("Square", "square(input)", "input * input, elementwise.")
reciprocal = op_function("Reciprocal", "reciprocal(input)", "1 / input, elementwise; integers give Float32.")
rsqrt = op_function("Rsqrt", "rsqrt(input)", "1 / sqrt(input), elementwise.")
floor = op_function("Floor", "floor(input)",
                     "The largest integer not greater than each element (floating-point input).")
ceil = op_function("Ceil", "ceil(input)", "The smallest integer not less than each element (floating-point input).")
expm1 = op_function("Expm1", "expm1(input)", "exp(input) - 1, accurate near 0.")
log1p = op_function("Log1p", "log1p(input)", "log(1 + input), accurate near 0.")
sin = op_function("Sin", "sin(input)", "Sine (radians), elementwise.")
cos = op_function("Cos", "cos(input)", "Cosine (radians), elementwise.")
tan = op_function("Tan", "tan(input)", "Tangent (radians), elementwise.")
asin = op_function("Asin", "asin(input)", "Arcsine, elementwise; NaN outside [-1, 1].")
acos = op_function("ACos", "acos(input)", "Arccosine, elementwise; NaN outside [-1, 1].")
atan = op_function("Atan", "atan(input)", "Arctangent, elementwise.")
sinh = op_function("Sinh", "sinh(input)", "Hyperbolic sine, elementwise.")
cosh = op_function("Cosh", "cosh(input)", "Hyperbolic cosine, elementwise.")
tanh = op_function("Tanh", "tanh(input)", "Hyperbolic tangent, elementwise.")
erf = op_function("Erf", "erf(input)", "The Gauss error function, elementwise.")
erfc = op_function("Erfc", "erfc(input)", "The complementary error function 1 - erf(input), elementwise.")
isnan = op_function("IsNan", "isnan(input)", "Where input is NaN; a Bool tensor.")
isinf = op_function("IsInf", "isinf(input)", "Where input is +inf or -inf; a Bool tensor.")
isfinite = op_function("IsFinite", "isfinite(input)", "Where input is neither infinite nor NaN; a Bool tensor.")

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

floor_divide = op_function("FloorDiv", "floor_divide(input, other)",
                            "input / other rounded toward negative infinity (Python's //).")
floor_div = op_function("FloorDiv", "floor_div(x, y)", "Same as floor_divide (MindSpore 1.x name).")
floor_mod = op_function("FloorMod", "floor_mod(x, y)",
                         "x - floor(x / y) * y: the remainder with the sign of y (Python's %).")
remainder = op_function("FloorMod", "remainder(input, other)", "The remainder with the sign of `other` (Python's %).")
fmod = op_function("Mod", "fmod(input, other)", "The remainder with the sign of `input` (C's fmod).")
atan2 = op_function("Atan2", "atan2(input, other)",
                     "The angle of the point (other, input): arctan(input / other) in [-pi, pi].")
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

_add_n, _clip, _addcmul = prim("AddN"), prim("ClipByValue"), prim("Addcmul")


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


lerp = op_function("Lerp", "lerp(input, end, weight)", "input + weight * (end - input), elementwise with broadcasting.")


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
