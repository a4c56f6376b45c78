"""The Hurwitz zeta function (ops.zeta), ops.nextafter, ops.population_count, ops.truncate_div and
ops.truncate_mod, and the regularized incomplete beta function behind ops.Betainc (which MindSpore 2.10 has
as a Primitive only, like DivNoNan, MulNoNan, Rint and SquaredDifference, whose functions are here too,
private). MindSpore 2.x names, arguments, dtypes and gradients, composed of registry primitives.
"""
import math
from fractions import Fraction

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div, _neg = prim("Add"), prim("Sub"), prim("Mul"), prim("Div"), prim("Neg")
_log, _exp, _pow, _abs, _sign = prim("Log"), prim("Exp"), prim("Pow"), prim("Abs"), prim("Sign")
_cast, _select, _floor, _ceil = prim("Cast"), prim("Select"), prim("Floor"), prim("Ceil")
_less, _less_equal, _equal, _greater = prim("Less"), prim("LessEqual"), prim("Equal"), prim("Greater")
_and, _or, _not, _isnan = prim("LogicalAnd"), prim("LogicalOr"), prim("LogicalNot"), prim("IsNan")
_maximum, _stop, _lgamma = prim("Maximum"), prim("StopGradient"), prim("Lgamma")

_F64 = mstype.float64
_F32_F64 = (mstype.float32, mstype.float64)


def _c(value, dtype=_F64):
    return Tensor(value, dtype)


def _tensor(api, arg, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(value).__name__}")
    return value


def _same_float_dtype(api, names, values, dtypes=_F32_F64):
    """The tensors' common dtype: MindSpore takes float32 or float64 only, all of one dtype."""
    for arg, v in zip(names, values):
        _tensor(api, arg, v)
        if v.dtype not in dtypes:
            allowed = " or ".join(str(d) for d in dtypes)
            raise TypeError(f"{api}: '{arg}' must be a {allowed} tensor, but got {v.dtype}")
    if len({v.dtype for v in values}) > 1:
        raise TypeError(f"{api}: {', '.join(repr(n) for n in names)} must have the same dtype, but got "
                        f"{', '.join(str(v.dtype) for v in values)}")
    return values[0].dtype


def _broadcast(api, names, values):
    try:
        shape = tuple(np.broadcast_shapes(*(v.shape for v in values)))
    except ValueError:
        given = ", ".join(f"'{n}' {v.shape}" for n, v in zip(names, values))
        raise ValueError(f"{api}: the shapes of {given} do not broadcast") from None
    return [v if v.shape == shape else prim("BroadcastTo", shape=shape)(v) for v in values]


def _wide(v):
    return v if v.dtype == _F64 else _cast(v, _F64)


def _narrow(v, dtype):
    return v if dtype == _F64 else _cast(v, dtype)


# ---- Hurwitz zeta ------------------------------------------------------------------------------------------

_ZETA_SHIFT = 10  # terms summed directly; the rest by Euler-Maclaurin from y = q + 10
_BERNOULLI = [Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
              Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798),
              Fraction(-174611, 330), Fraction(854513, 138), Fraction(-236364091, 2730)]  # B2 ... B24
_EM_WEIGHTS = [float(b / math.factorial(2 * k)) for k, b in enumerate(_BERNOULLI, start=1)]


def _zeta_positive(x, q):
    """sum over k >= 0 of (q + k)^-x for x > 1 and q > 0, in float64: ten terms directly, then from
    y = q + 10 Euler-Maclaurin's y^(1-x)/(x-1) + y^-x/2 + sum B2k/(2k)! x(x+1)...(x+2k-2) y^-(x+2k-1), twelve
    terms: below float64's rounding for y >= 10."""
    out = _c(0.0)
    for k in range(_ZETA_SHIFT):
        out = _add(out, _pow(_add(q, _c(float(k))), _neg(x)))
    y = _add(q, _c(float(_ZETA_SHIFT)))
    inv = _div(_c(1.0), y)
    power = _pow(inv, x)  # y^-x
    out = _add(out, _add(_div(_mul(power, y), _sub(x, _c(1.0))), _mul(power, _c(0.5))))
    rising, term = _c(1.0), _mul(power, inv)  # x(x+1)...(x+2k-2) and y^-(x+2k-1), built as k grows
    inv2 = _mul(inv, inv)
    for i, weight in enumerate(_EM_WEIGHTS):
        rising = _mul(rising, _add(x, _c(2.0 * i)))
        out = _add(out, _mul(_mul(rising, term), _c(weight)))
        rising = _mul(rising, _add(x, _c(2.0 * i + 1)))
        term = _mul(term, inv2)
    return out


