"""Special functions: lgamma, digamma, polygamma, mvlgamma, erfinv and the modified Bessel function i0
(bessel_i0). MindSpore 2.x names and arguments.

lgamma, digamma, polygamma and erfinv are registry ops (Lgamma, Digamma, Polygamma, Erfinv: vector series
in double precision, Note [Special functions by series]), whose derivatives are ops of the same family.
mvlgamma sums lgammas; i0 is composed from registry primitives in float64 (a power series, or the
asymptotic expansion beyond |x| = 20), so autodiff of the composition gives its derivative i1. Branches
of the composition are selects over both sides, so the side that is not taken is fed a harmless value
("guards" below): a select passes a zero gradient to the other side, and zero times an infinite
derivative there would be NaN.
"""
import math

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div = prim("Add"), prim("Sub"), prim("Mul"), prim("Div")
_log, _exp, _abs, _cast, _select = prim("Log"), prim("Exp"), prim("Abs"), prim("Cast"), prim("Select")
_less, _greater = prim("Less"), prim("Greater")
_lgamma, _digamma, _erfinv = prim("Lgamma"), prim("Digamma"), prim("Erfinv")

_F64 = mstype.float64
_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _c(value):
    """A float64 scalar constant."""
    return Tensor(float(value), _F64)


def _tensor(api, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'input' must be a Tensor, but got {type(x).__name__}")
    return x


def _wide(api, x):
    """x as float64 and the dtype the result goes back to (float32 for integer and bool inputs)."""
    x = _tensor(api, x)
    out = x.dtype if x.dtype in _FLOATS else mstype.float32
    return (x if x.dtype == _F64 else _cast(x, _F64)), out


def _narrow(x, dtype):
    return x if dtype == _F64 else _cast(x, dtype)


def _horner(coefficients, t):
    """sum(coefficients[k] * t**k), highest power first in the loop."""
    out = _c(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        out = _add(_mul(out, t), _c(c))
    return out


# ---- the gamma family and erfinv: registry ops (Note [Special functions by series]) -------------------

def lgamma(input):
    """log(|Gamma(input)|), elementwise: +inf at 0, the negative integers and +-inf."""
    return _lgamma(_tensor("lgamma", input))


def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension `p`: log(pi) * p(p-1)/4 + sum over i < p of
    lgamma(input - i/2). Defined for input > (p-1)/2; other elements are NaN (MindSpore raises instead, which
    needs the values on the host: this works the same compiled)."""
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
        raise TypeError(f"mvlgamma: 'p' must be an int, but got {p!r}")
    if p < 1:
        raise ValueError(f"mvlgamma: 'p' must be >= 1, but got {p}")
    x, dtype = _wide("mvlgamma", input)
    out = _c(math.log(math.pi) * p * (p - 1) / 4)
    for i in range(int(p)):
        out = _add(out, _lgamma(_sub(x, _c(i / 2))))
    out = _select(_greater(x, _c((p - 1) / 2)), out, _c(math.nan))
    return _narrow(out, dtype)


def digamma(input):
    """The logarithmic derivative of the gamma function, psi(input) = Gamma'(input) / Gamma(input):
    -inf at 0, NaN at the negative integers."""
    return _digamma(_tensor("digamma", input))


def _order(n):
    """polygamma's `n` as a Python int: it picks the formula, so it must be known when the call is made."""
    if isinstance(n, Tensor):
        if n.dtype in _FLOATS or n.dtype == mstype.bool_ or n.ndim != 0:
            raise TypeError(f"polygamma: 'n' must be an int or a 0-d integer Tensor, but got a {n.dtype} tensor "
                            f"of shape {n.shape}")
        try:
            n = int(n.asnumpy())
        except Exception:  # a tensor computed inside a compiled function has no value yet
            raise TypeError("polygamma: 'n' must be known when the call is made (an int or a constant "
                            "Tensor), but got a tensor computed in the compiled function") from None
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"polygamma: 'n' must be an int or a 0-d integer Tensor, but got {n!r}")
    if n < 0:
        raise ValueError(f"polygamma: 'n' must be >= 0, but got {n}")
    return int(n)


def polygamma(n, input):
    """The n-th derivative of digamma at `input` (n = 0 is digamma itself), for any order n >= 0; `n` an int
    or a 0-d integer Tensor."""
    n = _order(n)
    x = _tensor("polygamma", input)
    return _digamma(x) if n == 0 else prim("Polygamma", n=n)(x)


def erfinv(input):
    """The inverse error function on (-1, 1): erf(erfinv(y)) = y; +-inf at +-1, NaN outside [-1, 1]."""
    return _erfinv(_tensor("erfinv", input))


# ---- modified Bessel function of the first kind, order 0 ----------------------------------------------

_I0_SPLIT = 20.0
# I0(x) = sum (x^2/4)^k / (k!)^2: all terms positive; 36 of them reach float64 precision for |x| <= 20.
_I0_SERIES = [1.0 / math.factorial(k) ** 2 for k in range(36)]
# I0(x) ~ e^x / sqrt(2 pi x) * sum ((2k-1)!!)^2 / (k! 8^k x^k) for x > 20, whose smallest term is ~e^-2x.
_I0_ASYMPTOTIC = [1.0]
for _k in range(1, 26):
    _I0_ASYMPTOTIC.append(_I0_ASYMPTOTIC[-1] * (2 * _k - 1) ** 2 / (8 * _k))


def _i0_64(x):
    small = _less(_abs(x), _c(_I0_SPLIT))
    t = _select(small, _mul(_mul(x, x), _c(0.25)), _c(0))  # guards: each side reads only its own range
    a = _select(small, _c(_I0_SPLIT + 1), _abs(x))
    series = _horner(_I0_SERIES, t)
    scale = _exp(_sub(a, _mul(_log(_mul(a, _c(2 * math.pi))), _c(0.5))))  # e^a / sqrt(2 pi a), overflow late
    asymptotic = _mul(scale, _horner(_I0_ASYMPTOTIC, _div(_c(1), a)))
    return _select(small, series, asymptotic)


def i0(input):
    """The modified Bessel function of the first kind of order 0, elementwise."""
    x, dtype = _wide("i0", input)
    return _narrow(_i0_64(x), dtype)


def bessel_i0(x):
    """Same as i0 (MindSpore's name with argument `x`)."""
    v, dtype = _wide("bessel_i0", x)
    return _narrow(_i0_64(v), dtype)


__all__ = ["lgamma", "digamma", "polygamma", "mvlgamma", "erfinv", "i0", "bessel_i0"]
TENSOR_METHODS = ["lgamma", "digamma", "mvlgamma", "erfinv", "i0"]
