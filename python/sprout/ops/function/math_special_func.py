"""Special functions composed from registry primitives: lgamma, digamma, polygamma, mvlgamma, erfinv and the
modified Bessel function i0 (bessel_i0). MindSpore 2.x names and arguments.

Each is a fixed series or recurrence (Lanczos, Euler-Maclaurin, Newton-Halley steps), so autodiff of the
composition gives the derivative (lgamma' = digamma, digamma' = polygamma(1, x), erfinv' = sqrt(pi)/2 *
exp(erfinv^2), i0' = i1) without rules of their own. Every input is computed in float64 and the result cast
back to the input's dtype (float32 for integers): the series lose a few digits to cancellation, which
float64 absorbs, and the float64 kernels of sin, log, exp, erf are correctly rounded to within an ulp.

Branches are selects over both sides, so the side that is not taken is fed a harmless value ("guards"
below): a select passes a zero gradient to the other side, and zero times an infinite derivative there
would be NaN.
"""
import math
from fractions import Fraction

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div, _neg = prim("Add"), prim("Sub"), prim("Mul"), prim("Div"), prim("Neg")
_log, _exp, _sin, _cos, _sqrt, _pow = prim("Log"), prim("Exp"), prim("Sin"), prim("Cos"), prim("Sqrt"), prim("Pow")
_abs, _round, _cast, _select = prim("Abs"), prim("Round"), prim("Cast"), prim("Select")
_less, _equal, _and, _not = prim("Less"), prim("Equal"), prim("LogicalAnd"), prim("LogicalNot")
_isinf, _greater = prim("IsInf"), prim("Greater")

_F64 = mstype.float64
_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _c(value):
    """A float64 scalar constant."""
    return Tensor(float(value), _F64)


def _wide(api, x):
    """x as float64 and the dtype the result goes back to (float32 for integer and bool inputs)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'input' must be a Tensor, but got {type(x).__name__}")
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


def _sin_pi_reduced(x):
    """x - round(x), in [-1/2, 1/2]: sin(pi x) and cot(pi x) taken of it are exact at the integers and keep
    their accuracy for large |x|, where pi * x would round."""
    return _sub(x, _round(x))


# ---- log-gamma ------------------------------------------------------------------------------------

# Lanczos' approximation with g = 7 and 9 terms: relative error below 1e-15 for x >= 1/2.
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)


def _lgamma_right(z):
    """log(Gamma(z)) for z >= 1/2 (float64), by Lanczos' formula."""
    zm1 = _sub(z, _c(1))
    series = _c(_LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], start=1):
        series = _add(series, _div(_c(c), _add(zm1, _c(i))))
    t = _add(zm1, _c(_LANCZOS_G + 0.5))
    return _add(_add(_c(0.5 * math.log(2 * math.pi)), _sub(_mul(_add(zm1, _c(0.5)), _log(t)), t)), _log(series))


def _lgamma64(x):
    left = _less(x, _c(0.5))
    z = _select(left, _sub(_c(1), x), x)
    # Reflection for x < 1/2: log|Gamma(x)| = log(pi / |sin(pi x)|) - log Gamma(1 - x); +inf at the poles.
    r = _select(left, _sin_pi_reduced(x), _c(0.25))  # guard: the right side never reads sin
    reflected = _sub(_sub(_c(math.log(math.pi)), _log(_abs(_sin(_mul(r, _c(math.pi)))))), _lgamma_right(z))
    out = _select(left, reflected, _lgamma_right(z))
    return _select(_isinf(x), _c(math.inf), out)  # lgamma(+-inf) = +inf (the formulas give inf - inf)


def lgamma(input):
    """log(|Gamma(input)|), elementwise: +inf at 0, the negative integers and +-inf."""
    x, dtype = _wide("lgamma", input)
    return _narrow(_lgamma64(x), dtype)


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
        out = _add(out, _lgamma64(_sub(x, _c(i / 2))))
    out = _select(_greater(x, _c((p - 1) / 2)), out, _c(math.nan))
    return _narrow(out, dtype)


