"""Array ops that search or address positions: searchsorted, bucketize, diagonal, tril/triu_indices,
argwhere, index_add, index_fill and tensor_scatter_add/sub. MindSpore 2.x names and arguments, built from
registry primitives."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, cast, one_hot, reshape, unsorted_segment_sum
from sprout.ops.function.array_view_func import _axis, moveaxis, nonzero


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """For each value, the index in `sorted_sequence` (ascending along its last axis) where inserting it
    keeps the order: the first such index, or the last with `right` (side='right')."""
    seq = _tensor(sorted_sequence, "searchsorted", "sorted_sequence")
    vals = _tensor(values, "searchsorted", "values")
    if side not in (None, "left", "right"):
        raise ValueError(f"searchsorted: 'side' must be 'left', 'right' or None, but got {side!r}")
    if side == "left" and right:
        raise ValueError("searchsorted: side='left' contradicts right=True")
    if sorter is not None:
        raise ValueError("searchsorted: 'sorter' is not supported (as on MindSpore's CPU); sort the sequence first")
    if seq.ndim == 0:
        raise ValueError("searchsorted: 'sorted_sequence' must have at least one dimension, but got a 0-d tensor")
    if seq.ndim > 1 and seq.shape[:-1] != vals.shape[:-1]:
        raise ValueError(f"searchsorted: 'sorted_sequence' {seq.shape} and 'values' {vals.shape} must match in "
                         "every dimension but the last")
    right = right or side == "right"
    return prim("SearchSorted", dtype=mstype.int32 if out_int32 else mstype.int64, right=right)(seq, vals)


def bucketize(input, boundaries, *, right=False):
    """The bucket of each element among sorted `boundaries` (a list of numbers): i with boundaries[i-1] < x
    <= boundaries[i], or boundaries[i-1] <= x < boundaries[i] with `right`; Int32."""
    x = _tensor(input, "bucketize", "input")
    if not isinstance(boundaries, (list, tuple)) or not all(
            isinstance(b, (int, float)) and not isinstance(b, bool) for b in boundaries):
        raise TypeError(f"bucketize: 'boundaries' must be a list of numbers, but got {boundaries!r}")
    edges = Tensor(np.asarray(boundaries, np.float64), x.dtype if x.dtype in mstype.float_type else mstype.float32)
    return cast(searchsorted(edges, cast(x, edges.dtype), right=right), mstype.int32)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) planes, `offset` above the main one (below when negative), as the
    last axis; the other axes keep their order (NumPy's diagonal)."""
    x = _tensor(input, "diagonal", "input")
    if x.ndim < 2:
        raise ValueError(f"diagonal: 'input' must have at least 2 dimensions, but got shape {x.shape}")
    a, b = _axis("diagonal", "dim1", dim1, x.ndim), _axis("diagonal", "dim2", dim2, x.ndim)
    if a == b:
        raise ValueError(f"diagonal: 'dim1' and 'dim2' must differ, but both are {a}")
    offset = _int(offset, "diagonal", "offset")
    planes = moveaxis(x, (a, b), (-2, -1))
    n, m = planes.shape[-2:]
    count = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    # An offset past the planes gives an empty diagonal; start is then unused (and, left as is, would not
    # fit NumPy's int64 arange).
    start = 0 if count == 0 else offset if offset >= 0 else -offset * m
    flat = reshape(planes, planes.shape[:-2] + (n * m,))
    positions = Tensor(np.arange(count, dtype=np.int64) * (m + 1) + start)
    return prim("Gather")(flat, positions, flat.ndim - 1)


def _triangle_indices(api, pick, row, col, offset, dtype):
    row, col, offset = _int(row, api, "row"), _int(col, api, "col"), _int(offset, api, "offset")
    if row < 0 or col < 0:
        raise ValueError(f"{api}: 'row' and 'col' must be >= 0, but got {row} and {col}")
    if dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'dtype' must be int32 or int64, but got {dtype}")
    # Offsets beyond the matrix pick nothing or everything, as the nearest ones do; clamped to those, they
    # fit NumPy's int64 arithmetic.
    offset = min(max(offset, -row), col)
    return Tensor(np.stack(pick(row, offset, col)).astype(np.int64), dtype)


def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) coordinates of a row x col matrix's lower triangle (with the diagonal `offset`)."""
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype)


def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) coordinates of a row x col matrix's upper triangle (from the diagonal `offset`)."""
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype)


def argwhere(input):
    """The (N, ndim) Int64 coordinates of the nonzero elements (same as nonzero)."""
    return nonzero(input)


