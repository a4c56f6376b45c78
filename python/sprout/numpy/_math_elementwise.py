"""mindspore.numpy's elementwise math: arithmetic, powers and logarithms, rounding, trigonometry, bitwise
operations. Each takes array-likes (numbers and lists become 32-bit tensors, as MindSpore's) and an optional
`dtype` the result is cast to; integer inputs of the functions that need a float compute in float32 (or, for
trigonometry, the float type MindSpore's table gives). Compositions of sprout.ops: they differentiate and
compile.
"""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast
from sprout.numpy._math_args import (as_tensor, as_tensors, check_int, check_tensor, finish, is_float, promote,
                                     to_float32_unless_float, INTS)

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "power", "float_power", "floor_divide",
           "remainder", "fmod", "divmod_", "absolute", "sign", "copysign", "positive", "negative", "reciprocal",
           "square", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp",
           "logaddexp2", "maximum", "minimum", "heaviside", "hypot", "clip", "floor", "ceil", "fix", "trunc",
           "rint", "around", "deg2rad", "radians", "rad2deg", "gcd", "lcm", "sin", "cos", "tan", "arcsin",
           "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "arctan2",
           "bitwise_and", "bitwise_or", "bitwise_xor", "invert"]


def _binary(api, fn, x1, x2, dtype):
    x1, x2 = as_tensors(api, ("x1", "x2"), x1, x2)
    return finish(api, fn(x1, x2), dtype)


def _unary(api, fn, x, dtype, name="x"):
    return finish(api, fn(as_tensor(api, name, x)), dtype)


# --- arithmetic ---------------------------------------------------------------------------------------

def add(x1, x2, dtype=None):
    """x1 + x2, elementwise with broadcasting."""
    return _binary("add", ops.add, x1, x2, dtype)


def subtract(x1, x2, dtype=None):
    """x1 - x2, elementwise with broadcasting."""
    return _binary("subtract", ops.sub, x1, x2, dtype)


def multiply(x1, x2, dtype=None):
    """x1 * x2, elementwise with broadcasting."""
    return _binary("multiply", ops.mul, x1, x2, dtype)


def _true_div(x1, x2):
    if not is_float(x1.dtype) and not is_float(x2.dtype):  # integer division gives float32, as MindSpore's
        x1, x2 = cast(x1, mstype.float32), cast(x2, mstype.float32)
    return ops.div(x1, x2)


def divide(x1, x2, dtype=None):
    """x1 / x2, true division: integer inputs divide in float32."""
    return _binary("divide", _true_div, x1, x2, dtype)


def true_divide(x1, x2, dtype=None):
    """x1 / x2, as `divide`."""
    return _binary("true_divide", _true_div, x1, x2, dtype)


def power(x1, x2, dtype=None):
    """x1 ** x2, elementwise with broadcasting."""
    return _binary("power", ops.pow, x1, x2, dtype)


def float_power(x1, x2, dtype=None):
    """x1 ** x2 computed in float (float32; float64 when an input is float64, where MindSpore would narrow
    to float32)."""
    def _float_pow(a, b):
        wide = mstype.float64 if mstype.float64 in (a.dtype, b.dtype) else mstype.float32
        return ops.pow(cast(a, wide), cast(b, wide))
    return _binary("float_power", _float_pow, x1, x2, dtype)


def floor_divide(x1, x2, dtype=None):
    """The largest integer not above x1 / x2, in the inputs' promoted dtype."""
    return _binary("floor_divide", ops.floor_divide, x1, x2, dtype)


def _remainder(x1, x2, c_style=False):
    """x1 - x2 * floor(x1 / x2) (the sign of x2, Python's %), or with trunc (the sign of x1, C's fmod);
    computed in float32 for integers, as MindSpore does, and 0 where an integer x2 is 0 (NumPy's result)."""
    dtype = promote(x1.dtype, x2.dtype)
    a, b = to_float32_unless_float(cast(x1, dtype)), to_float32_unless_float(cast(x2, dtype))
    quotient = ops.div(a, b)
    quotient = ops.trunc(quotient) if c_style else ops.floor(quotient)
    result = ops.sub(a, ops.mul(b, quotient))
    if not is_float(dtype):
        result = ops.select(ops.equal(b, 0), ops.zeros_like(result), result)
        result = cast(result, dtype)
    return result