def _zeta64(x, q):
    """zeta(x, q) for x > 1 and q > 0, or q < 0 not an integer with x an integer. A negative q has m =
    ceil(-q) negative terms, (q + k)^-x = (-1)^x (-q - k)^-x, whose magnitudes -q - k run over r, r + 1, ...,
    -q, r = 1 - (q + m); so zeta(x, q) = zeta(x, q + m) + (-1)^x (zeta(x, r) - zeta(x, 1 - q)), all three at
    positive arguments (no term sum grows with |q|)."""
    negative = _less(q, _c(0.0))
    m = _select(negative, _ceil(_neg(q)), _c(0.0))
    shifted = _add(q, m)
    r = _select(negative, _sub(_c(1.0), shifted), _c(1.0))  # guards: positive arguments everywhere
    far = _select(negative, _sub(_c(1.0), q), _c(1.0))
    odd = _equal(prim("Mod")(x, _c(2.0)), _c(1.0))
    sign = _select(odd, _c(-1.0), _c(1.0))
    negatives = _mul(sign, _sub(_zeta_positive(x, r), _zeta_positive(x, far)))
    return _add(_zeta_positive(x, shifted), _select(negative, negatives, _c(0.0)))


def zeta(input, other):
    """The Hurwitz zeta function zeta(x, q) = sum over k >= 0 of (q + k)^-x, x = `input`, q = `other`
    (float32 or float64, one dtype, broadcast). inf at x = 1 and where q is 0 or a negative integer; NaN for
    x < 1, and for a negative non-integer q unless x is an integer (then the sum is real). The gradient is
    MindSpore's: -x zeta(x + 1, q) with respect to q, none with respect to x."""
    dtype = _same_float_dtype("zeta", ("input", "other"), (input, other))
    x, q = _broadcast("zeta", ("input", "other"), (_wide(input), _wide(other)))
    x = _stop(x)
    q_int = _equal(_floor(q), q)
    x_int = _equal(_floor(x), x)
    pole = _or(_equal(x, _c(1.0)), _and(q_int, _less_equal(q, _c(0.0))))
    nan = _or(_less(x, _c(1.0)), _and(_less(q, _c(0.0)), _not(x_int)))
    at_inf = _equal(x, _c(math.inf))
    fine = _not(_or(_or(pole, nan), _or(at_inf, _equal(q, _c(math.inf)))))
    out = _zeta64(_select(fine, x, _c(2.0)), _select(fine, q, _c(1.0)))  # guards: finite on every side
    # x = inf: only the k = 0 term can be non-zero: 1 at q = 1, inf below, 0 above.
    limit = _select(_equal(q, _c(1.0)), _c(1.0), _select(_less(q, _c(1.0)), _c(math.inf), _c(0.0)))
    out = _select(at_inf, limit, _select(pole, _c(math.inf), _select(nan, _c(math.nan), out)))
    out = _select(_equal(q, _c(math.inf)), _c(0.0), out)
    out = _select(_or(_isnan(x), _isnan(q)), _c(math.nan), out)
    return _narrow(out, dtype)


# ---- nextafter ---------------------------------------------------------------------------------------------

_MANTISSA = {mstype.float32: 23, mstype.float64: 52}
_TINIEST = {mstype.float32: 2.0 ** -149, mstype.float64: 2.0 ** -1074}
_LARGEST = {mstype.float32: float(np.finfo(np.float32).max), mstype.float64: float(np.finfo(np.float64).max)}