def _check_index(api, index):
    index = _tensor(index, api, "index")
    if index.dtype not in (mstype.int32, mstype.int64) or index.ndim > 1:
        raise TypeError(f"{api}: 'index' must be a 1-d int32 or int64 tensor, but got {index.dtype} of shape "
                        f"{index.shape}")
    return reshape(index, (-1,))


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """x with the slices of `y` along `axis` added at positions `indices` (repeats accumulate). A Parameter x
    is also updated in place, as MindSpore's."""
    target, updates = _tensor(x, "index_add", "x"), _tensor(y, "index_add", "y")
    axis = _axis("index_add", "axis", axis, target.ndim)
    index = _check_index("index_add", indices)
    if updates.ndim != target.ndim or updates.shape[axis] != index.shape[0] or any(
            u != t for i, (u, t) in enumerate(zip(updates.shape, target.shape)) if i != axis):
        raise ValueError(f"index_add: 'y' must have the shape of 'x' {target.shape} with {index.shape[0]} (the "
                         f"number of indices) along axis {axis}, but got {updates.shape}")
    # Slices moved to the front, summed per index into x's positions, moved back.
    sums = unsorted_segment_sum(moveaxis(updates, axis, 0), index, target.shape[axis])
    out = target + moveaxis(sums, 0, axis)
    if isinstance(target, Parameter):  # written, and its new value returned as a Tensor (as MindSpore's)
        prim("Assign")(target, out)
        return out
    return out


def index_fill(x, axis, index, value):
    """x with `value` written into every slice along `axis` at positions `index`."""
    target = _tensor(x, "index_fill", "x")
    axis = _axis("index_fill", "axis", axis, target.ndim)
    index = _check_index("index_fill", index)
    if target.ndim == 0:  # its one element, at index 0 of axis 0 (as PyTorch's)
        return reshape(index_fill(reshape(target, (1,)), 0, index, value), ())
    if index.shape[0] == 0:  # nothing to fill (and no one-hot rows to reduce)
        return target
    size = target.shape[axis]
    if type(index) is Tensor:  # eager: check the positions (compiled code cannot read them)
        positions = index.asnumpy()
        if positions.min() < -size or positions.max() >= size:
            bad = positions[(positions < -size) | (positions >= size)][0]
            raise IndexError(f"index_fill: 'index' holds {int(bad)}, out of range for axis {axis} of size {size}")
    index = prim("Select")(prim("Less")(index, Tensor(0, index.dtype)), index + size, index)  # -1: the last
    hit = prim("ReduceMax", keep_dims=False)(one_hot(index, target.shape[axis], 1.0, 0.0), (0,))  # (n,): 1 where filled
    mask = reshape(prim("Greater")(hit, Tensor(0.0)), (target.shape[axis],) + (1,) * (target.ndim - axis - 1))
    fill = value if isinstance(value, Tensor) else Tensor(value, target.dtype)
    return prim("Select")(prim("BroadcastTo", shape=target.shape)(mask), cast(fill, target.dtype), target)


def _scatter_nd_updates(api, input_x, indices, updates):
    x = _tensor(input_x, api, "input_x")
    idx = _tensor(indices, api, "indices")
    if idx.dtype not in (mstype.int32, mstype.int64) or idx.ndim < 1 or idx.shape[-1] > x.ndim:
        raise ValueError(f"{api}: 'indices' must be an int32/int64 tensor of shape (..., k) with k <= {x.ndim}, but "
                         f"got {idx.dtype} of shape {idx.shape}")
    want = idx.shape[:-1] + x.shape[idx.shape[-1]:]
    upd = _tensor(updates, api, "updates")
    if upd.shape != want:
        raise ValueError(f"{api}: 'updates' must have shape {want}, but got {upd.shape}")
    # Repeated indices add up, as MindSpore's TensorScatterAdd does.
    return x, prim("ScatterNd")(idx, cast(upd, x.dtype), x.shape)


def tensor_scatter_add(input_x, indices, updates):
    """input_x with `updates` added at the N-d `indices` (repeats accumulate); a new tensor."""
    x, added = _scatter_nd_updates("tensor_scatter_add", input_x, indices, updates)
    return x + added


def tensor_scatter_sub(input_x, indices, updates):
    """input_x with `updates` subtracted at the N-d `indices` (repeats accumulate); a new tensor."""
    x, added = _scatter_nd_updates("tensor_scatter_sub", input_x, indices, updates)
    return x - added


__all__ = ["searchsorted", "bucketize", "diagonal", "tril_indices", "triu_indices", "argwhere", "index_add",
           "index_fill", "tensor_scatter_add", "tensor_scatter_sub"]
TENSOR_METHODS = ["diagonal", "argwhere", "index_add", "index_fill"]
