"""More activations under their MindSpore 2.x names: softmin, softshrink, hardshrink, tanhshrink, threshold.

Compositions of existing sprout functions, so gradients and graph mode (ms.jit) come for free.
"""
import numbers

from sprout.ops.function import array_func as _array
from sprout.ops.function import math_func as _math
from sprout.ops.function.math_reduce_func import logsumexp as _logsumexp
from sprout.ops.function.nn_func import _check_axis, _check_float_arg, _check_float_tensor, softmax


def softmin(x, axis=-1, *, dtype=None):
    """exp(-x) / sum(exp(-x)) along `axis` (an int or a tuple of ints); `dtype` casts `x` first."""
    if dtype is not None:
        x = _array.cast(x, dtype)
    _check_float_tensor("softmin", "x", x)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not axes:
        raise ValueError("softmin: a tuple 'axis' must not be empty")
    rank = max(x.ndim, 1)
    for a in axes:
        if not -rank <= _check_axis("softmin", a) < rank:
            raise ValueError(f"softmin: 'axis' must be in [{-rank}, {rank}), but got {axis}")
    neg = _math.neg(x)
    if len(axes) == 1:
        return softmax(neg, axes[0])
    return _math.exp(neg - _logsumexp(neg, axes, True))


def softshrink(x, lambd=0.5):
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0: x minus x clamped to [-lambd, lambd]."""
    _check_float_tensor("softshrink", "x", x)
    lambd = _check_float_arg("softshrink", "lambd", lambd)
    if lambd < 0:
        raise ValueError(f"softshrink: 'lambd' must be >= 0, but got {lambd}")
    return x - _math.clamp(x, -lambd, lambd)


def hardshrink(x, lambd=0.5):
    """x where |x| > lambd, else 0."""
    _check_float_tensor("hardshrink", "x", x)
    lambd = _check_float_arg("hardshrink", "lambd", lambd)
    return _array.where(_math.abs(x) > lambd, x, 0.0)


def tanhshrink(input):
    """input - tanh(input)."""
    _check_float_tensor("tanhshrink", "input", input)
    return input - _math.tanh(input)


def threshold(input, thr, value):
    """input where input > thr, else value."""
    _check_float_tensor("threshold", "input", input)
    for arg, v in (("thr", thr), ("value", value)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"threshold: '{arg}' must be an int or a float, but got {type(v).__name__}")
    return _array.where(input > thr, input, float(value))


__all__ = ["softmin", "softshrink", "hardshrink", "tanhshrink", "threshold"]