def nextafter(input, other):
    """The floating-point number next to `input` in the direction of `other` (float32 or float64, one dtype,
    broadcast): `other` where they are equal, NaN where either is. MindSpore's gradient: 1 for `input`, 0
    for `other`.

    Without a bit cast: a step h between 0.6 and 1.2 units in the last place of |input| (0.6 |input| 2^-p,
    p the mantissa's bits, at least 0.6 of the tiniest subnormal), added with the direction's sign, rounds to
    exactly the neighbour: nearest on either side, even at a power of two, below which the spacing halves
    (1.2 of the smaller unit rounds to 1). Float32 is stepped in float64 and rounded by the cast back."""
    dtype = _same_float_dtype("nextafter", ("input", "other"), (input, other))
    x, y = _broadcast("nextafter", ("input", "other"), (_wide(input), _wide(other)))
    bits = _MANTISSA[dtype]
    h = _maximum(_mul(_abs(x), _c(0.6 * 2.0 ** -bits)), _c(0.6 * _TINIEST[dtype]))
    infinite = _equal(_abs(x), _c(math.inf))
    h = _select(infinite, _c(1.0), h)  # guard: inf - inf
    stepped = _add(x, _mul(_sign(_sub(y, x)), h))
    stepped = _select(infinite, _mul(_sign(x), _c(_LARGEST[dtype])), stepped)  # from +-inf towards a finite y
    stepped = _select(_equal(x, y), y, stepped)
    stepped = _select(_or(_isnan(x), _isnan(y)), _c(math.nan), stepped)
    out = _narrow(_stop(stepped), dtype)
    x = input if input.shape == out.shape else prim("BroadcastTo", shape=out.shape)(input)
    # input + (out - input) held constant: d/dinput = 1, as MindSpore's bprop (not where input is +-inf,
    # whose difference would be inf - inf)
    return _select(prim("IsFinite")(x), _add(x, _stop(_sub(out, x))), out)


# ---- population count --------------------------------------------------------------------------------------

_M1, _M2, _M4, _H01 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101
_BITS = {mstype.int8: 8, mstype.uint8: 8, mstype.int16: 16, mstype.int32: 32, mstype.int64: 64}


def population_count(input_x):
    """The number of set bits of each element of an integer tensor (two's complement), as uint8.

    The bits are widened to int64 (masked to the input's width, so -1 of int8 has 8) and counted in parallel
    bit fields (SWAR): pairs, nibbles, bytes, then the bytes summed by one multiplication into the top byte.
    Arithmetic right shifts fill with sign bits, which each mask clears."""
    x = _tensor("population_count", "input_x", input_x)
    if x.dtype not in _BITS:
        raise TypeError(f"population_count: 'input_x' must be an int8, int16, int32, int64 or uint8 tensor, "
                        f"but got {x.dtype}")
    width = _BITS[x.dtype]
    i64 = mstype.int64
    v = _cast(x, i64) if x.dtype != i64 else x
    band, shr = prim("BitwiseAnd"), prim("RightShift")
    if width < 64:
        v = band(v, _c((1 << width) - 1, i64))
    v = _sub(v, band(shr(v, _c(1, i64)), _c(_M1, i64)))
    v = _add(band(v, _c(_M2, i64)), band(shr(v, _c(2, i64)), _c(_M2, i64)))
    v = band(_add(v, shr(v, _c(4, i64))), _c(_M4, i64))
    v = band(shr(_mul(v, _c(_H01, i64)), _c(56, i64)), _c(0xFF, i64))  # the product wraps: only its top byte
    return _cast(v, mstype.uint8)


# ---- truncating division -----------------------------------------------------------------------------------

def _check_division(api, x, y):
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"{api}: 'x' or 'y' must be a Tensor, but got {type(x).__name__} and {type(y).__name__}")
    for arg, v in (("x", x), ("y", y)):
        if isinstance(v, bool) or (isinstance(v, Tensor) and v.dtype == mstype.bool_):
            raise TypeError(f"{api}: '{arg}' must be a number or a numeric Tensor, but got a bool")
        if not isinstance(v, (Tensor, int, float)):
            raise TypeError(f"{api}: '{arg}' must be a Tensor or a number, but got {type(v).__name__}")


def _as(v, dtype):
    if not isinstance(v, Tensor):
        return Tensor(v, dtype)
    return v if v.dtype == dtype else _cast(v, dtype)


def _trunc_float(v):
    """v rounded towards zero (inf and NaN as they are)."""
    return _select(_less(v, _c(0, v.dtype)), _ceil(v), _floor(v))