def remainder(x1, x2, dtype=None):
    """The remainder of floor division: same sign as x2 (Python's %)."""
    return _binary("remainder", _remainder, x1, x2, dtype)


def fmod(x1, x2, dtype=None):
    """The remainder of truncating division: same sign as x1 (C's fmod)."""
    return _binary("fmod", lambda a, b: _remainder(a, b, c_style=True), x1, x2, dtype)


def divmod_(x1, x2, dtype=None):
    """(floor_divide(x1, x2), remainder(x1, x2)). Exported as `divmod`."""
    x1, x2 = as_tensors("divmod", ("x1", "x2"), x1, x2)
    return finish("divmod", ops.floor_divide(x1, x2), dtype), finish("divmod", _remainder(x1, x2), dtype)


def absolute(x, dtype=None):
    """|x| elementwise; integers stay integers."""
    def _abs(a):
        return ops.logical_or(a, a) if a.dtype == mstype.bool_ else ops.abs(a)
    return _unary("absolute", _abs, x, dtype)


def sign(x, dtype=None):
    """-1, 0 or 1 by the sign of x (NaN for NaN); bool tensors are refused, as MindSpore does."""
    if not isinstance(x, (int, float, list, tuple, Tensor)) or isinstance(x, bool):
        raise TypeError(f"sign: 'x' must be an int, float, list, tuple or Tensor, but got {type(x).__name__}")
    x = as_tensor("sign", "x", x)
    if x.dtype == mstype.bool_:
        raise TypeError("sign: 'x' must not be a bool tensor")
    result = ops.sign(x) if is_float(x.dtype) else ops.sign(cast(x, mstype.float32))  # MindSpore: x / |x|
    return finish("sign", result, dtype)


def copysign(x1, x2, dtype=None):
    """|x1| with the sign of x2 (x2 < 0 gives the negative), in x1's dtype."""
    for name, value in (("x1", x1), ("x2", x2)):
        if not isinstance(value, (int, float, list, tuple, Tensor)) or isinstance(value, bool):
            raise TypeError(f"copysign: '{name}' must be an int, float, list, tuple or Tensor, but got "
                            f"{type(value).__name__}")
    x1, x2 = as_tensors("copysign", ("x1", "x2"), x1, x2)
    if mstype.bool_ in (x1.dtype, x2.dtype):
        raise TypeError("copysign: 'x1' and 'x2' must not be bool tensors")
    shape = ops.broadcast_to(x1, _broadcast_shape(x1.shape, x2.shape)).shape
    magnitude = ops.broadcast_to(ops.abs(x1), shape)
    result = ops.select(ops.broadcast_to(ops.less(x2, 0), shape), ops.neg(magnitude), magnitude)
    return finish("copysign", result, dtype)


