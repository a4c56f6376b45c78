"""mindspore.numpy's reductions and scans: sum, mean, amax/amin (with `initial` and `where`), the NaN-skipping
reductions, std/var/ptp, average, count_nonzero, cumsum/cumprod, argmax/argmin and norm. MindSpore's rules:
`axis` is None (every axis), an int or a tuple of ints; a reduction over an empty tensor gives `initial`
(or NaN for mean). Compositions of sprout.ops: they differentiate and compile.
"""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast
from sprout.numpy._math_args import (as_tensor, axes_tuple, axis_in_range, check_int, check_tensor, is_float,
                                     to_dtype)

__all__ = ["sum_", "mean", "amax", "amin", "nanmax", "nanmin", "nansum", "nanmean", "nanvar", "nanstd", "std",
           "var", "ptp", "average", "count_nonzero", "cumsum", "nancumsum", "cumprod", "argmax", "argmin",
           "norm"]


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _reducer(primitive, keepdims):
    return lambda x, axes: primitive(keep_dims=keepdims)(x, axes)


def _check_initial(api, initial):
    if initial is None:
        return
    if isinstance(initial, Tensor) and initial.ndim == 0:
        return
    if isinstance(initial, (bool, int, float)) and not isinstance(initial, Tensor):
        return
    raise TypeError(f"{api}: 'initial' must be a scalar (a number or a 0-d Tensor), but got {initial!r}")


def _reduce(api, a, reduce_fn, cmp_fn=None, axis=None, keepdims=False, initial=None, where=True, dtype=None):
    """MindSpore's reduction driver: `reduce_fn(x, axes)` over the axes, `initial` folded in with
    `cmp_fn`, elements where the `where` mask is False replaced by `initial`."""
    a = as_tensor(api, "a", a)
    dtype = a.dtype if dtype is None else to_dtype(api, dtype)
    axes = axes_tuple(api, axis, a.ndim)
    _check_initial(api, initial)
    if a.size == 0:
        if not axes:
            return a
        shape_out = _reduced_shape(a.shape, axes, keepdims)
        if math.prod(shape_out) == 0:
            return ops.zeros(shape_out, dtype)
        if initial is None:
            if cmp_fn is not None:
                raise ValueError(f"{api}: the tensor is empty along the reduced axes; give 'initial' (the value "
                                 f"of an empty reduction)")
            initial = float("nan")
        return ops.fill(dtype, shape_out, initial)
    if initial is not None:
        a = cmp_fn(a, ops.full_like(a, initial))
    if isinstance(where, Tensor):
        if initial is None:
            raise ValueError(f"{api}: a 'where' mask needs 'initial' (the value of the masked-out elements)")
        ndim = a.ndim
        a = ops.select(where, a, ops.full_like(a, initial)) if where.shape == a.shape else \
            ops.where(where, a, cast(Tensor(initial), a.dtype))
        added = a.ndim - ndim  # a mask of more dimensions adds leading axes, all of them reduced
        axes = tuple(range(added)) + tuple(ax + added for ax in axes)
    elif where is not True:
        raise TypeError(f"{api}: 'where' must be True or a bool Tensor, but got {where!r}")
    result = reduce_fn(a, axes)
    return result if result.dtype == dtype else cast(result, dtype)


def sum_(a, axis=None, dtype=None, keepdims=False, initial=None):
    """The sum over `axis` (None: every axis), plus `initial`; integers and bools sum in int64 unless
    `dtype` says otherwise (MindSpore's Tensor.sum). Exported as `sum`."""
    a = as_tensor("sum", "a", a)
    axes_tuple("sum", axis, a.ndim)
    if dtype is None and not is_float(a.dtype):
        dtype = mstype.int64
    return a.sum(axis=axis, dtype=None if dtype is None else to_dtype("sum", dtype), keepdims=keepdims,
                 initial=initial)


def _mean_of(keepdims):
    """ReduceMean, for integers computed in float32 and truncated back to the integer dtype (MindSpore's
    integer mean)."""
    def reduce(x, axes):
        if is_float(x.dtype):
            return ops.ReduceMean(keep_dims=keepdims)(x, axes)
        return cast(ops.ReduceMean(keep_dims=keepdims)(cast(x, mstype.float32), axes), x.dtype)
    return reduce


