"""Elementwise math composed from registry primitives: log2/log10/exp2, trunc/frac, hypot, logaddexp,
deg2rad/rad2deg, isclose, addcdiv, heaviside, xlogy, logit, diff and nan_to_num. MindSpore 2.x names and
arguments."""
import math
import numbers

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor, concat
from sprout.ops.function.array_view_func import _axis, narrow
from sprout.ops.function.math_reduce_func import _FINITE_MAX

_mul, _add, _sub, _div = prim("Mul"), prim("Add"), prim("Sub"), prim("Div")
_log, _exp, _cast, _select = prim("Log"), prim("Exp"), prim("Cast"), prim("Select")


def _float(api, arg, x):
    """x as a floating-point tensor (integers and bools as Float32, as MindSpore's float ops take them)."""
    x = _tensor(x, api, arg)
    return x if x.dtype in mstype.float_type else _cast(x, mstype.float32)


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
    if x.dtype not in mstype.float_type:
        return x
    return prim("Trunc")(x)


def frac(x):
    """x - trunc(x): the fractional part, with x's sign."""
    x = _tensor(x, "frac", "x")
    return _sub(x, trunc(x))


def hypot(input, other):
    """sqrt(input ** 2 + other ** 2), elementwise with broadcasting, without overflow for large inputs."""
    a, b = _float("hypot", "input", input), _float("hypot", "other", other)
    return prim("Hypot")(a, b)


def logaddexp(input, other):
    """log(exp(input) + exp(other)), elementwise, computed without overflow."""
    a, b = _float("logaddexp", "input", input), _float("logaddexp", "other", other)
    # Where a == b (equal infinities included) the gap is 0 and the answer top + log 2. Comparing zeros
    # there instead of a - b keeps inf - inf out of the values and of the gradients (a select would pass
    # the other branch's NaN gradient on, times 0). There the top is the mean of the two, not Maximum,
    # whose gradient goes to one side: the gradient at a tie is (1/2, 1/2).
    equal = prim("Equal")(a, b)
    zeros = prim("ZerosLike")(a)
    half = Tensor(0.5, a.dtype)  # halves added, not the sum halved: a + b overflows for equal values near the max
    top = _select(equal, _add(_mul(a, half), _mul(b, half)), prim("Maximum")(a, b))
    gap = prim("Neg")(prim("Abs")(_sub(_select(equal, zeros, a), _select(equal, zeros, b))))
    return _add(top, prim("Log1p")(_exp(gap)))


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


def addcdiv(input, tensor1, tensor2, value=1):
    """input + value * tensor1 / tensor2, elementwise with broadcasting."""
    quotient = _div(_tensor(tensor1, "addcdiv", "tensor1"), _tensor(tensor2, "addcdiv", "tensor2"))
    return _add(_tensor(input, "addcdiv", "input"), _mul(quotient, value))


def heaviside(input, values):
    """The step function: 0 where input < 0, `values` where input == 0, 1 where input > 0; in the dtype
    both promote to (as NumPy's: integer input with float values gives floats, not truncated values)."""
    x = _tensor(input, "heaviside", "input")
    at_zero = _tensor(values, "heaviside", "values")
    dtype = _C.promote_types(x.dtype, at_zero.dtype)
    step = _cast(prim("Greater")(x, Tensor(0, x.dtype)), dtype)
    return _select(prim("Equal")(x, Tensor(0, x.dtype)), _cast(at_zero, dtype), step)


def xlogy(input, other):
    """input * log(other), 0 where input is 0 (unless other is NaN)."""
    x, y = _float("xlogy", "input", input), _float("xlogy", "other", other)
    product = _mul(x, _log(y))
    zero = prim("LogicalAnd")(prim("Equal")(x, Tensor(0, x.dtype)), prim("LogicalNot")(prim("IsNan")(y)))
    return _select(zero, prim("ZerosLike")(product), product)


def logit(input, eps=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when `eps` is given."""
    p = _float("logit", "input", input)
    if eps is not None:
        if not isinstance(eps, numbers.Real) or isinstance(eps, bool) or not 0 <= eps <= 0.5:
            raise ValueError(f"logit: 'eps' must be a number in [0, 0.5] or None, but got {eps!r}")
        p = prim("ClipByValue")(p, Tensor(float(eps), p.dtype), Tensor(1.0 - eps, p.dtype))
    return _log(_div(p, _sub(Tensor(1, p.dtype), p)))


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along `axis`, after joining `prepend` and `append` there (NumPy's diff)."""
    t = _tensor(x, "diff", "x")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"diff: 'n' must be an int >= 0, but got {n!r}")
    if t.ndim == 0:
        raise ValueError("diff: 'x' must have at least one dimension, but got a 0-d tensor")
    axis = _axis("diff", "axis", axis, t.ndim)
    parts = [p for p in (prepend, t, append) if p is not None]
    t = concat([_tensor(p, "diff", "prepend/append") for p in parts], axis) if len(parts) > 1 else t
    for _ in range(n):
        length = t.shape[axis]
        if length == 0:
            break
        t = _sub(narrow(t, axis, 1, length - 1), narrow(t, axis, 0, length - 1))
    return t


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by `nan`, `posinf` and `neginf` (the dtype's largest finite values when
    None); other values unchanged."""
    x = _tensor(input, "nan_to_num", "input")
    if x.dtype not in mstype.float_type:
        return x
    largest = _FINITE_MAX[x.dtype]
    posinf = largest if posinf is None else posinf
    neginf = -largest if neginf is None else neginf
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            raise TypeError(f"nan_to_num: '{arg}' must be a number, but got {v!r}")
    return prim("NanToNum", nan=float(nan), posinf=float(posinf), neginf=float(neginf))(x)


__all__ = ["log2", "log10", "exp2", "trunc", "frac", "hypot", "logaddexp", "deg2rad", "rad2deg", "isclose",
           "addcdiv", "heaviside", "xlogy", "logit", "diff", "nan_to_num"]
TENSOR_METHODS = ["log2", "log10", "exp2", "trunc", "frac", "hypot", "logaddexp", "deg2rad", "rad2deg", "isclose",
                  "addcdiv", "heaviside", "xlogy", "logit", "diff", "nan_to_num"]
