"""Bessel functions of orders 0 and 1: ops.bessel_j0, bessel_j1, bessel_y0, bessel_y1, bessel_i0e, bessel_i1,
bessel_i1e, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e (bessel_i0 is in math_special_func.py). MindSpore 2.x
names and arguments.

Each is a Chebyshev expansion of a smooth piece (scripts/gen_bessel_coefficients.py says which, and fits them),
evaluated by Clenshaw's recurrence and combined with the elementary functions that carry the growth, the
logarithmic singularity at 0 or the oscillation: a select picks the piece of each element's range. Computed
in float64 whatever the input's dtype (float16, bfloat16, float32 or float64, cast back at the end), so float32
results are correctly rounded but for a rare last bit, and float64 ones within a few ulps (absolute error near
the zeros of J and Y). Autodiff of the composition gives the derivatives (j0' = -j1, i0' = i1, k0' = -k1 ...).

Values outside the real domain and at the ends are MindSpore's (CPU, 2.10), which are not always the limits:
K of a negative argument is +inf, Y0 and Y1 of a negative one -inf; Y1(0) is NaN; J0, J1, Y0, Y1, I0 and I1 of
+-inf are NaN (but Y0(-inf) = Y1(-inf) = -inf), the scaled I0e, I1e and K of +inf are 0.

Branches are selects over both sides, so the side that is not taken is fed a harmless value ("guards"): a
select passes a zero gradient to the other side, and zero times an infinite derivative there would be NaN.
"""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function import _bessel_coefficients as _cheb
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div, _neg = prim("Add"), prim("Sub"), prim("Mul"), prim("Div"), prim("Neg")
_log, _exp, _sin, _cos, _sqrt = prim("Log"), prim("Exp"), prim("Sin"), prim("Cos"), prim("Sqrt")
_abs, _cast, _select = prim("Abs"), prim("Cast"), prim("Select")
_less, _less_equal, _equal, _greater = prim("Less"), prim("LessEqual"), prim("Equal"), prim("Greater")
_isnan, _not, _and = prim("IsNan"), prim("LogicalNot"), prim("LogicalAnd")

_F64 = mstype.float64
_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)
_TWO_OVER_PI = 2 / math.pi


def _c(value):
    """A float64 scalar constant."""
    return Tensor(float(value), _F64)


def _wide(api, x):
    """x as float64 and its own dtype, the result's; MindSpore takes floating-point tensors only."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'x' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in _FLOATS:
        raise TypeError(f"{api}: 'x' must be a float16, bfloat16, float32 or float64 tensor, but got {x.dtype}")
    return (x if x.dtype == _F64 else _cast(x, _F64)), x.dtype


def _narrow(x, dtype):
    return x if dtype == _F64 else _cast(x, dtype)


def _clenshaw(coefficients, t):
    """sum c_k T_k(t) over the Chebyshev polynomials T_k, for t in [-1, 1]."""
    two_t = _add(t, t)
    b1, b2 = _c(0), _c(0)
    for c in reversed(coefficients[1:]):
        b1, b2 = _add(_sub(_mul(two_t, b1), b2), _c(c)), b1
    return _add(_sub(_mul(t, b1), b2), _c(coefficients[0]))


def _guarded(condition, a, safe):
    """a where condition holds, else the constant safe (a value the piece computes without overflow)."""
    return _select(condition, a, _c(safe))


def _edges(x, out, nan=None, pos_inf=None, neg_inf=None, zero=None, negative=None):
    """out with the given constants at NaN, +inf, -inf, 0 (either sign) and negative finite x (None: as is)."""
    if negative is not None:
        out = _select(_less(x, _c(0)), _c(negative), out)
    if zero is not None:
        out = _select(_equal(x, _c(0)), _c(zero), out)
    if pos_inf is not None:
        out = _select(_equal(x, _c(math.inf)), _c(pos_inf), out)
    if neg_inf is not None:
        out = _select(_equal(x, _c(-math.inf)), _c(neg_inf), out)
    return _select(_isnan(x), x, out)


# ---- I0, I1 and their scaled forms: a <= 8 and a > 8 ----------------------------------------------------

def _scaled_i(order, a):
    """e^-a I_order(a) for a = |x| >= 0 (I1's sign is the caller's)."""
    small = _less_equal(a, _c(8))
    s = _guarded(small, a, 4)
    near = _clenshaw(_cheb.I0_SMALL if order == 0 else _cheb.I1_SMALL, _sub(_mul(s, _c(0.25)), _c(1)))
    if order == 1:
        near = _mul(near, s)
    l = _guarded(_not(small), a, 16)
    far = _div(_clenshaw(_cheb.I0_LARGE if order == 0 else _cheb.I1_LARGE, _sub(_div(_c(16), l), _c(1))),
               _sqrt(l))
    return _select(small, near, far)


def _i_unscaled(order, a):
    """I_order(a) for a >= 0: e^a times the scaled form; for large a as e^(a/2) (e^(a/2) / sqrt(a)), which
    overflows only where I itself does, each exponential of an exact argument (e^(a - log(a)/2) would carry
    the rounding of its argument, 1e-13 near a = 700)."""
    small = _less_equal(a, _c(8))
    s = _guarded(small, a, 4)
    near = _mul(_clenshaw(_cheb.I0_SMALL if order == 0 else _cheb.I1_SMALL, _sub(_mul(s, _c(0.25)), _c(1))),
                _exp(s))
    if order == 1:
        near = _mul(near, s)
    l = _guarded(_not(small), a, 16)
    half = _exp(_mul(l, _c(0.5)))
    far = _mul(_clenshaw(_cheb.I0_LARGE if order == 0 else _cheb.I1_LARGE, _sub(_div(_c(16), l), _c(1))),
               _mul(half, _div(half, _sqrt(l))))
    return _select(small, near, far)


def _odd(x, even_part):
    """x's sign applied to a value computed at |x| (keeps -0 as MindSpore does)."""
    return _select(_less(x, _c(0)), _neg(even_part), even_part)