def _broadcast_shape(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        da = a[len(a) - 1 - i] if i < len(a) else 1
        db = b[len(b) - 1 - i] if i < len(b) else 1
        if da != db and 1 not in (da, db):
            raise ValueError(f"shapes {tuple(a)} and {tuple(b)} cannot broadcast together")
        out.append(db if da == 1 else da)
    return tuple(reversed(out))


def positive(a, dtype=None):
    """+a: a copy of `a`."""
    check_tensor("positive", "a", a)
    return finish("positive", ops.neg(ops.neg(a)), dtype)


def negative(a, dtype=None):
    """-a elementwise."""
    return _unary("negative", ops.neg, a, dtype, "a")


def _reciprocal(a):
    if is_float(a.dtype):
        return ops.div(1.0, a)
    return cast(ops.trunc(ops.div(1.0, cast(a, mstype.float32))), a.dtype)  # integer division, as NumPy's


def reciprocal(x, dtype=None):
    """1 / x elementwise; integers give the integer quotient (truncated), as NumPy's."""
    return _unary("reciprocal", _reciprocal, x, dtype)


def square(x, dtype=None):
    """x * x elementwise."""
    return _unary("square", ops.square, x, dtype)


def sqrt(x, dtype=None):
    """The non-negative square root, elementwise."""
    return _unary("sqrt", ops.sqrt, x, dtype)


def cbrt(x, dtype=None):
    """The cube root (negative for negative x), in float32 or wider."""
    def _cbrt(a):
        a = cast(a, promote(a.dtype, mstype.float32))
        return ops.mul(ops.sign(a), ops.pow(ops.abs(a), 1.0 / 3.0))
    return _unary("cbrt", _cbrt, x, dtype)


# --- exponentials and logarithms --------------------------------------------------------------------------

def exp(x, dtype=None):
    """e ** x elementwise."""
    return _unary("exp", ops.exp, x, dtype)


def exp2(x, dtype=None):
    """2 ** x elementwise (MindSpore's power of an int32 2: integer x stays integer)."""
    return _unary("exp2", lambda a: ops.pow(Tensor(2, mstype.int32), a), x, dtype)


def expm1(x, dtype=None):
    """exp(x) - 1, accurate for small x."""
    return _unary("expm1", ops.expm1, x, dtype)


def log(x, dtype=None):
    """The natural logarithm, elementwise."""
    return _unary("log", ops.log, x, dtype)


def log2(x, dtype=None):
    """The base-2 logarithm, elementwise."""
    return _unary("log2", ops.log2, x, dtype)


def log10(x, dtype=None):
    """The base-10 logarithm, elementwise."""
    return _unary("log10", ops.log10, x, dtype)


def log1p(x, dtype=None):
    """log(1 + x), accurate for small x."""
    return _unary("log1p", ops.log1p, x, dtype)


def logaddexp(x1, x2, dtype=None):
    """log(exp(x1) + exp(x2)), computed without overflow."""
    return _binary("logaddexp", lambda a, b: ops.logaddexp(*_float_pair(a, b)), x1, x2, dtype)


def logaddexp2(x1, x2, dtype=None):
    """log2(2**x1 + 2**x2), computed without overflow; x1 and x2 must be tensors, as MindSpore's."""
    check_tensor("logaddexp2", "x1", x1)
    check_tensor("logaddexp2", "x2", x2)
    return _binary("logaddexp2", lambda a, b: ops.logaddexp2(*_float_pair(a, b)), x1, x2, dtype)


def _float_pair(a, b):
    dtype = promote(a.dtype, b.dtype)
    dtype = dtype if is_float(dtype) else mstype.float32
    return cast(a, dtype), cast(b, dtype)


# --- comparisons that pick a value ------------------------------------------------------------------------

def _extremum(api, fn, x1, x2, dtype):
    x1, x2 = as_tensors(api, ("x1", "x2"), x1, x2)
    if dtype is None and (x1.ndim == 0) != (x2.ndim == 0):
        dtype = x2.dtype if x1.ndim == 0 else x1.dtype  # MindSpore: a scalar takes the array's dtype
    result = fn(x1, x2)
    if is_float(result.dtype):  # NaN in either input gives NaN, as NumPy's maximum/minimum
        has_nan = ops.logical_or(ops.isnan(x1), ops.isnan(x2))
        result = ops.select(ops.broadcast_to(has_nan, result.shape), ops.full_like(result, float("nan")), result)
    return finish(api, result, dtype)


def maximum(x1, x2, dtype=None):
    """The larger of x1 and x2 elementwise; NaN where either is NaN."""
    return _extremum("maximum", ops.maximum, x1, x2, dtype)


def minimum(x1, x2, dtype=None):
    """The smaller of x1 and x2 elementwise; NaN where either is NaN."""
    return _extremum("minimum", ops.minimum, x1, x2, dtype)


def clip(x, xmin, xmax, dtype=None):
    """x limited to [xmin, xmax]; either bound may be None, not both."""
    if xmin is None and xmax is None:
        raise ValueError("clip: one of 'xmin' and 'xmax' must be given, but both are None")
    if xmin is not None:
        x = maximum(x, xmin, dtype=dtype)
    if xmax is not None:
        x = minimum(x, xmax, dtype=dtype)
    return x


def heaviside(x1, x2, dtype=None):
    """0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0 (the step function)."""
    def _heaviside(a, b):
        out = promote(a.dtype, b.dtype)
        a, b = cast(a, out), cast(b, out)
        shape = _broadcast_shape(a.shape, b.shape)
        a, b = ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)
        b = ops.select(ops.less(a, 0), ops.zeros_like(b), b)
        return ops.select(ops.greater(a, 0), ops.ones_like(b), b)
    return _binary("heaviside", _heaviside, x1, x2, dtype)