def mean(a, axis=None, keepdims=False, dtype=None):
    """The arithmetic mean over `axis` (None: every axis)."""
    return _reduce("mean", a, _mean_of(keepdims), axis=axis, keepdims=keepdims, dtype=dtype)


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The largest element over `axis`; `initial` takes part, and masked-out elements (`where` False)
    count as `initial`. Exported also as `max`."""
    return _reduce("amax", a, _reducer(ops.ReduceMax, keepdims), ops.maximum, axis, keepdims, initial, where)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The smallest element over `axis` (see `amax`). Exported also as `min`."""
    return _reduce("amin", a, _reducer(ops.ReduceMin, keepdims), ops.minimum, axis, keepdims, initial, where)


def _check_keepdims(api, keepdims):
    if not isinstance(keepdims, int):
        raise TypeError(f"{api}: 'keepdims' must be a bool, but got {keepdims!r}")


def _nan_extremum(api, primitive, fill, a, axis, dtype, keepdims):
    a = as_tensor(api, "a", a)
    _check_keepdims(api, keepdims)
    reduce = _reducer(primitive, bool(keepdims))
    if not is_float(a.dtype):
        return _reduce(api, a, reduce, axis=axis, keepdims=keepdims, dtype=dtype)

    def skip_nan(x, axes):
        nan = ops.isnan(x)
        result = reduce(ops.masked_fill(x, nan, fill), axes)
        all_nan = _reducer(ops.ReduceAll, bool(keepdims))(nan, axes)  # NaN only where every element is NaN
        return ops.masked_fill(result, all_nan, float("nan"))
    return _reduce(api, a, skip_nan, axis=axis, keepdims=keepdims, dtype=dtype)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """The largest element over `axis`, NaN left out (NaN where all are NaN)."""
    return _nan_extremum("nanmax", ops.ReduceMax, float("-inf"), a, axis, dtype, keepdims)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """The smallest element over `axis`, NaN left out (NaN where all are NaN)."""
    return _nan_extremum("nanmin", ops.ReduceMin, float("inf"), a, axis, dtype, keepdims)


def _zero_nan(x):
    return ops.masked_fill(x, ops.isnan(x), 0.0) if is_float(x.dtype) else x