def bessel_i0e(x):
    """The exponentially scaled modified Bessel function of the first kind of order 0, e^-|x| I0(x)."""
    v, dtype = _wide("bessel_i0e", x)
    out = _scaled_i(0, _abs(v))
    return _narrow(_edges(v, out, pos_inf=0, neg_inf=0), dtype)


def bessel_i1(x):
    """The modified Bessel function of the first kind of order 1, I1(x) (odd)."""
    v, dtype = _wide("bessel_i1", x)
    out = _odd(v, _i_unscaled(1, _abs(v)))
    return _narrow(_edges(v, out, pos_inf=math.nan, neg_inf=math.nan), dtype)


def bessel_i1e(x):
    """The exponentially scaled modified Bessel function of the first kind of order 1, e^-|x| I1(x)."""
    v, dtype = _wide("bessel_i1e", x)
    out = _odd(v, _scaled_i(1, _abs(v)))
    return _narrow(_edges(v, out, pos_inf=0, neg_inf=-0.0), dtype)


# ---- K0, K1 and their scaled forms: 0 < x <= 2 and x > 2 ------------------------------------------------

def _k(order, x, scaled):
    """K_order(x), or e^x K_order(x), for x > 0 (other x are set by the caller)."""
    small = _less_equal(x, _c(2))
    s = _guarded(_and(small, _greater(x, _c(0))), x, 1)
    log_half = _log(_mul(s, _c(0.5)))
    t = _sub(_mul(_mul(s, s), _c(0.5)), _c(1))
    if order == 0:
        near = _sub(_clenshaw(_cheb.K0_SMALL, t), _mul(log_half, _i_unscaled(0, s)))
    else:
        near = _add(_add(_div(_c(1), s), _mul(log_half, _i_unscaled(1, s))), _mul(s, _clenshaw(_cheb.K1_SMALL, t)))
    if scaled:
        near = _mul(near, _exp(s))
    l = _guarded(_not(small), x, 4)
    far = _div(_clenshaw(_cheb.K0_LARGE if order == 0 else _cheb.K1_LARGE, _sub(_div(_c(4), l), _c(1))), _sqrt(l))
    if not scaled:
        far = _mul(far, _exp(_neg(l)))
    return _select(small, near, far)


def _k_api(api, order, scaled, x):
    v, dtype = _wide(api, x)
    out = _k(order, v, scaled)
    return _narrow(_edges(v, out, pos_inf=0, neg_inf=math.inf, zero=math.inf, negative=math.inf), dtype)


def bessel_k0(x):
    """The modified Bessel function of the second kind of order 0, K0(x): +inf at 0 and for x < 0."""
    return _k_api("bessel_k0", 0, False, x)


def bessel_k0e(x):
    """The exponentially scaled modified Bessel function of the second kind of order 0, e^x K0(x)."""
    return _k_api("bessel_k0e", 0, True, x)


def bessel_k1(x):
    """The modified Bessel function of the second kind of order 1, K1(x): +inf at 0 and for x < 0."""
    return _k_api("bessel_k1", 1, False, x)


def bessel_k1e(x):
    """The exponentially scaled modified Bessel function of the second kind of order 1, e^x K1(x)."""
    return _k_api("bessel_k1e", 1, True, x)