# ---- digamma and polygamma ------------------------------------------------------------------------

_SHIFT = 10  # the recurrence moves z >= 1/2 to z + 10 >= 10.5, where the asymptotic series converge fast
_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
              Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798)]  # B2, B4, ... B18


def _digamma_right(z):
    """psi(z) for z >= 1/2: psi(z) = psi(z + N) - sum 1/(z + i), psi(y) ~ log y - 1/(2y) - sum B2k/(2k y^2k)."""
    y = _add(z, _c(_SHIFT))
    inv2 = _div(_c(1), _mul(y, y))
    tail = _horner([0.0] + [float(b / (2 * k)) for k, b in enumerate(_BERNOULLI, start=1)], inv2)
    out = _sub(_sub(_log(y), _div(_c(0.5), y)), tail)
    for i in range(_SHIFT):
        out = _sub(out, _div(_c(1), _add(z, _c(i))))
    return out


def _hurwitz_zeta_right(s, z):
    """zeta(s, z) = sum over k >= 0 of (z + k)^-s for an int s >= 2 and z >= 1/2: N terms, then
    Euler-Maclaurin at y = z + N: y^(1-s)/(s-1) + y^-s/2 + sum B2k/(2k)! (s)_(2k-1) y^-(s+2k-1)."""
    y = _add(z, _c(_SHIFT))
    inv = _div(_c(1), y)
    inv2 = _mul(inv, inv)
    coefficients, rising = [0.0], Fraction(s)  # rising: s (s+1) ... (s + 2k - 2)
    for k, b in enumerate(_BERNOULLI, start=1):
        coefficients.append(float(b / math.factorial(2 * k) * rising))
        rising *= (s + 2 * k - 1) * (s + 2 * k)
    y_s = _pow(inv, _c(s))  # y^-s
    y_s1 = _mul(y_s, y)  # y^(1-s)
    tail = _mul(y_s1, _horner(coefficients, inv2))  # the k-th term: y^(1-s-2k)
    out = _add(_add(_div(y_s1, _c(s - 1)), _mul(y_s, _c(0.5))), tail)
    for i in range(_SHIFT):
        out = _add(out, _pow(_add(z, _c(i)), _c(-s)))
    return out


def _cot_derivative_polynomials(n):
    """P_n with d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x)): P_0(c) = c, P_(k+1)(c) = -(1 + c^2) P_k'(c).
    Coefficients lowest power first (compile-time constants)."""
    poly = np.polynomial.Polynomial([0.0, 1.0])
    for _ in range(n):
        poly = -np.polynomial.Polynomial([1.0, 0.0, 1.0]) * poly.deriv()
    return list(poly.coef)


def _polygamma64(n, x):
    left = _less(x, _c(0.5))
    z = _select(left, _sub(_c(1), x), x)
    if n == 0:
        right = _digamma_right(z)
    else:
        right = _mul(_hurwitz_zeta_right(n + 1, z), _c((-1) ** (n + 1) * math.factorial(n)))
    r = _sin_pi_reduced(x)
    pole = _and(left, _equal(r, _c(0)))
    # Reflection, from psi(1 - x) - psi(x) = pi cot(pi x) differentiated n times:
    # psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi^(n+1) P_n(cot(pi x)).
    r = _select(_and(left, _not(pole)), r, _c(0.25))  # guard: cot is finite wherever it is read
    angle = _mul(r, _c(math.pi))
    cot = _div(_cos(angle), _sin(angle))
    cot_term = _mul(_horner(_cot_derivative_polynomials(n), cot), _c(math.pi ** (n + 1)))
    reflected = _sub(_mul(right, _c((-1) ** n)), cot_term)
    out = _select(left, reflected, right)
    # The poles (0, -1, -2 ...), as MindSpore gives them: psi(0) = -inf and NaN at the negative integers;
    # psi^(n) for n >= 1 is (-1)^(n+1) inf.
    if n == 0:
        at_pole = _select(_equal(x, _c(0)), _c(-math.inf), _c(math.nan))
    else:
        at_pole = _c((-1) ** (n + 1) * math.inf)
    return _select(pole, at_pole, out)