def truncate_div(x, y):
    """x / y rounded towards zero, elementwise (broadcast; dtypes promoted as ops.add's, a Python number
    taking the tensor's kind). For floats inf or NaN where y = 0; for integers the dtype's largest value
    there (its smallest for a negative x, 0 for 0 / 0), as MindSpore. Its gradient is zero, as MindSpore's."""
    _check_division("truncate_div", x, y)
    remainder = prim("Mod")(x, y)  # its dtype is the promoted one
    dtype = remainder.dtype
    x, y = (prim("BroadcastTo", shape=remainder.shape)(_as(v, dtype)) for v in (x, y))
    if dtype in mstype.float_type:
        return _stop(_trunc_float(_div(x, y)))
    zero = _c(0, dtype)
    by_zero = _equal(y, zero)
    safe = _select(by_zero, _c(1, dtype), y)
    exact = prim("FloorDiv")(_sub(x, remainder), safe)  # x - (x mod y) is a multiple of y: floor is exact
    info = np.iinfo(mstype.dtype_to_nptype(dtype))
    overflow = _select(_less(x, zero), _c(int(info.min), dtype),
                       _select(_equal(x, zero), zero, _c(int(info.max), dtype)))
    return _stop(_select(by_zero, overflow, exact))


def truncate_mod(x, y):
    """The remainder of x / y rounded towards zero (C's fmod: the sign of x), elementwise (broadcast,
    promoted): NaN for floats where y = 0, 0 for integers. Gradient 1 for x, -trunc(x / y) for y."""
    _check_division("truncate_mod", x, y)
    return prim("Mod")(x, y)


# ---- regularized incomplete beta (ops.Betainc) -------------------------------------------------------------

_BETA_DEPTH = 300  # continued-fraction levels: enough for a and b up to about 1e4


def _betainc64(a, b, x):
    """I_x(a, b) for a, b > 0 and 0 < x < 1, float64: Lentz's continued fraction of Numerical Recipes
    (section 6.4), evaluated from its tail at a fixed depth, on the side of (a + 1) / (a + b + 2) where it
    converges fast: I_x(a, b) = 1 - I_(1-x)(b, a) beyond it."""
    swap = _greater(x, _div(_add(a, _c(1.0)), _add(_add(a, b), _c(2.0))))
    a, b, x = _select(swap, b, a), _select(swap, a, b), _select(swap, _sub(_c(1.0), x), x)
    apb = _add(a, b)
    f = _c(1.0)
    for m in range(_BETA_DEPTH, 0, -1):
        # d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)), d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
        a2m = _add(a, _c(2.0 * m))
        odd = _div(_mul(_neg(_mul(_add(a, _c(m)), _add(apb, _c(m)))), x), _mul(a2m, _add(a2m, _c(1.0))))
        f = _add(_c(1.0), _div(odd, f))
        even = _div(_mul(_mul(_sub(b, _c(m)), x), _c(float(m))), _mul(_sub(a2m, _c(1.0)), a2m))
        f = _add(_c(1.0), _div(even, f))
    d1 = _div(_neg(_mul(apb, x)), _add(a, _c(1.0)))  # the m = 0 odd level
    f = _add(_c(1.0), _div(d1, f))
    log_front = _sub(_add(_mul(a, _log(x)), _mul(b, _log(_sub(_c(1.0), x)))),
                     _add(_log(a), _sub(_add(_lgamma(a), _lgamma(b)), _lgamma(apb))))
    value = _div(_exp(log_front), f)
    return _select(swap, _sub(_c(1.0), value), value)


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b) (float32 or float64, one dtype, broadcast): NaN
    where a <= 0, b <= 0, x outside [0, 1] or any is NaN; 0 at x = 0 and 1 at x = 1. MindSpore's gradient:
    with respect to x only (x^(a-1) (1-x)^(b-1) / B(a, b)); a and b get none."""
    dtype = _same_float_dtype("Betainc", ("a", "b", "x"), (a, b, x))
    a, b, x = _broadcast("Betainc", ("a", "b", "x"), (_wide(a), _wide(b), _wide(x)))
    a, b = _stop(a), _stop(b)
    bad = _or(_or(_less_equal(a, _c(0.0)), _less_equal(b, _c(0.0))),
              _or(_less(x, _c(0.0)), _greater(x, _c(1.0))))
    bad = _or(bad, _or(_or(_isnan(a), _isnan(b)), _isnan(x)))
    inside = _and(_not(bad), _and(_greater(x, _c(0.0)), _less(x, _c(1.0))))
    value = _betainc64(_select(inside, a, _c(1.0)), _select(inside, b, _c(1.0)), _select(inside, x, _c(0.5)))
    out = _select(inside, value, _select(_equal(x, _c(1.0)), _c(1.0), _c(0.0)))
    return _narrow(_select(bad, _c(math.nan), out), dtype)


__all__ = ["zeta", "nextafter", "population_count", "truncate_div", "truncate_mod"]
TENSOR_METHODS = ["nextafter"]