# ---- J0, J1, Y0, Y1: a <= 8 by expansions in a^2, a > 8 by Hankel's modulus form ------------------------

def _hankel(order, a, bessel_y):
    """J_order(a) or Y_order(a) for a > 8: sqrt(2/(pi a)) (P cos chi - Q sin chi) or (P sin chi + Q cos chi),
    chi = a - (2 order + 1) pi/4. cos chi and sin chi come from cos a and sin a (exact arguments) rather
    than from a - pi/4, whose rounding would move the phase of large a."""
    u = _div(_c(8), a)
    t = _sub(_mul(_mul(u, u), _c(2)), _c(1))
    p = _clenshaw(_cheb.P0_LARGE if order == 0 else _cheb.P1_LARGE, t)
    q = _mul(_clenshaw(_cheb.Q0_LARGE if order == 0 else _cheb.Q1_LARGE, t), u)
    cos_a, sin_a = _cos(a), _sin(a)
    # sqrt(2) cos chi and sqrt(2) sin chi: chi = a - pi/4 gives (cos + sin, sin - cos); a - 3pi/4 gives
    # (sin - cos, -(sin + cos)).
    if order == 0:
        cos_chi, sin_chi = _add(cos_a, sin_a), _sub(sin_a, cos_a)
    else:
        cos_chi, sin_chi = _sub(sin_a, cos_a), _neg(_add(sin_a, cos_a))
    if bessel_y:
        wave = _add(_mul(p, sin_chi), _mul(q, cos_chi))
    else:
        wave = _sub(_mul(p, cos_chi), _mul(q, sin_chi))
    return _mul(wave, _div(_c(1 / math.sqrt(math.pi)), _sqrt(a)))  # sqrt(2/(pi a)) / sqrt(2)


def _small_t(a):
    return _sub(_mul(_mul(a, a), _c(1 / 32)), _c(1))


def _j(order, a):
    """J_order(a) for a >= 0 (J1's sign is the caller's)."""
    small = _less_equal(a, _c(8))
    s = _guarded(small, a, 4)
    if order == 0:
        near = _clenshaw(_cheb.J0_SMALL, _small_t(s))
    else:
        near = _mul(_clenshaw(_cheb.J1_SMALL, _small_t(s)), s)
    return _select(small, near, _hankel(order, _guarded(_not(small), a, 16), False))


def _y(order, x):
    """Y_order(x) for x > 0 (other x are set by the caller)."""
    small = _less_equal(x, _c(8))
    s = _guarded(_and(small, _greater(x, _c(0))), x, 4)
    log_s = _log(s)
    t = _small_t(s)
    if order == 0:
        near = _add(_clenshaw(_cheb.Y0_SMALL, t), _mul(_mul(log_s, _j(0, s)), _c(_TWO_OVER_PI)))
    else:
        singular = _mul(_sub(_mul(log_s, _j(1, s)), _div(_c(1), s)), _c(_TWO_OVER_PI))
        near = _add(singular, _mul(_clenshaw(_cheb.Y1_SMALL, t), s))
    return _select(small, near, _hankel(order, _guarded(_not(small), x, 16), True))


def bessel_j0(x):
    """The Bessel function of the first kind of order 0, J0(x) (even)."""
    v, dtype = _wide("bessel_j0", x)
    out = _j(0, _abs(v))
    return _narrow(_edges(v, out, pos_inf=math.nan, neg_inf=math.nan), dtype)


def bessel_j1(x):
    """The Bessel function of the first kind of order 1, J1(x) (odd)."""
    v, dtype = _wide("bessel_j1", x)
    out = _odd(v, _j(1, _abs(v)))
    out = _select(_equal(v, _c(0)), v, out)  # J1(-0) = -0, as MindSpore's
    return _narrow(_edges(v, out, pos_inf=math.nan, neg_inf=math.nan), dtype)


def bessel_y0(x):
    """The Bessel function of the second kind of order 0, Y0(x): -inf at 0 and for x < 0."""
    v, dtype = _wide("bessel_y0", x)
    out = _y(0, v)
    return _narrow(_edges(v, out, pos_inf=math.nan, neg_inf=-math.inf, zero=-math.inf, negative=-math.inf),
                   dtype)


def bessel_y1(x):
    """The Bessel function of the second kind of order 1, Y1(x): -inf for x < 0, NaN at 0 (MindSpore's)."""
    v, dtype = _wide("bessel_y1", x)
    out = _y(1, v)
    return _narrow(_edges(v, out, pos_inf=math.nan, neg_inf=-math.inf, zero=math.nan, negative=-math.inf),
                   dtype)


__all__ = ["bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
           "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1"]
