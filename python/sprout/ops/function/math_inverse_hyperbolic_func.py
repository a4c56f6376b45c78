"""The inverse hyperbolic functions acosh, asinh, atanh (and NumPy's names arccosh, arcsinh, arctanh), composed
from log1p and sqrt: Sprout has no primitives for them. MindSpore 2.x names and arguments.

The textbook forms (log(x + sqrt(x^2 - 1)) ...) lose all relative accuracy near 0 (asinh, atanh) and near 1
(acosh) and overflow for large x, so each is written as log1p of a small argument where that matters and as
log(x) + log(2) once x^2 would overflow. Autodiff of the composition gives the derivatives (1/sqrt(1 + x^2),
1/sqrt(x^2 - 1), 1/(1 - x^2)). float16 and bfloat16 inputs are computed in float32 and rounded once; integer
and bool inputs give float32 (MindSpore refuses them; NumPy and PyTorch promote them as here).

Branches are selects whose untaken side is fed a harmless value: a select passes a zero gradient to the
other side, and zero times an infinite or NaN derivative there would still be NaN.
"""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div, _neg = prim("Add"), prim("Sub"), prim("Mul"), prim("Div"), prim("Neg")
_log, _log1p, _sqrt, _cast, _select = prim("Log"), prim("Log1p"), prim("Sqrt"), prim("Cast"), prim("Select")
_less, _greater = prim("Less"), prim("Greater")

_HALF = (mstype.float16, mstype.bfloat16)
# Above 2^28, x^2 + 1 == x^2 in float64 and float32 alike, so asinh(x) = log(2x) and acosh(x) = log(2x) to the
# last bit (the next term, 1/(4x^2), is below 2^-58); below it x^2 cannot overflow float32.
_LARGE = 2.0 ** 28
_LOG2 = math.log(2.0)


def _compute_dtype(api, x):
    """The dtype the function is computed in and the one its result is returned in."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'input' must be a Tensor, but got {type(x).__name__}")
    if x.dtype in (mstype.float32, mstype.float64):
        return x.dtype, x.dtype
    if x.dtype in _HALF:
        return mstype.float32, x.dtype
    return mstype.float32, mstype.float32


def _c(value, dtype):
    return Tensor(float(value), dtype)


def _log_twice(x, dtype):
    """log(2x) for the large-x branch."""
    return _add(_log(x), _c(_LOG2, dtype))


def asinh(input):
    """The inverse hyperbolic sine, elementwise: log(x + sqrt(x^2 + 1)), odd and accurate near 0."""
    dtype, out = _compute_dtype("asinh", input)
    x = input if input.dtype == dtype else _cast(input, dtype)
    negative = _less(x, _c(0, dtype))
    sign = _select(negative, _c(-1, dtype), _c(1, dtype))
    a = _mul(sign, x)  # |x|, with a derivative of +1 at 0 where asinh's is 1
    large = _greater(a, _c(_LARGE, dtype))
    small_a = _select(large, _c(1, dtype), a)  # guard: keep a^2 finite on the untaken side
    big_a = _select(large, a, _c(1, dtype))    # guard: keep log away from 0
    # asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))): the argument of log1p is a (1 + O(a)), no cancellation.
    a2 = _mul(small_a, small_a)
    small = _log1p(_add(small_a, _div(a2, _add(_c(1, dtype), _sqrt(_add(_c(1, dtype), a2))))))
    result = _mul(sign, _select(large, _log_twice(big_a, dtype), small))
    return result if out == dtype else _cast(result, out)


def acosh(input):
    """The inverse hyperbolic cosine, elementwise: log(x + sqrt(x^2 - 1)) for x >= 1, NaN below 1; accurate
    near 1, where it behaves like sqrt(2 (x - 1))."""
    dtype, out = _compute_dtype("acosh", input)
    x = input if input.dtype == dtype else _cast(input, dtype)
    large = _greater(x, _c(_LARGE, dtype))
    small_x = _select(large, _c(2, dtype), x)
    big_x = _select(large, x, _c(2, dtype))
    # With t = x - 1 (exact near 1): acosh(x) = log1p(t + sqrt(t (t + 2))).
    t = _sub(small_x, _c(1, dtype))
    small = _log1p(_add(t, _sqrt(_mul(t, _add(t, _c(2, dtype))))))
    result = _select(large, _log_twice(big_x, dtype), small)
    return result if out == dtype else _cast(result, out)


def atanh(input):
    """The inverse hyperbolic tangent, elementwise: (log1p(x) - log1p(-x)) / 2; +-inf at +-1, NaN beyond.
    The two logs have opposite signs, so their difference never cancels; 1 - x is exact near 1."""
    dtype, out = _compute_dtype("atanh", input)
    x = input if input.dtype == dtype else _cast(input, dtype)
    result = _mul(_sub(_log1p(x), _log1p(_neg(x))), _c(0.5, dtype))
    return result if out == dtype else _cast(result, out)


def arcsinh(input):
    """Alias of :func:`asinh`."""
    return asinh(input)


def arccosh(input):
    """Alias of :func:`acosh`."""
    return acosh(input)


def arctanh(input):
    """Alias of :func:`atanh`."""
    return atanh(input)


__all__ = ["acosh", "asinh", "atanh", "arccosh", "arcsinh", "arctanh"]
TENSOR_METHODS = list(__all__)
