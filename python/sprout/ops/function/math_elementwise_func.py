"""Elementwise math composed from registry primitives: log2/log10/exp2, trunc/frac, hypot, logaddexp,
deg2rad/rad2deg, isclose and nan_to_num. MindSpore 2.x names and arguments."""
import math
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor
from sprout.ops.function.math_reduce_func import _FINITE_MAX

_mul, _add, _sub, _div = prim("Mul"), prim("Add"), prim("Sub"), prim("Div")
_log, _exp, _cast, _select = prim("Log"), prim("Exp"), prim("Cast"), prim("Select")
_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _float(api, arg, x):
    """x as a floating-point tensor (integers and bools as Float32, as MindSpore's float ops take them)."""
    x = _tensor(x, api, arg)
    return x if x.dtype in _FLOATS else _cast(x, mstype.float32)


def _scale(api, x, factor):
    x = _float(api, "input", x)
    return _mul(x, Tensor(factor, x.dtype))


def log2(input):
    """The base-2 logarithm, elementwise."""
    return _scale("log2", _log(_float("log2", "input", input)), 1.0 / math.log(2.0))


def log10(input):
    """The base-10 logarithm, elementwise."""
    return _scale("log10", _log(_float("log10", "input", input)), 1.0 / math.log(10.0))


def exp2(input):
    """2 ** input, elementwise."""
    return _exp(_scale("exp2", input, math.log(2.0)))


def trunc(input):
    """Rounds toward zero (integers unchanged)."""
    x = _tensor(input, "trunc", "input")
    if x.dtype not in _FLOATS:
        return x
    return _mul(prim("Sign")(x), prim("Floor")(prim("Abs")(x)))


def frac(x):
    """x - trunc(x): the fractional part, with x's sign."""
    x = _tensor(x, "frac", "x")
    return _sub(x, trunc(x))


def hypot(input, other):
    """sqrt(input ** 2 + other ** 2), elementwise with broadcasting, without overflow for large inputs."""
    a, b = _float("hypot", "input", input), _float("hypot", "other", other)
    a, b = prim("Abs")(a), prim("Abs")(b)
    big, small = prim("Maximum")(a, b), prim("Minimum")(a, b)
    # big * sqrt(1 + (small / big)^2); 0 / 0 where both are 0 is sent to 0 by the select.
    ratio = _div(small, _select(prim("Equal")(big, Tensor(0, big.dtype)), prim("OnesLike")(big), big))
    return _mul(big, prim("Sqrt")(_add(prim("Square")(ratio), Tensor(1, ratio.dtype))))


def logaddexp(input, other):
    """log(exp(input) + exp(other)), elementwise, computed without overflow."""
    a, b = _float("logaddexp", "input", input), _float("logaddexp", "other", other)
    top = prim("Maximum")(a, b)
    gap = prim("Neg")(prim("Abs")(_sub(a, b)))
    spread = _add(top, prim("Log1p")(_exp(gap)))
    # Equal infinities make the gap NaN: there the answer is a + log 2 (inf or -inf).
    return _select(prim("Equal")(a, b), _add(a, Tensor(math.log(2.0), a.dtype)), spread)


def deg2rad(x):
    """Degrees to radians."""
    return _scale("deg2rad", x, math.pi / 180.0)


def rad2deg(x):
    """Radians to degrees."""
    return _scale("rad2deg", x, 180.0 / math.pi)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|, elementwise with broadcasting (infinities close only to
    themselves, NaN to NaN only with `equal_nan`)."""
    for arg, v in (("rtol", rtol), ("atol", atol)):
        if not isinstance(v, numbers.Real) or isinstance(v, bool) or v < 0:
            raise ValueError(f"isclose: '{arg}' must be a number >= 0, but got {v!r}")
    a, b = _float("isclose", "input", input), _float("isclose", "other", other)
    if a.dtype != b.dtype:
        common = mstype.float64 if mstype.float64 in (a.dtype, b.dtype) else mstype.float32
        a, b = _cast(a, common), _cast(b, common)
    limit = _add(Tensor(float(atol), a.dtype), _mul(Tensor(float(rtol), a.dtype), prim("Abs")(b)))
    within = prim("LessEqual")(prim("Abs")(_sub(a, b)), limit)
    # Where either is infinite (or NaN) the tolerance means nothing: close only when equal, as in NumPy.
    finite = prim("LogicalAnd")(prim("IsFinite")(a), prim("IsFinite")(b))
    close = _select(finite, within, prim("Equal")(a, b))
    if equal_nan:
        close = prim("LogicalOr")(close, prim("LogicalAnd")(prim("IsNan")(a), prim("IsNan")(b)))
    return close


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by `nan`, `posinf` and `neginf` (the dtype's largest finite values when
    None); other values unchanged."""
    x = _tensor(input, "nan_to_num", "input")
    if x.dtype not in _FLOATS:
        return x
    largest = _FINITE_MAX[x.dtype]
    posinf = largest if posinf is None else posinf
    neginf = -largest if neginf is None else neginf
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            raise TypeError(f"nan_to_num: '{arg}' must be a number, but got {v!r}")
    out = _select(prim("IsNan")(x), Tensor(float(nan), x.dtype), x)
    out = _select(prim("Equal")(x, Tensor(math.inf, x.dtype)), Tensor(float(posinf), x.dtype), out)
    return _select(prim("Equal")(x, Tensor(-math.inf, x.dtype)), Tensor(float(neginf), x.dtype), out)


__all__ = ["log2", "log10", "exp2", "trunc", "frac", "hypot", "logaddexp", "deg2rad", "rad2deg", "isclose",
           "nan_to_num"]
TENSOR_METHODS = ["log2", "log10", "exp2", "trunc", "frac", "hypot", "logaddexp", "deg2rad", "rad2deg", "isclose",
                  "nan_to_num"]
