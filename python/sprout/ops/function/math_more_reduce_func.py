"""More reductions and statistics composed from registry primitives: nansum, nanmean, nanmedian, quantile,
nanquantile, aminmax, cov, trapz and msort. MindSpore 2.x names and arguments.

The order statistics sort along the axis (Sort puts NaN last) and pick elements with GatherElements, so
their gradients flow to the picked inputs.
"""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _axis, _narrow
from sprout.ops.function.math_func import _axes
from sprout.ops.function.math_reduce_func import _check_floating, _check_tensor, _drop_axes

_add, _sub, _mul, _div = prim("Add"), prim("Sub"), prim("Mul"), prim("Div")
_cast, _select, _isnan, _reshape = prim("Cast"), prim("Select"), prim("IsNan"), prim("Reshape")

_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _reduce(op, x, axes, keep):
    return prim(op, keep_dims=bool(keep))(x, axes)


def _checked_axes(api, x, axis):
    axes = _axes(axis, api)
    rank = max(x.ndim, 1)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"{api}: 'axis' {a} is out of range for 'input' of shape {x.shape}")
    return axes


def _with_dtype(api, x, dtype):
    if dtype is None:
        return x
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"{api}: 'dtype' must be a sprout dtype such as ms.float32, but got {dtype!r}")
    return x if x.dtype == dtype else _cast(x, dtype)


def _nan_to_zero(x):
    return _select(_isnan(x), prim("ZerosLike")(x), x) if x.dtype in _FLOATS else x


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum over `axis` (all axes when None) counting NaN as 0; `dtype` casts the input first."""
    _check_tensor("nansum", "input", input)
    x = _with_dtype("nansum", input, dtype)
    return _reduce("ReduceSum", _nan_to_zero(x), _checked_axes("nansum", x, axis), keepdims)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean over `axis` (all axes when None) of the elements that are not NaN; NaN where all are."""
    _check_tensor("nanmean", "input", input)
    x = _with_dtype("nanmean", input, dtype)
    if x.dtype not in _FLOATS:
        raise TypeError(f"nanmean: 'input' must be a floating-point tensor (or 'dtype' one), but got {x.dtype}")
    axes = _checked_axes("nanmean", x, axis)
    count = _reduce("ReduceSum", _cast(prim("LogicalNot")(_isnan(x)), x.dtype), axes, keepdims)
    return _div(_reduce("ReduceSum", _nan_to_zero(x), axes, keepdims), count)


def _to_last(x, axis):
    """x with `axis` moved last (a transpose; no copy when it already is)."""
    if axis == x.ndim - 1:
        return x
    perm = tuple(i for i in range(x.ndim) if i != axis) + (axis,)
    return prim("Transpose")(x, perm)


def _from_last(x, axis):
    """The inverse of _to_last."""
    if axis == x.ndim - 1:
        return x
    perm = list(range(x.ndim - 1))
    perm.insert(axis, x.ndim - 1)
    return prim("Transpose")(x, tuple(perm))


def _valid_count(sorted_last):
    """How many elements of each slice (the last axis of a NaN-last sort) are not NaN, keeping that axis."""
    return _reduce("ReduceSum", _cast(prim("LogicalNot")(_isnan(sorted_last)), mstype.int32), (-1,), True)