def hypot(x1, x2, dtype=None):
    """sqrt(x1**2 + x2**2) elementwise."""
    return _binary("hypot", lambda a, b: ops.sqrt(ops.add(ops.square(a), ops.square(b))), x1, x2, dtype)


# --- rounding ---------------------------------------------------------------------------------------------

def floor(x, dtype=None):
    """The largest integer not above x."""
    return _unary("floor", lambda a: ops.floor(to_float32_unless_float(a)), x, dtype)


def ceil(x, dtype=None):
    """The smallest integer not below x (integer inputs give float32)."""
    return _unary("ceil", lambda a: ops.ceil(to_float32_unless_float(a)), x, dtype)


def fix(x):
    """Rounds toward zero, in float (integers give float32)."""
    check_tensor("fix", "x", x)
    return ops.trunc(to_float32_unless_float(x))


def trunc(x, dtype=None):
    """Rounds toward zero (as `fix`)."""
    return finish("trunc", fix(check_tensor("trunc", "x", x)), dtype)


def rint(x, dtype=None):
    """Rounds to the nearest integer, halves to even; the dtype stays."""
    return _unary("rint", lambda a: a if not is_float(a.dtype) else ops.round(a), x, dtype)


def around(a, decimals=0):
    """Rounds to `decimals` decimal places (halves to even). Exported also as `round`."""
    a = as_tensor("around", "a", a)
    check_int("around", "decimals", decimals)
    if decimals < 0:
        raise ValueError(f"around: 'decimals' must be >= 0 (negative decimals are not supported), but got "
                         f"{decimals}")
    if not is_float(a.dtype):
        return a
    if decimals == 0:
        return ops.round(a)
    scale = 10 ** decimals
    return ops.div(ops.round(ops.mul(a, scale)), scale)


# --- angles ------------------------------------------------------------------------------------------------

def deg2rad(x, dtype=None):
    """Degrees to radians."""
    check_tensor("deg2rad", "x", x)
    return finish("deg2rad", ops.div(ops.mul(x, math.pi), 180.0), dtype)


def radians(x, dtype=None):
    """Degrees to radians (as `deg2rad`)."""
    check_tensor("radians", "x", x)
    return deg2rad(x, dtype=dtype)


def rad2deg(x, dtype=None):
    """Radians to degrees."""
    check_tensor("rad2deg", "x", x)
    return finish("rad2deg", ops.div(ops.mul(x, 180.0), math.pi), dtype)


# --- greatest common divisor -------------------------------------------------------------------------------

def _integer_pair(api, a, b):
    dtype = promote(a.dtype, b.dtype)
    if dtype == mstype.bool_:
        dtype = mstype.int32
    if dtype not in INTS:
        raise TypeError(f"{api}: 'x1' and 'x2' must be integer tensors, but got {a.dtype} and {b.dtype}")
    return cast(a, dtype), cast(b, dtype)


def gcd(x1, x2, dtype=None):
    """The greatest common divisor of |x1| and |x2| (integers)."""
    return _binary("gcd", lambda a, b: ops.gcd(*_integer_pair("gcd", a, b)), x1, x2, dtype)