def _count_not_nan(x, axes, keepdims):
    valid = ops.logical_not(ops.isnan(x)) if is_float(x.dtype) else ops.ones_like(x, dtype=mstype.bool_)
    return ops.ReduceSum(keep_dims=keepdims)(cast(valid, x.dtype if is_float(x.dtype) else mstype.float32), axes)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum over `axis` with NaN counted as zero."""
    a = as_tensor("nansum", "a", a)
    return _reduce("nansum", _zero_nan(a), _reducer(ops.ReduceSum, keepdims), axis=axis, keepdims=keepdims,
                   dtype=dtype)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """The mean over `axis` of the elements that are not NaN (float32 unless `dtype` says otherwise)."""
    dtype = mstype.float32 if dtype is None else to_dtype("nanmean", dtype)
    a = as_tensor("nanmean", "a", a)
    axes = axes_tuple("nanmean", axis, a.ndim)
    total = nansum(a, axis=axes, dtype=dtype, keepdims=keepdims)
    return ops.div(total, cast(_count_not_nan(a, axes, keepdims), dtype))


def _nanvar(x, axes, ddof, keepdims):
    x = x if is_float(x.dtype) else cast(x, mstype.float32)
    centred = ops.sub(x, nanmean(x, axis=axes, dtype=x.dtype, keepdims=True))
    total = ops.ReduceSum(keep_dims=keepdims)(_zero_nan(ops.square(centred)), axes)
    return ops.div(total, ops.sub(_count_not_nan(x, axes, keepdims), ddof))


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The variance over `axis` of the elements that are not NaN, divided by (count - ddof)."""
    dtype = mstype.float32 if dtype is None else dtype
    return _reduce("nanvar", a, lambda x, axes: _nanvar(x, axes, ddof, keepdims), axis=axis, keepdims=keepdims,
                   dtype=dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The standard deviation over `axis` of the elements that are not NaN (see `nanvar`)."""
    dtype = mstype.float32 if dtype is None else dtype
    return _reduce("nanstd", a, lambda x, axes: ops.sqrt(_nanvar(x, axes, ddof, keepdims)), axis=axis,
                   keepdims=keepdims, dtype=dtype)


def std(x, axis=None, ddof=0, keepdims=False):
    """The standard deviation over `axis`: sqrt(sum((x - mean)**2) / (N - ddof))."""
    x = as_tensor("std", "x", x)
    return (x if is_float(x.dtype) else cast(x, mstype.float32)).std(axis, ddof, keepdims)


def var(x, axis=None, ddof=0, keepdims=False):
    """The variance over `axis`: sum((x - mean)**2) / (N - ddof)."""
    x = as_tensor("var", "x", x)
    return (x if is_float(x.dtype) else cast(x, mstype.float32)).var(axis, ddof, keepdims)


def ptp(x, axis=None, keepdims=False):
    """max - min over `axis` (peak to peak)."""
    check_tensor("ptp", "x", x)
    return x.ptp(axis, keepdims)


def average(x, axis=None, weights=None, returned=False):
    """The weighted mean over `axis`: sum(x * w) / sum(w). `weights` has x's shape, or is 1-D along an int
    `axis`. With `returned`, also the sum of the weights (broadcast to the result's shape)."""
    check_tensor("average", "x", x)
    axes = None if axis is None else axes_tuple("average", axis, x.ndim)
    if weights is None:
        x_avg = mean(x, axes) if axes is None or axes else x
        count = math.prod(x.shape[ax] for ax in (axes if axes is not None else range(x.ndim)))
        sum_of_weights = ops.fill(x.dtype, x_avg.shape, count)
    else:
        check_tensor("average", "weights", weights)
        if weights.shape != x.shape:
            if weights.ndim != 1:
                raise TypeError(f"average: 'weights' must be None, 1-D or of x's shape {x.shape}, but got shape "
                                f"{weights.shape}")
            if not isinstance(axis, int) or isinstance(axis, bool):
                raise TypeError("average: 'axis' must be an int when 'weights' is 1-D and x is not")
            if weights.shape[0] != x.shape[axes[0]]:
                raise ValueError(f"average: 'weights' has length {weights.shape[0]} but x has {x.shape[axes[0]]} "
                                 f"elements along axis {axis}")
            weights = weights.reshape(tuple(weights.shape[0] if i == axes[0] else 1 for i in range(x.ndim)))
        reduce_axes = () if axes is None else axes
        sum_of_weights = ops.ReduceSum()(weights, reduce_axes)
        x_avg = ops.div(ops.ReduceSum()(ops.mul(x, weights), reduce_axes), sum_of_weights)
    if returned:
        if sum_of_weights.shape != x_avg.shape:
            sum_of_weights = ops.broadcast_to(sum_of_weights, x_avg.shape)
        return x_avg, sum_of_weights
    return x_avg


def count_nonzero(x, axis=None, keepdims=False):
    """The number of non-zero elements over `axis` (int32)."""
    x = check_tensor("count_nonzero", "x", x)
    if x.size == 0:
        return Tensor(0, mstype.int32)
    axes = () if axis is None else axes_tuple("count_nonzero", axis, x.ndim)
    return ops.count_nonzero(x, axis=axes, keep_dims=keepdims)


_CUMSUM_WIDENED = {mstype.int8: mstype.int32, mstype.int16: mstype.int32, mstype.uint8: mstype.int32,
                   mstype.bool_: mstype.int32}


def cumsum(a, axis=None, dtype=None):
    """Running sums along `axis` (None: of the flattened tensor); int8, int16, uint8 and bool sum in int32
    unless `dtype` says otherwise."""
    check_tensor("cumsum", "a", a)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    axis = axis_in_range("cumsum", axis, a.ndim)
    dtype = _CUMSUM_WIDENED.get(a.dtype, a.dtype) if dtype is None else to_dtype("cumsum", dtype)
    return ops.cumsum(cast(a, dtype), axis)


def nancumsum(a, axis=None, dtype=None):
    """Running sums along `axis` with NaN counted as zero."""
    check_tensor("nancumsum", "a", a)
    return cumsum(_zero_nan(a), axis, dtype)


_CUMPROD_WIDENED = {mstype.int8: mstype.int32, mstype.int16: mstype.int32, mstype.bool_: mstype.int32}


def cumprod(a, axis=None, dtype=None):
    """Running products along `axis` (None: of the flattened tensor), computed in float32 (float64 for
    float64); int8/int16/bool results are int32, others keep their dtype unless `dtype` is given."""
    a = as_tensor("cumprod", "a", a)
    original = a.dtype
    if axis is not None:
        check_int("cumprod", "axis", axis)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    axis = axis_in_range("cumprod", axis, a.ndim)
    if original != mstype.float64:
        a = cast(a, mstype.float32)
    dtype = _CUMPROD_WIDENED.get(original, original) if dtype is None else to_dtype("cumprod", dtype)
    result = ops.cumprod(a, axis)
    return result if result.dtype == dtype else cast(result, dtype)


def _arg_extremum(api, a, axis):
    a = as_tensor(api, "a", a)
    if a.dtype == mstype.bool_:
        a = cast(a, mstype.int32)
    if axis is None:
        a, axis = a.reshape((-1,)), 0
    axis = axis_in_range(api, axis, a.ndim)
    return a, axis


def argmax(a, axis=None):
    """The index of the largest element along `axis` (None: in the flattened tensor); the first on ties."""
    a, axis = _arg_extremum("argmax", a, axis)
    return a.argmax(axis)


def argmin(a, axis=None):
    """The index of the smallest element along `axis` (None: in the flattened tensor); the first on ties."""
    a, axis = _arg_extremum("argmin", a, axis)
    return a.argmin(axis)


# --- norm ----------------------------------------------------------------------------------------------

def _vector_norm(x, order, axis, keepdims):
    if order in ("fro", "nuc"):
        raise ValueError(f"norm: ord={order!r} is a matrix norm, but one axis was given")
    order = 2 if order is None else order
    magnitude = ops.abs(x)
    if order == math.inf:
        return ops.ReduceMax(keep_dims=keepdims)(magnitude, axis)
    if order == -math.inf:
        return ops.ReduceMin(keep_dims=keepdims)(magnitude, axis)
    if order == 0:
        return ops.ReduceSum(keep_dims=keepdims)(cast(ops.not_equal(x, 0), mstype.float32), axis)
    if order == 2:
        return ops.sqrt(ops.ReduceSum(keep_dims=keepdims)(ops.square(magnitude), axis))
    return ops.pow(ops.ReduceSum(keep_dims=keepdims)(ops.pow(magnitude, order), axis), 1.0 / order)


def _matrix_norm(x, order, axis, keepdims):
    if order in (None, "fro"):
        return ops.sqrt(ops.ReduceSum(keep_dims=keepdims)(ops.square(x), axis))
    if order == "nuc":
        singular = ops.svd(ops.moveaxis(x, axis, (-2, -1)), compute_uv=False)
        result = ops.ReduceSum()(singular, -1)
        return _restore_axes(result, x.ndim, axis) if keepdims else result
    if order in (2, -2):
        singular = ops.svd(ops.moveaxis(x, axis, (-2, -1)), compute_uv=False)
        result = (ops.ReduceMax() if order == 2 else ops.ReduceMin())(singular, -1)
        return _restore_axes(result, x.ndim, axis) if keepdims else result
    if order == 0:
        raise ValueError("norm: ord=0 is not a matrix norm (two axes were given)")
    row_axis, col_axis = axis
    if order in (math.inf, -math.inf):  # the largest (smallest) sum of |x| along a row
        inner, outer = col_axis, row_axis
    elif order in (1, -1):  # ... along a column
        inner, outer = row_axis, col_axis
    else:
        raise ValueError(f"norm: ord={order!r} is not a matrix norm (expected None, 'fro', 'nuc', inf, -inf, "
                         f"1, -1, 2 or -2)")
    sums = ops.ReduceSum(keep_dims=keepdims)(ops.abs(x), inner)
    if not keepdims and outer > inner:
        outer -= 1
    extremum = ops.ReduceMax if order > 0 else ops.ReduceMin
    return extremum(keep_dims=keepdims)(sums, outer)


def _restore_axes(result, ndim, axes):
    for ax in sorted(axes):
        result = ops.expand_dims(result, ax)
    return result


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (MindSpore's argument name)
    """Vector norms (one axis) or matrix norms (two axes). With `axis` None: the 2-norm of the flattened
    tensor when `ord` is None, else x must be 1-D or 2-D."""
    if not (ord in (None, "fro", "nuc") or (isinstance(ord, (int, float)) and not isinstance(ord, bool))):
        raise ValueError(f"norm: 'ord' must be None, a number, 'fro' or 'nuc', but got {ord!r}")
    x = as_tensor("norm", "x", x)
    if not is_float(x.dtype):
        x = cast(x, mstype.float32)
    ndim = x.ndim
    if axis is None:
        if ord is None:
            x = x.reshape((-1,))
        if x.ndim not in (1, 2):
            raise ValueError(f"norm: with axis=None, x must be 1-D or 2-D (or ord None), but got shape {x.shape}")
        axis = tuple(range(x.ndim))
    axes = axes_tuple("norm", axis, x.ndim)
    if len(axes) == 1:
        result = _vector_norm(x, ord, axes, keepdims)
    elif len(axes) == 2:
        result = _matrix_norm(x, ord, axes, keepdims)
    else:
        raise ValueError(f"norm: 'axis' must name one or two axes, but got {axis!r}")
    if keepdims and ndim > result.ndim:
        result = result.reshape((1,) * (ndim - result.ndim) + tuple(result.shape))
    return result
