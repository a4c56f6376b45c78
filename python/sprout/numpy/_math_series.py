"""mindspore.numpy's functions of sequences along an axis: differences (diff, ediff1d, gradient, unwrap),
integration (trapz), 1-D convolution and correlation, and polynomials as coefficient vectors (highest power
first). Compositions of sprout.ops: they differentiate and compile; NumPy builds only index tables.
"""
import math

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast
from sprout.numpy._math_args import (as_tensor, as_tensors, axes_tuple, axis_in_range, check_int, check_tensor,
                                     is_float, promote)
from sprout.numpy._math_elementwise import remainder, true_divide

__all__ = ["diff", "ediff1d", "trapz", "gradient", "unwrap", "convolve", "correlate", "polyadd", "polysub",
           "polymul", "polyval", "polyder", "polyint"]


def _slice(x, axis, start, stop):
    return ops.narrow(x, axis, start, stop - start)


def _step_difference(x, axis):
    later, earlier = _slice(x, axis, 1, x.shape[axis]), _slice(x, axis, 0, x.shape[axis] - 1)
    if x.dtype == mstype.bool_:
        return ops.not_equal(later, earlier)  # NumPy's difference of bools: exclusive or
    return ops.sub(later, earlier)


def _border(api, name, value, x, axis):
    """`prepend`/`append` as a slab of x's shape with one element along `axis` (a scalar is repeated)."""
    if isinstance(value, (bool, int, float)):
        value = as_tensor(api, name, value)
    elif not isinstance(value, Tensor):
        raise TypeError(f"{api}: '{name}' must be a number or a Tensor, but got {type(value).__name__}")
    if value.ndim == 0:
        shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
        value = ops.broadcast_to(value, shape)
    return cast(value, x.dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th difference along `axis`: a[i+1] - a[i], n times, after joining `prepend` and `append`."""
    check_tensor("diff", "a", a)
    check_int("diff", "n", n)
    if n < 0:
        raise ValueError(f"diff: 'n' must be >= 0, but got {n}")
    axis = axis_in_range("diff", axis, a.ndim)
    if n == 0:
        return a
    pieces = []
    if prepend is not None:
        pieces.append(_border("diff", "prepend", prepend, a, axis))
    pieces.append(a)
    if append is not None:
        pieces.append(_border("diff", "append", append, a, axis))
    if len(pieces) > 1:
        a = ops.concat(tuple(pieces), axis)
    if n >= a.shape[axis]:
        raise ValueError(f"diff: 'n' ({n}) must be less than the length {a.shape[axis]} along axis {axis} "
                         f"(the result would be empty)")
    for _ in range(n):
        a = _step_difference(a, axis)
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of the flattened tensor, with `to_begin` before and `to_end` after (in ary's dtype)."""
    check_tensor("ediff1d", "ary", ary)
    pieces = []
    for name, value in (("to_begin", to_begin), (None, None), ("to_end", to_end)):
        if name is None:
            pieces.append(diff(ary.reshape((-1,))))
        elif value is not None:
            pieces.append(cast(as_tensor("ediff1d", name, value).reshape((-1,)), ary.dtype))
    return ops.concat(tuple(pieces), 0) if len(pieces) > 1 else pieces[0]


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule, at sample points `x` (a 1-D x runs along
    `axis`) or spaced `dx` apart."""
    y = as_tensor("trapz", "y", y)
    axis = axis_in_range("trapz", axis, y.ndim)
    if not is_float(y.dtype):
        y = cast(y, mstype.float32)
    if x is not None:
        x = as_tensor("trapz", "x", x)
        if x.ndim == 1:
            if x.shape[0] != y.shape[axis]:
                raise ValueError(f"trapz: 'x' has {x.shape[0]} points but y has {y.shape[axis]} along axis {axis}")
            spacing = ops.reshape(diff(x), tuple(-1 if i == axis else 1 for i in range(y.ndim)))
        else:
            spacing = diff(x, axis=axis)
        spacing = cast(spacing, y.dtype)
    else:
        spacing = cast(as_tensor("trapz", "dx", dx), y.dtype)
    heights = ops.add(_slice(y, axis, 1, y.shape[axis]), _slice(y, axis, 0, y.shape[axis] - 1))
    return ops.ReduceSum()(ops.div(ops.mul(heights, spacing), 2.0), axis)


def _gradient_along(f, spacing, axis, edge_order):
    n = f.shape[axis]
    if n < edge_order + 1:
        raise ValueError(f"gradient: the tensor has {n} elements along axis {axis}; edge_order={edge_order} needs "
                         f"at least {edge_order + 1}")
    if edge_order == 1 or n < 3:
        first = ops.sub(_slice(f, axis, 1, 2), _slice(f, axis, 0, 1))
        last = ops.sub(_slice(f, axis, n - 1, n), _slice(f, axis, n - 2, n - 1))
    else:  # second-order one-sided differences at the edges, as NumPy's edge_order=2
        first = ops.mul(ops.add(ops.add(ops.mul(_slice(f, axis, 0, 1), -3.0), ops.mul(_slice(f, axis, 1, 2), 4.0)),
                                ops.neg(_slice(f, axis, 2, 3))), 0.5)
        last = ops.mul(ops.add(ops.sub(ops.mul(_slice(f, axis, n - 1, n), 3.0),
                                       ops.mul(_slice(f, axis, n - 2, n - 1), 4.0)),
                               _slice(f, axis, n - 3, n - 2)), 0.5)
    pieces = [first]
    if n > 2:
        pieces.append(ops.mul(ops.sub(_slice(f, axis, 2, n), _slice(f, axis, 0, n - 2)), 0.5))
    pieces.append(last)
    return ops.div(ops.concat(tuple(pieces), axis), spacing)


def gradient(f, *varargs, axis=None, edge_order=1):
    """The derivative of f estimated by central differences inside and one-sided ones at the edges, along
    each axis of `axis` (None: all); `varargs` gives one spacing for all axes or one per axis (scalars)."""
    if edge_order not in (1, 2) or isinstance(edge_order, bool):
        raise ValueError(f"gradient: 'edge_order' must be 1 or 2, but got {edge_order!r}")
    f = as_tensor("gradient", "f", f)
    if f.dtype != mstype.float64:
        f = cast(f, mstype.float32)
    axes = axes_tuple("gradient", axis, f.ndim)
    if not varargs:
        spacings = (1.0,) * len(axes)
    elif len(varargs) == 1:
        spacings = varargs * len(axes)
    elif len(varargs) == len(axes):
        spacings = varargs
    else:
        raise TypeError(f"gradient: give one spacing or one per axis ({len(axes)}), but got {len(varargs)}")
    for h in spacings:
        if not (isinstance(h, (int, float)) or (isinstance(h, Tensor) and h.ndim == 0)):
            raise TypeError(f"gradient: spacings must be scalars (sample coordinates are not supported), but got "
                            f"{h!r}")
    grads = [_gradient_along(f, h if not isinstance(h, Tensor) else cast(h, f.dtype), ax, edge_order)
             for h, ax in zip(spacings, axes)]
    return grads[0] if len(grads) == 1 else grads


def unwrap(p, discont=math.pi, axis=-1):
    """p with jumps between neighbours along `axis` larger than `discont` replaced by their 2*pi
    complement, so the phase runs on continuously."""
    if isinstance(discont, bool) or not isinstance(discont, (int, float)):
        raise TypeError(f"unwrap: 'discont' must be a float, but got {discont!r}")
    p = as_tensor("unwrap", "p", p)
    if not is_float(p.dtype):
        p = cast(p, mstype.float32)
    axis = axis_in_range("unwrap", axis, p.ndim)
    dd = diff(p, axis=axis)
    ddmod = ops.sub(remainder(ops.add(dd, math.pi), 2 * math.pi), math.pi)
    ddmod = ops.masked_fill(ddmod, ops.logical_and(ops.equal(ddmod, -math.pi), ops.greater(dd, 0)), math.pi)
    correction = ops.masked_fill(ops.sub(ddmod, dd), ops.less(ops.abs(dd), discont), 0.0)
    head = _slice(p, axis, 0, 1)
    tail = ops.add(_slice(p, axis, 1, p.shape[axis]), ops.cumsum(correction, axis))
    return ops.concat((head, tail), axis)


# --- convolution -------------------------------------------------------------------------------------------

def _sliding_dot(a, v, pad_left, pad_right):
    """out[k] = sum_n a_padded[k + n] * v[n]: the windows of zero-padded a gathered by a constant index
    table, then one product with v."""
    if pad_left or pad_right:
        a = ops.concat((ops.zeros((pad_left,), a.dtype), a, ops.zeros((pad_right,), a.dtype)), 0)
    count = a.shape[0] - v.shape[0] + 1
    index = np.arange(count)[:, None] + np.arange(v.shape[0])[None, :]
    windows = ops.gather(a, Tensor(index.astype(np.int32)), 0)
    return ops.ReduceSum()(ops.mul(windows, v), 1)


def _padding(mode, kernel):
    if mode == "full":
        return kernel - 1, kernel - 1
    if mode == "same":
        return kernel // 2, kernel - kernel // 2 - 1
    if mode == "valid":
        return 0, 0
    raise ValueError(f"mode must be one of 'full', 'same' and 'valid', but got {mode!r}")


def _vectors(api, a, v):
    a, v = as_tensors(api, ("a", "v"), a, v)
    if a.size == 0 or v.size == 0:
        raise ValueError(f"{api}: 'a' and 'v' must not be empty")
    a = a.reshape((-1,)) if a.ndim == 0 else a
    v = v.reshape((-1,)) if v.ndim == 0 else v
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{api}: 'a' and 'v' must be 1-D, but got shapes {tuple(a.shape)} and {tuple(v.shape)}")
    return a, v


def _compute_dtype(dtype):
    return dtype if is_float(dtype) else mstype.float32


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D sequences: 'full' (every overlap), 'same' (the longer's
    length, centred) or 'valid' (full overlaps only). Integers compute in float32 and give their dtype."""
    a, v = _vectors("convolve", a, v)
    final = promote(a.dtype, v.dtype)
    work = _compute_dtype(final)
    a, v = cast(a, work), cast(v, work)
    if a.shape[0] < v.shape[0]:
        a, v = v, a
    pad_left, pad_right = _padding(mode, v.shape[0])
    return cast(_sliding_dot(a, ops.flip(v, (0,)), pad_left, pad_right), final)


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-D sequences: c[k] = sum_n a[n + k] * v[n], over the overlaps `mode`
    selects ('valid', 'same' or 'full', as in `convolve`); float32 for integer inputs."""
    a, v = _vectors("correlate", a, v)
    work = _compute_dtype(promote(a.dtype, v.dtype))
    a, v = cast(a, work), cast(v, work)
    if a.shape[0] < v.shape[0]:  # NumPy: the shorter slides along the longer, the result reversed
        pad_left, pad_right = _padding(mode, a.shape[0])
        return ops.flip(_sliding_dot(v, a, pad_left, pad_right), (0,))
    pad_left, pad_right = _padding(mode, v.shape[0])
    return _sliding_dot(a, v, pad_left, pad_right)


# --- polynomials ----------------------------------------------------------------------------------------

def _poly(api, name, p):
    p = as_tensor(api, name, p)
    if p.ndim == 0:
        p = p.reshape((1,))
    if p.ndim > 1:
        raise ValueError(f"{api}: '{name}' must be a scalar or a 1-D sequence of coefficients, but got shape "
                         f"{tuple(p.shape)}")
    return p


def polyadd(a1, a2):
    """The sum of two polynomials (coefficients highest power first)."""
    a1, a2 = _poly("polyadd", "a1", a1), _poly("polyadd", "a2", a2)
    extra = a1.shape[0] - a2.shape[0]
    if extra == 0:
        return ops.add(a1, a2)
    if extra < 0:
        a1, a2, extra = a2, a1, -extra
    head = _slice(a1, 0, 0, extra)
    total = ops.add(_slice(a1, 0, extra, a1.shape[0]), a2)
    dtype = total.dtype
    return ops.concat((cast(head, dtype), total), 0)


def polysub(a1, a2):
    """The difference of two polynomials (a1 - a2)."""
    return polyadd(a1, ops.neg(_poly("polysub", "a2", a2)))


def polymul(a1, a2):
    """The product of two polynomials: the convolution of their coefficients."""
    return convolve(_poly("polymul", "a1", a1), _poly("polymul", "a2", a2))


def polyval(p, x):
    """The polynomial p evaluated at x (Horner's rule), in float (float32 for integers)."""
    p = _poly("polyval", "p", p)
    x = as_tensor("polyval", "x", x)
    dtype = _compute_dtype(promote(p.dtype, x.dtype))
    p, x = cast(p, dtype), cast(x, dtype)
    result = ops.broadcast_to(p[0], x.shape)
    for i in range(1, p.shape[0]):
        result = ops.add(ops.mul(result, x), p[i])
    return result


def polyder(p, m=1):
    """The m-th derivative of the polynomial p."""
    p = _poly("polyder", "p", p)
    check_int("polyder", "m", m)
    if m < 0:
        raise ValueError(f"polyder: the order 'm' must be >= 0, but got {m}")
    if m >= p.shape[0]:
        return Tensor(np.zeros((0,), np.float32))
    for _ in range(m):
        powers = Tensor(np.arange(p.shape[0] - 1, 0, -1, dtype=np.int32))
        p = ops.mul(_slice(p, 0, 0, p.shape[0] - 1), powers)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of the polynomial p; `k` the integration constants (one, or one per order,
    the first for the first integration)."""
    p = _poly("polyint", "p", p)
    check_int("polyint", "m", m)
    if m < 0:
        raise ValueError(f"polyint: the order 'm' must be >= 0, but got {m}")
    if m == 0:
        return p
    k = ops.zeros((m,), p.dtype) if k is None else _poly("polyint", "k", k)
    if k.shape[0] == 1:
        k = ops.tile(k, (m,))
    if k.shape[0] != m:
        raise ValueError(f"polyint: 'k' must have one constant or one per order (m={m}), but got {k.shape[0]}")
    for i in range(m):
        powers = Tensor(np.arange(p.shape[0], 0, -1, dtype=np.int32))
        p = true_divide(p, powers)
        p = ops.concat((p, cast(_slice(k, 0, i, i + 1), p.dtype)), 0)
    return p