def nanmedian(input, axis=-1, keepdims=False):
    """(values, indices) of the median along `axis` ignoring NaN: the lower of the two middle elements for an
    even count, with its index in the input; NaN (at index 0) where a slice is all NaN."""
    _check_tensor("nanmedian", "input", input)
    if input.ndim == 0:
        return input, Tensor(0, mstype.int64)
    axis = _axis("nanmedian", "axis", axis, input.ndim)
    if input.shape[axis] == 0:
        raise ValueError(f"nanmedian: axis {axis} of 'input' is empty")
    ordered, order = prim("Sort", axis=-1, descending=False)(_to_last(input, axis))
    if input.dtype in _FLOATS:
        middle = prim("FloorDiv")(_sub(_valid_count(ordered), Tensor(1, mstype.int32)), Tensor(2, mstype.int32))
        middle = prim("Maximum")(middle, Tensor(0, mstype.int32))  # an all-NaN slice: its first element
    else:
        middle = Tensor(np.full(ordered.shape[:-1] + (1,), (ordered.shape[-1] - 1) // 2, np.int32))
    values = prim("GatherElements", dim=-1)(ordered, middle)
    indices = _cast(prim("GatherElements", dim=-1)(order, middle), mstype.int64)
    values, indices = _from_last(values, axis), _from_last(indices, axis)
    if not keepdims:
        values, indices = prim("Squeeze", axis=(axis,))(values), prim("Squeeze", axis=(axis,))(indices)
    return values, indices


def _quantile(api, ignore_nan, input, q, axis, keepdims):
    _check_floating(api, "input", input)
    if input.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"{api}: 'input' must be a float32 or float64 tensor, but got {input.dtype}")
    if isinstance(q, Tensor):
        if q.dtype != input.dtype:
            raise TypeError(f"{api}: 'q' must have the dtype of 'input' ({input.dtype}), but got {q.dtype}")
        if q.ndim > 1:
            raise ValueError(f"{api}: 'q' must be a scalar or a 1-d tensor, but got shape {q.shape}")
        scalar_q, qs = q.ndim == 0, _reshape(q, (-1,))
    elif isinstance(q, numbers.Real) and not isinstance(q, bool):
        if not 0 <= q <= 1:
            raise ValueError(f"{api}: 'q' must be in [0, 1], but got {q}")
        scalar_q, qs = True, Tensor([float(q)], input.dtype)
    else:
        raise TypeError(f"{api}: 'q' must be a float or a Tensor, but got {type(q).__name__}")
    if not isinstance(keepdims, bool):
        raise TypeError(f"{api}: 'keepdims' must be a bool, but got {keepdims!r}")
    if axis is None:
        x, axis_ = _reshape(input, (-1,)), 0
    else:
        axis_ = _axis(api, "axis", axis, input.ndim)
        x = input if input.ndim else _reshape(input, (1,))
    n = x.shape[axis_]
    if n == 0:
        raise ValueError(f"{api}: 'input' has no elements along the reduced axis")
    ordered = prim("Sort", axis=-1, descending=False)(_to_last(x, axis_))[0]  # NaN last
    lead = ordered.shape[:-1]
    m = qs.shape[0]
    # The position of each quantile among the slice's sorted values: q (k - 1), with k the slice's count of
    # numbers (all n, or the non-NaN ones for nanquantile); linear interpolation between its neighbours.
    if ignore_nan:
        last = _cast(_sub(_valid_count(ordered), Tensor(1, mstype.int32)), x.dtype)
    else:
        last = Tensor(float(n - 1), x.dtype)
    position = prim("Maximum")(_mul(_reshape(qs, (1,) * len(lead) + (m,)), last), Tensor(0.0, x.dtype))
    position = prim("BroadcastTo", shape=lead + (m,))(position)
    below = prim("Floor")(position)
    weight = _sub(position, below)
    low = _cast(below, mstype.int32)
    high = prim("Minimum")(_add(low, Tensor(1, mstype.int32)), Tensor(n - 1, mstype.int32))
    a, b = prim("GatherElements", dim=-1)(ordered, low), prim("GatherElements", dim=-1)(ordered, high)
    # a + (b - a) w, but exactly a where w is 0 (so an infinite a is not turned into NaN by inf - inf).
    out = _select(prim("Equal")(weight, Tensor(0.0, x.dtype)), a, _add(a, _mul(_sub(b, a), weight)))
    bad_q = prim("LogicalOr")(prim("Less")(qs, Tensor(0.0, x.dtype)), prim("Greater")(qs, Tensor(1.0, x.dtype)))
    invalid = _reshape(bad_q, (1,) * len(lead) + (m,))  # out-of-range q in a tensor: NaN, as it cannot raise
    if not ignore_nan:  # a slice holding NaN has NaN quantiles; the sort put it last
        invalid = prim("LogicalOr")(invalid, _isnan(_narrow(ordered, ordered.ndim - 1, n - 1, 1)))
    out = _select(prim("BroadcastTo", shape=lead + (m,))(invalid), Tensor(float("nan"), x.dtype), out)
    # (lead..., m) -> (m, lead...), the reduced axis back as size 1 when keepdims.
    out = prim("Transpose")(out, (len(lead),) + tuple(range(len(lead))))
    if keepdims:
        shape = (m,) + ((1,) * input.ndim if axis is None else
                        tuple(1 if i == axis_ else d for i, d in enumerate(input.shape)))
        out = _reshape(out, shape)
    return _reshape(out, out.shape[1:]) if scalar_q else out


def quantile(input, q, axis=None, keepdims=False):
    """The q-th quantiles of `input` along `axis` (of all elements when None), by linear interpolation between
    the two nearest values (MindSpore has no other `interpolation` mode). `q` a float or a scalar / 1-d tensor
    of `input`'s dtype in [0, 1]; a 1-d `q` of m values gives a leading axis of length m. A slice holding NaN
    gives NaN."""
    return _quantile("quantile", False, input, q, axis, keepdims)


def nanquantile(input, q, axis=None, keepdims=False):
    """As quantile, ignoring NaN: each slice's quantiles among its numbers; NaN where a slice is all NaN."""
    return _quantile("nanquantile", True, input, q, axis, keepdims)


def aminmax(input, *, axis=0, keepdims=False):
    """(minimum, maximum) along `axis` (over all elements when None); NaN propagates."""
    _check_tensor("aminmax", "input", input)
    if axis is None:
        axes = ()
    else:
        axes = (_axis("aminmax", "axis", axis, input.ndim),)
    low, high = _reduce("ReduceMin", input, axes, True), _reduce("ReduceMax", input, axes, True)
    if axis is None and keepdims:
        return low, high
    return _drop_axes(low, input.shape, axes, keepdims), _drop_axes(high, input.shape, axes, keepdims)


def _observation_weights(api, arg, w, n, integer):
    _check_tensor(api, arg, w)
    if integer and w.dtype in _FLOATS + (mstype.bool_,):
        raise TypeError(f"{api}: '{arg}' must be an integer tensor, but got {w.dtype}")
    if not integer and w.dtype not in _FLOATS:
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {w.dtype}")
    if w.ndim > 1 or w.size != n:
        raise ValueError(f"{api}: '{arg}' must be a scalar or 1-d tensor of {n} elements (one per observation, "
                         f"the columns of 'input'), but got shape {w.shape}")
    return _reshape(w, (n,))


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of `input` (observations in the columns); a 0-d or
    1-d input is one variable and gives its variance (0-d). `fweights` (integer) repeat observations,
    `aweights` (float) weigh them; the divisor is sum(w) - correction (with aweights: sum(w) - correction *
    sum(w * aweights) / sum(w)), at least 0."""
    _check_tensor("cov", "input", input)
    if input.ndim > 2:
        raise ValueError(f"cov: 'input' must be 0-d, 1-d or 2-d, but got shape {input.shape}")
    if isinstance(correction, bool) or not isinstance(correction, int):
        raise TypeError(f"cov: 'correction' must be an int, but got {correction!r}")
    x = input if input.dtype in _FLOATS else _cast(input, mstype.float32)
    x = _reshape(x, (1, -1)) if x.ndim < 2 else x
    n = x.shape[1]
    weights = None
    if fweights is not None:
        weights = _cast(_observation_weights("cov", "fweights", fweights, n, True), x.dtype)
    if aweights is not None:
        a = _cast(_observation_weights("cov", "aweights", aweights, n, False), x.dtype)
        weights = a if weights is None else _mul(weights, a)
    if weights is None:
        total = Tensor(float(n), x.dtype)
        mean = _reduce("ReduceMean", x, (1,), True)
    else:
        total = _reduce("ReduceSum", weights, (0,), False)
        mean = _div(_reduce("ReduceSum", _mul(x, weights), (1,), True), total)
    if correction == 0:
        divisor = total
    elif aweights is None:
        divisor = _sub(total, Tensor(float(correction), x.dtype))
    else:
        scaled = _div(_reduce("ReduceSum", _mul(weights, a), (0,), False), total)
        divisor = _sub(total, _mul(scaled, Tensor(float(correction), x.dtype)))
    divisor = prim("Maximum")(divisor, Tensor(0.0, x.dtype))
    centered = _sub(x, mean)
    weighted = centered if weights is None else _mul(centered, weights)
    out = _div(prim("MatMul", transpose_b=True)(weighted, centered), divisor)
    return _reshape(out, ()) if input.ndim < 2 else out


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of `y` along `dim` by the trapezoidal rule: with sample points `x` (1-d of y.shape[dim]
    values, or broadcastable to y), else a constant spacing `dx`."""
    _check_tensor("trapz", "y", y)
    if y.ndim == 0:
        raise ValueError("trapz: 'y' must have at least one dimension, but got a 0-d tensor")
    dim = _axis("trapz", "dim", dim, y.ndim)
    values = y if y.dtype in _FLOATS else _cast(y, mstype.float32)
    n = values.shape[dim]
    if n == 0:
        return _reduce("ReduceSum", values, (dim,), False)
    pair_sums = _add(_narrow(values, dim, 1, n - 1), _narrow(values, dim, 0, n - 1))
    if x is None:
        if isinstance(dx, bool) or not isinstance(dx, numbers.Real):
            raise TypeError(f"trapz: 'dx' must be a number, but got {dx!r}")
        return _mul(_reduce("ReduceSum", pair_sums, (dim,), False), Tensor(0.5 * float(dx), values.dtype))
    _check_tensor("trapz", "x", x)
    points = x if x.dtype == values.dtype else _cast(x, values.dtype)
    if points.ndim == 1:
        if points.shape[0] != n:
            raise ValueError(f"trapz: a 1-d 'x' must have y.shape[dim] = {n} elements, but got {points.shape[0]}")
        points = _reshape(points, tuple(n if i == dim else 1 for i in range(values.ndim)))
    elif points.ndim != values.ndim:
        raise ValueError(f"trapz: 'x' must be 1-d or have the rank of 'y' {values.shape}, but got shape {x.shape}")
    m = points.shape[dim]
    if m != n:
        raise ValueError(f"trapz: 'x' must have {n} elements along dim {dim}, as 'y', but got shape {x.shape}")
    spacing = _sub(_narrow(points, dim, 1, n - 1), _narrow(points, dim, 0, n - 1))
    return _mul(_reduce("ReduceSum", _mul(spacing, pair_sums), (dim,), False), Tensor(0.5, values.dtype))


def msort(input):
    """`input` sorted in ascending order along its first axis (NaN last)."""
    _check_tensor("msort", "input", input)
    if input.ndim == 0:
        return input
    return prim("Sort", axis=0, descending=False)(input)[0]


__all__ = ["nansum", "nanmean", "nanmedian", "quantile", "nanquantile", "aminmax", "cov", "trapz", "msort"]
# MindSpore's Tensor methods among them (trapz is not).
TENSOR_METHODS = ["nansum", "nanmean", "nanmedian", "quantile", "nanquantile", "aminmax", "cov", "msort"]
