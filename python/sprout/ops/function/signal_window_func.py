"""Window functions for spectral analysis: hann, hamming, blackman, bartlett and kaiser windows. MindSpore 2.x
names and arguments.

A window depends only on its length and parameters, so its sample positions are a constant; the sines
(and kaiser's Bessel function) are registry ops on it, computed in float64 and cast to `dtype`.
"""
import math
import numbers
from fractions import Fraction

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.math_special_func import i0

_F64 = mstype.float64
_add, _sub, _mul, _sin, _cast = prim("Add"), prim("Sub"), prim("Mul"), prim("Sin"), prim("Cast")


def _length(api, window_length):
    """window_length as an int >= 0 (an int or a 0-d integer Tensor, which MindSpore's blackman_window and
    bartlett_window take)."""
    if isinstance(window_length, Tensor):
        if window_length.ndim != 0 or window_length.dtype not in (mstype.int8, mstype.int16, mstype.int32,
                                                                  mstype.int64, mstype.uint8):
            raise TypeError(f"{api}: 'window_length' must be an int or a 0-d integer Tensor, but got a "
                            f"{window_length.dtype} tensor of shape {window_length.shape}")
        try:
            window_length = int(window_length.asnumpy())
        except Exception:  # a tensor computed inside a compiled function has no value yet
            raise TypeError(f"{api}: 'window_length' must be known when the call is made (an int or a constant "
                            f"Tensor), but got a tensor computed in the compiled function") from None
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"{api}: 'window_length' must be an int, but got {window_length!r}")
    if window_length < 0:
        raise ValueError(f"{api}: 'window_length' must be >= 0, but got {window_length}")
    return int(window_length)


def _window_dtype(api, dtype):
    if dtype is None:
        return mstype.float32
    if dtype not in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        raise TypeError(f"{api}: 'dtype' must be a floating-point dtype (float16, bfloat16, float32, float64) "
                        f"or None, but got {dtype!r}")
    return dtype


def _number(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {value!r}")
    return float(value)


def _window(api, window_length, periodic, dtype, shape):
    """shape(t) evaluated at t = n / D for n < window_length, D = window_length (periodic: one period of a
    window one longer) or window_length - 1 (symmetric)."""
    n = _length(api, window_length)
    if not isinstance(periodic, bool):
        raise TypeError(f"{api}: 'periodic' must be a bool, but got {periodic!r}")
    dtype = _window_dtype(api, dtype)
    if n <= 1:  # empty, or the single sample 1 (the formulas would divide by D = 0)
        return Tensor(np.ones(n), dtype)
    span = n if periodic else n - 1
    out = shape(Tensor(np.arange(n, dtype=np.float64) / span))
    return out if dtype == _F64 else _cast(out, dtype)


def _cosine_sum(coefficients):
    """t -> sum of (-1)^k a_k cos(2 pi k t): the generalized cosine windows. Written with
    cos(2 pi k t) = 1 - 2 sin(pi k t)^2 and the constant summed exactly in decimal (0.42 - 0.5 + 0.08 is 0,
    which floats miss by 1e-17), so windows that vanish at their ends give exact zeros there."""
    constant = float(sum(Fraction(str(a)) * (-1) ** k for k, a in enumerate(coefficients)))

    def shape(t):
        out = Tensor(constant, _F64)
        for k, a in enumerate(coefficients[1:], start=1):
            sine = _sin(_mul(t, Tensor(math.pi * k, _F64)))
            out = _add(out, _mul(_mul(sine, sine), Tensor(-2.0 * (-1) ** k * a, _F64)))
        return out
    return shape


def hann_window(window_length, periodic=True, *, dtype=None):
    """The Hann window 1/2 - 1/2 cos(2 pi n / D): `periodic` (D = window_length, for spectral analysis) or
    symmetric (D = window_length - 1); float32 unless `dtype` says otherwise."""
    return _window("hann_window", window_length, periodic, dtype, _cosine_sum((0.5, 0.5)))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """The Hamming window alpha - beta cos(2 pi n / D), periodic or symmetric as hann_window."""
    alpha = _number("hamming_window", "alpha", alpha)
    beta = _number("hamming_window", "beta", beta)
    return _window("hamming_window", window_length, periodic, dtype, _cosine_sum((alpha, beta)))


def blackman_window(window_length, periodic=True, *, dtype=None):
    """The Blackman window 0.42 - 0.5 cos(2 pi n / D) + 0.08 cos(4 pi n / D), periodic or symmetric as
    hann_window. `window_length` an int or a 0-d integer Tensor."""
    return _window("blackman_window", window_length, periodic, dtype, _cosine_sum((0.42, 0.5, 0.08)))


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """The triangular window 1 - |2 n / D - 1|, periodic or symmetric as hann_window. `window_length` an int
    or a 0-d integer Tensor."""
    def shape(t):
        return _sub(Tensor(1.0, _F64), prim("Abs")(_sub(_mul(t, Tensor(2.0, _F64)), Tensor(1.0, _F64))))
    return _window("bartlett_window", window_length, periodic, dtype, shape)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """The Kaiser window i0(beta sqrt(1 - (2 n / D - 1)^2)) / i0(beta), periodic or symmetric as hann_window;
    a larger `beta` narrows it."""
    beta = _number("kaiser_window", "beta", beta)

    def shape(t):
        s = _sub(_mul(t, Tensor(2.0, _F64)), Tensor(1.0, _F64))
        inside = prim("Maximum")(_sub(Tensor(1.0, _F64), prim("Square")(s)), Tensor(0.0, _F64))  # rounding below 0
        return prim("Div")(i0(_mul(prim("Sqrt")(inside), Tensor(beta, _F64))), i0(Tensor(beta, _F64)))
    return _window("kaiser_window", window_length, periodic, dtype, shape)


__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]
