"""Statistics and distances, MindSpore 2.x names: ops.pdist (through Cdist), and the bodies of primitives MindSpore has no
function for (a median that can skip NaN, CumulativeLogsumexp's exclusive and reversed forms, Bincount with a
fixed length). Compositions of Sprout ops: they differentiate and compile; NumPy only builds index tables.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import (cast, concat, flip, gather, gather_elements, one_hot, reshape,
                                            squeeze, unsqueeze, where)
from sprout.ops.function.array_view_func import narrow
from sprout.ops.function._prims import prim
from sprout.ops.function.math_reduce_func import logcumsumexp

__all__ = ["pdist"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def pdist(input, p=2.0):
    """The p-norm distances between every pair of rows i < j of `input` (..., N, M), in row-major order of
    the pairs: shape (..., N(N-1)/2)."""
    x = _tensor("pdist", "input", input)
    if x.dtype not in _FLOATS:
        raise TypeError(f"pdist: 'input' must be a float16, float32 or float64 tensor, but got {x.dtype}")
    if x.ndim < 2:
        raise ValueError(f"pdist: 'input' must have at least 2 dimensions (..., N, M), but got {x.shape}")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        raise ValueError(f"pdist: 'p' must be a non-negative float, but got {p!r}")
    # Cdist of the rows with themselves (Note [Distances by tiles]: O(N^2) memory, where the differences of
    # every pair took N(N-1)/2 x M), then the pairs i < j in row-major order by their flat index i * N + j.
    n, m = x.shape[-2], x.shape[-1]
    lead = tuple(x.shape[:-2])
    batch = int(np.prod(lead, dtype=np.int64))
    first, second = np.triu_indices(n, 1)
    if batch == 0 or first.size == 0:  # no pairs, or no rows to pair
        return Tensor(np.zeros(lead + (first.size,)), x.dtype)
    rows = reshape(x, (batch, n, m))
    distances = reshape(prim("Cdist", p=float(p))(rows, rows), (batch, n * n))
    pairs = gather(distances, Tensor((first * n + second).astype(np.int64)), 1)
    return reshape(pairs, lead + (first.size,))


def median_skipping_nan(x, axis, keep_dims):
    """(value, index) of the lower median along `axis` of the non-NaN elements (NaN when all are NaN)."""
    values, indices = x.sort(axis)  # NaN sorts last
    valid = (~x.isnan()).sum(axis, keepdims=True)
    position = cast(((valid - 1) // 2).clip(0, None), mstype.int64)
    value = gather_elements(values, axis, position)
    value = where(valid == 0, Tensor(float("nan"), x.dtype), value)  # nothing but NaN: NaN
    index = cast(gather_elements(indices, axis, position), mstype.int64)
    if not keep_dims:
        value, index = squeeze(value, axis), squeeze(index, axis)
    return value, index


def cumulative_logsumexp(x, axis, exclusive=False, reverse=False):
    """log(cumsum(exp(x))) along `axis`; `exclusive` leaves each element out of its own sum (the first sum
    is empty: the dtype's lowest value, as MindSpore gives), `reverse` sums from the end."""
    if reverse:
        return flip(cumulative_logsumexp(flip(x, (axis,)), axis, exclusive), (axis,))
    sums = logcumsumexp(x, axis)
    if not exclusive:
        return sums
    length = x.shape[axis]
    lowest = np.finfo(mstype.dtype_to_nptype(x.dtype)).min
    empty = Tensor(np.full(x.shape[:axis] + (1,) + x.shape[axis + 1:], lowest), x.dtype)
    return concat((empty, narrow(sums, axis, 0, length - 1)), axis) if length > 1 else empty


def bincount_fixed(array, size, weights):
    """Counts (or sums of weights) of each value 0..size-1 of an integer array; other values are left out."""
    depth_hot = one_hot(reshape(array, (-1,)), size, 1, 0)  # values outside [0, size) give a zero row
    if weights is None or weights.size == 0:
        dtype = weights.dtype if weights is not None else mstype.float32
        return cast(depth_hot, dtype).sum(0)
    return (cast(depth_hot, weights.dtype) * unsqueeze(reshape(weights, (-1,)), 1)).sum(0)
