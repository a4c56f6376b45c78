"""mint's elementwise math and comparisons: PyTorch's names and arguments over sprout.ops.

Most are sprout.ops functions unchanged (same names and arguments); the others add PyTorch's extras:
`alpha` of add/sub, `value` of addcmul/addcdiv as keywords, where(condition) alone, allclose/equal as bools."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.mint._checks import check_number, tensor

# Same names, same arguments as sprout.ops.
from sprout.ops import (abs, acos, acosh, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,  # noqa: F401
                        asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_or, bitwise_xor, ceil, cos, cosh,
                        eq, erf, erfc, erfinv, exp, exp2, expm1, float_power, floor, floor_divide, fmod, gcd, ge,
                        greater, greater_equal, gt, isclose, isfinite, isinf, isnan, isneginf, le, lerp, less,
                        less_equal, log, log1p, log2, log10, logaddexp, logaddexp2, logical_and, logical_not,
                        logical_or, logical_xor, lt, maximum, minimum, mul, ne, neg, negative, not_equal, pow,
                        reciprocal, remainder, round, rsqrt, sigmoid, sign, sin, sinc, sinh, sqrt, square, tan,
                        tanh, trunc, xlogy)

__all__ = ["abs", "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
           "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and", "bitwise_or", "bitwise_xor", "ceil", "cos",
           "cosh", "eq", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "float_power", "floor", "floor_divide",
           "fmod", "gcd", "ge", "greater", "greater_equal", "gt", "isclose", "isfinite", "isinf", "isnan",
           "isneginf", "le", "lerp", "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp",
           "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor", "lt", "maximum", "minimum",
           "mul", "ne", "neg", "negative", "not_equal", "pow", "reciprocal", "remainder", "round", "rsqrt",
           "sigmoid", "sign", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc", "xlogy",
           "add", "sub", "div", "divide", "addcmul", "addcdiv", "bitwise_not", "clamp", "clip", "fix", "frac",
           "nan_to_num", "allclose", "equal", "real", "where"]


def _scaled(x, alpha, api):
    """alpha * x, skipping the product for alpha == 1 (the default)."""
    check_number(alpha, api, "alpha")
    return x if alpha == 1 else ops.mul(x, alpha)


def add(input, other, *, alpha=1):
    """input + alpha * other, broadcast and promoted as ops.add."""
    return ops.add(input, _scaled(other, alpha, "mint.add"))


def sub(input, other, *, alpha=1):
    """input - alpha * other, broadcast and promoted as ops.sub."""
    return ops.sub(input, _scaled(other, alpha, "mint.sub"))


def div(input, other, *, rounding_mode=None):
    """True division, or rounded toward zero ('trunc') or down ('floor')."""
    if rounding_mode not in (None, "trunc", "floor"):
        raise ValueError(f"mint.div: 'rounding_mode' must be None, 'trunc' or 'floor', but got {rounding_mode!r}")
    return ops.div(input, other, rounding_mode=rounding_mode)


def divide(input, other, *, rounding_mode=None):
    """Alias of mint.div."""
    return div(input, other, rounding_mode=rounding_mode)


def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2."""
    check_number(value, "mint.addcmul", "value")
    return ops.add(input, _scaled(ops.mul(tensor1, tensor2), value, "mint.addcmul"))


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2."""
    check_number(value, "mint.addcdiv", "value")
    return ops.add(input, _scaled(ops.div(tensor1, tensor2), value, "mint.addcdiv"))


def bitwise_not(input):
    """~input for integer tensors; logical not for bool ones."""
    x = tensor(input, "mint.bitwise_not")
    if x.dtype == mstype.bool_:
        return ops.logical_not(x)
    if mstype.is_floating_type(x.dtype):
        raise TypeError(f"mint.bitwise_not: 'input' must be an integer or bool tensor, but got {x.dtype}")
    return ops.invert(x)


def clamp(input, min=None, max=None):
    """Limits input to [min, max]; either bound may be None (not both), a number or a tensor."""
    if min is None and max is None:
        raise ValueError("mint.clamp: at least one of 'min' and 'max' must be given, but both are None")
    return ops.clamp(input, min, max)


def clip(input, min=None, max=None):
    """Alias of mint.clamp."""
    return clamp(input, min, max)


def fix(input):
    """Alias of mint.trunc: rounds toward zero."""
    return ops.trunc(input)


def frac(input):
    """The fractional part, input - trunc(input), with input's sign."""
    return ops.frac(input)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """NaN -> `nan` (0.0 when None); infinities -> `posinf`/`neginf` (the dtype's extremes when None)."""
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if every |input - other| <= atol + rtol * |other| (a Python bool)."""
    return bool(ops.all(ops.isclose(input, other, rtol, atol, equal_nan)).item())


def equal(input, other):
    """True if the two tensors have the same shape and elements (a Python bool)."""
    a, b = tensor(input, "mint.equal"), tensor(other, "mint.equal", "other")
    if a.shape != b.shape:
        return False
    return bool(ops.all(ops.equal(a, b)).item())


def real(input):
    """The real part: Sprout has no complex dtypes, so a real tensor, returned unchanged."""
    return tensor(input, "mint.real")


def where(condition, input=None, other=None):
    """where(condition, input, other): input where condition, else other. where(condition): the indices of
    its nonzero elements, one int64 tensor per dimension."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("mint.where: give both 'input' and 'other', or neither")
    return ops.where(condition, input, other)