def digamma(input):
    """The logarithmic derivative of the gamma function, psi(input) = Gamma'(input) / Gamma(input):
    -inf at 0, NaN at the negative integers."""
    x, dtype = _wide("digamma", input)
    return _narrow(_polygamma64(0, x), dtype)


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
    x, dtype = _wide("polygamma", input)
    return _narrow(_polygamma64(n, x), dtype)


# ---- erfinv ---------------------------------------------------------------------------------------

# M. Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011), single precision: about 4e-7
# relative error, in two pieces of w = -log((1 - y)(1 + y)). Halley steps then give float64 accuracy.
_GILES_CENTRAL = (1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087, -4.39150654e-06,
                  -3.5233877e-06, 3.43273939e-07, 2.81022636e-08)
_GILES_TAIL = (2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773, -0.00367342844,
               0.00134934322, 0.000100950558, -0.000200214257)


def erfinv(input):
    """The inverse error function on (-1, 1): erf(erfinv(y)) = y; +-inf at +-1, NaN outside [-1, 1]."""
    y, dtype = _wide("erfinv", input)
    inside = _less(_abs(y), _c(1))
    y = _select(inside, y, _c(0))  # guard: +-1 and beyond are set at the end
    w = _neg(_log(_mul(_sub(_c(1), y), _add(_c(1), y))))
    central = _horner(_GILES_CENTRAL, _sub(w, _c(2.5)))
    tail = _horner(_GILES_TAIL, _sub(_sqrt(prim("Maximum")(w, _c(5))), _c(3)))  # guard: sqrt'(0) at y = 0
    # Beyond w = 16 (|y| > 1 - 6e-8, past float32's range, where Giles' tail was fitted) the asymptotic
    # erfc(x) ~ exp(-x^2) / (x sqrt(pi)) gives x^2 ~ t - log(pi t) / 2, t = -log(1 - |y|): within 1e-3.
    t = _add(prim("Maximum")(w, _c(16)), _c(math.log(2)))  # guard: t large wherever it is read
    far = _sqrt(_sub(t, _mul(_log(_mul(t, _c(math.pi))), _c(0.5))))
    x = _select(_less(w, _c(5)), _mul(central, y),
                _select(_less(w, _c(16)), _mul(tail, y), _mul(far, prim("Sign")(y))))
    erf, erfc = prim("Erf"), prim("Erfc")
    for _ in range(3):
        # Residual erf(x) - y; near +-1 as erfc, whose small values keep their digits: (1 - y) - erfc(x)
        # for y > 1/2, erfc(-x) - (1 + y) for y < -1/2 (1 -+ y is exact there).
        residual = _select(_greater(y, _c(0.5)), _sub(_sub(_c(1), y), erfc(x)),
                           _select(_less(y, _c(-0.5)), _sub(erfc(_neg(x)), _add(_c(1), y)), _sub(erf(x), y)))
        u = _mul(_mul(residual, _exp(_mul(x, x))), _c(math.sqrt(math.pi) / 2))  # residual / erf'(x)
        x = _sub(x, _div(u, _add(_c(1), _mul(x, u))))  # Halley's step (erf'' / erf' = -2x)
    original = input if input.dtype == _F64 else _cast(input, _F64)
    # Constants, not original * inf: the gradient of a product with inf would be 0 * inf = NaN everywhere.
    infinity = _select(_less(original, _c(0)), _c(-math.inf), _c(math.inf))
    edge = _select(_equal(_abs(original), _c(1)), infinity, _c(math.nan))
    return _narrow(_select(inside, x, edge), dtype)


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
