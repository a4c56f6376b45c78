"""Records of the special functions Lgamma, Digamma, Polygamma and Erfinv, and Python-float references of
digamma and polygamma (math has lgamma and erf, not these)."""
import math

import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

SHAPES = [((2, 3),), ((),), ((0, 4),), ((7, 33),)]


def digamma_ref(x):
    """psi(x) in Python floats: reflection below 1/2, else a shift to x + 40 and the asymptotic series."""
    if x < 0.5:
        return digamma_ref(1 - x) - math.pi / math.tan(math.pi * x)
    shift = sum(1 / (x + k) for k in range(40))
    y = x + 40
    return math.log(y) - 1 / (2 * y) - 1 / (12 * y**2) + 1 / (120 * y**4) - 1 / (252 * y**6) - shift


def polygamma_ref(n, x):
    """psi^(n)(x) = (-1)^(n+1) n! sum over k of (x + k)^-(n+1) (n >= 1; any x off the poles), 2000 terms
    then the integral and half-term corrections of the tail."""
    s = n + 1
    total = math.fsum((x + k) ** -s for k in range(2000))
    y = x + 2000
    total += y ** (1 - s) / (s - 1) + 0.5 * y ** -s + s / 12 * y ** (-s - 1)
    return (-1) ** (n + 1) * math.factorial(n) * total


def _each(fn):
    return lambda x: np.array([fn(float(v)) for v in np.ravel(x)]).reshape(np.shape(x))


def _erfinv(y):
    """Bisection on math.erf, to the last bit."""
    lo, hi = -7.0, 7.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return (lo + hi) / 2


def _special(op, call, ref, low, high, attrs=None, **kw):
    return OpRecord(op, call, ref, SHAPES, low=low, high=high, prim=lambda: _C.Primitive(op, attrs or {}),
                    grad_shapes=[((2, 3),)], **kw)


RECORDS = [
    _special("Lgamma", ops.lgamma, _each(math.lgamma), 0.3, 5.0,
             bad=[(lambda: ops.Lgamma()("x"), TypeError, "Lgamma: input 'x' must be a Tensor")]),
    _special("Digamma", ops.digamma, _each(digamma_ref), 0.3, 5.0),
    _special("Polygamma", lambda x: ops.polygamma(2, x), _each(lambda v: polygamma_ref(2, v)), 0.5, 5.0, {"n": 2},
             bad=[(lambda: _C.Primitive("Polygamma", {"n": 0})(ms.Tensor([1.0])), ValueError,
                   r"Polygamma: 'n' must be >= 1 \(order 0 is Digamma\), but got 0"),
                  (lambda: ops.polygamma(171, ms.Tensor([1.0])), ValueError,
                   r"Polygamma: 'n' must be <= 170 \(n! overflows float64 beyond\), but got 171")]),
    _special("Erfinv", ops.erfinv, _each(_erfinv), -0.9, 0.9),
]