def lcm(x1, x2, dtype=None):
    """The lowest common multiple of |x1| and |x2| (integers)."""
    return _binary("lcm", lambda a, b: ops.lcm(*_integer_pair("lcm", a, b)), x1, x2, dtype)


# --- trigonometry ---------------------------------------------------------------------------------------

# MindSpore's float type for trigonometry of other dtypes: narrow integers and bool in float16.
_TRIG_DTYPE = {mstype.int8: mstype.float16, mstype.uint8: mstype.float16, mstype.bool_: mstype.float16,
               mstype.int16: mstype.float32, mstype.int32: mstype.float32, mstype.int64: mstype.float32}


def _trig_input(api, name, x):
    x = check_tensor(api, name, x)
    wide = _TRIG_DTYPE.get(x.dtype)
    return cast(x, wide) if wide is not None else x


def _trig(api, fn, x, dtype, name="x"):
    return finish(api, fn(_trig_input(api, name, x)), dtype)


def sin(x, dtype=None):
    """Sine, elementwise."""
    return _trig("sin", ops.sin, x, dtype)


def cos(x, dtype=None):
    """Cosine, elementwise."""
    return _trig("cos", ops.cos, x, dtype)


def tan(x, dtype=None):
    """Tangent, elementwise."""
    return _trig("tan", ops.tan, x, dtype)


def arcsin(x, dtype=None):
    """Inverse sine, elementwise."""
    return _trig("arcsin", ops.asin, x, dtype)


def arccos(input, dtype=None):  # noqa: A002 (MindSpore's argument name)
    """Inverse cosine, elementwise."""
    return _trig("arccos", ops.acos, input, dtype, "input")


def arctan(x, dtype=None):
    """Inverse tangent, elementwise."""
    return _trig("arctan", ops.atan, x, dtype)


def sinh(x, dtype=None):
    """Hyperbolic sine, elementwise."""
    return _trig("sinh", ops.sinh, x, dtype)


def cosh(x, dtype=None):
    """Hyperbolic cosine, elementwise."""
    return _trig("cosh", ops.cosh, x, dtype)


def tanh(x, dtype=None):
    """Hyperbolic tangent, elementwise."""
    return _trig("tanh", ops.tanh, x, dtype)


def arcsinh(x, dtype=None):
    """Inverse hyperbolic sine, elementwise."""
    return _trig("arcsinh", ops.asinh, x, dtype)


def arccosh(x, dtype=None):
    """Inverse hyperbolic cosine, elementwise."""
    return _trig("arccosh", ops.acosh, x, dtype)


def arctanh(x, dtype=None):
    """Inverse hyperbolic tangent, elementwise."""
    return _trig("arctanh", ops.atanh, x, dtype)


def arctan2(x1, x2, dtype=None):
    """The angle of the point (x2, x1) in (-pi, pi]: arctan(x1 / x2) in the right quadrant."""
    a, b = _trig_input("arctan2", "x1", x1), _trig_input("arctan2", "x2", x2)
    wide = promote(a.dtype, b.dtype)
    return finish("arctan2", ops.atan2(cast(a, wide), cast(b, wide)), dtype)


# --- bitwise -----------------------------------------------------------------------------------------------

def bitwise_and(x1, x2, dtype=None):
    """x1 & x2 for integer and bool tensors."""
    return _binary("bitwise_and", ops.bitwise_and, x1, x2, dtype)


def bitwise_or(x1, x2, dtype=None):
    """x1 | x2 for integer and bool tensors."""
    return _binary("bitwise_or", ops.bitwise_or, x1, x2, dtype)


def bitwise_xor(x1, x2, dtype=None):
    """x1 ^ x2 for integer and bool tensors."""
    return _binary("bitwise_xor", ops.bitwise_xor, x1, x2, dtype)


def invert(x, dtype=None):
    """~x: bitwise NOT of integers, logical NOT of bools. Exported also as `bitwise_not`."""
    return _unary("invert", lambda a: ops.logical_not(a) if a.dtype == mstype.bool_ else ops.invert(a), x, dtype)
