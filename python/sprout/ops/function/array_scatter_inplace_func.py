"""Scatters that write into their first argument, MindSpore 2.x names and arguments: scatter_update,
scatter_max/min/mul/div (rows along axis 0) and scatter_nd_update/add/sub/mul/div/max/min (N-d indices). Each
computes the new value out of place and writes it with Assign, the graph-safe in-place write optimizers use
(Note [In-place updates]), so a Parameter updated inside a compiled Cell keeps the write; like MindSpore's,
they also write a plain Tensor, and return a Tensor of input_x's updated memory (not the Parameter itself).

inplace_add, inplace_sub and inplace_update, despite their names, return a new tensor and leave `x` as it
was, as MindSpore 2.x's do (checked against MindSpore 2.10); they are differentiable.
"""
from sprout import _C
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function._scatter_reduce import check_scatter_nd, scatter_nd_reduce
from sprout.ops.function.array_func import _tensor, cast, expand_dims, unsorted_segment_sum



def _assign(input_x, value):
    """Writes `value` into input_x; returns a plain Tensor of input_x's memory in eager mode (MindSpore returns
    a Tensor, not the Parameter), and Assign's output when compiling, which carries the write's ordering
    (Note [Side effects in graph mode])."""
    written = prim("Assign")(input_x, value)
    return written if is_building_graph() else _C.detach(input_x)


def _target(api, input_x):
    if not isinstance(input_x, Tensor):
        raise TypeError(f"{api}: 'input_x' must be a Parameter or Tensor (it is written in place), but got "
                        f"{type(input_x).__name__}")
    return input_x


def _row_indices(api, input_x, indices):
    """Row indices of axis 0 (any shape) as N-d indices (..., 1)."""
    x = _target(api, input_x)
    if x.ndim == 0:
        raise ValueError(f"{api}: 'input_x' must have at least one dimension, but got a 0-d tensor")
    idx = _tensor(indices, api, "indices")
    if idx.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'indices' must be an int32 or int64 tensor, but got {idx.dtype}")
    return x, expand_dims(idx, idx.ndim)


def _rows_reduce(api, input_x, indices, updates, reduction):
    x, idx = _row_indices(api, input_x, indices)
    return _assign(x, scatter_nd_reduce(api, x, idx, updates, reduction))


def scatter_update(input_x, indices, updates):
    """input_x[indices[i...]] = updates[i...] along axis 0, in place (updates: indices.shape +
    input_x.shape[1:]; with repeated indices one of the writes wins); returns input_x."""
    x, idx = _row_indices("scatter_update", input_x, indices)
    x, idx, upd = check_scatter_nd("scatter_update", x, idx, updates)
    return _assign(x, prim("TensorScatterUpdate")(x, idx, upd))


def scatter_max(input_x, indices, updates):
    """input_x[indices[i...]] = max(input_x[indices[i...]], updates[i...]) along axis 0, in place (repeated
    indices all count); returns input_x."""
    return _rows_reduce("scatter_max", input_x, indices, updates, "max")


def scatter_min(input_x, indices, updates):
    """input_x[indices[i...]] = min(input_x[indices[i...]], updates[i...]) along axis 0, in place; returns
    input_x."""
    return _rows_reduce("scatter_min", input_x, indices, updates, "min")


def scatter_mul(input_x, indices, updates):
    """input_x[indices[i...]] *= updates[i...] along axis 0, in place (repeats multiply in turn); returns
    input_x."""
    return _rows_reduce("scatter_mul", input_x, indices, updates, "mul")


def scatter_div(input_x, indices, updates):
    """input_x[indices[i...]] /= updates[i...] along axis 0, in place (repeats divide in turn; integer tensors
    truncate); returns input_x."""
    return _rows_reduce("scatter_div", input_x, indices, updates, "div")


def scatter_nd_update(input_x, indices, updates):
    """input_x[indices[i..., :]] = updates[i...] at N-d indices (..., k), in place; returns input_x."""
    x, idx, upd = check_scatter_nd("scatter_nd_update", _target("scatter_nd_update", input_x), indices, updates)
    return _assign(x, prim("TensorScatterUpdate")(x, idx, upd))


def _nd_sum(api, input_x, indices, updates):
    x, idx, upd = check_scatter_nd(api, _target(api, input_x), indices, updates)
    return x, prim("ScatterNd")(idx, upd, x.shape)  # repeated indices add up


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] += updates[i...] at N-d indices (repeats accumulate), in place; returns
    input_x. `use_locking` has no effect (writes are not concurrent)."""
    x, added = _nd_sum("scatter_nd_add", input_x, indices, updates)
    return _assign(x, x + added)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] -= updates[i...] at N-d indices (repeats accumulate), in place; returns
    input_x."""
    x, added = _nd_sum("scatter_nd_sub", input_x, indices, updates)
    return _assign(x, x - added)


def _nd_reduce(api, input_x, indices, updates, reduction):
    x = _target(api, input_x)
    return _assign(x, scatter_nd_reduce(api, x, indices, updates, reduction))


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] *= updates[i...] at N-d indices, in place; returns input_x."""
    return _nd_reduce("scatter_nd_mul", input_x, indices, updates, "mul")


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] /= updates[i...] at N-d indices, in place; returns input_x."""
    return _nd_reduce("scatter_nd_div", input_x, indices, updates, "div")


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] = max(input_x[...], updates[i...]) at N-d indices, in place; returns input_x."""
    return _nd_reduce("scatter_nd_max", input_x, indices, updates, "max")


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    """input_x[indices[i..., :]] = min(input_x[...], updates[i...]) at N-d indices, in place; returns input_x."""
    return _nd_reduce("scatter_nd_min", input_x, indices, updates, "min")


def _inplace_rows(api, x, v, indices, tensor_indices):
    """(x, v, 1-d Int64 row indices) after checking: indices an int or a tuple of ints (or a Tensor where
    `tensor_indices`), v of x's rank with one row per index."""
    x, v = _tensor(x, api, "x"), _tensor(v, api, "v")
    if isinstance(indices, Tensor) and tensor_indices:
        rows = cast(indices.reshape(-1), mstype.int64)
        count = rows.shape[0]
    elif isinstance(indices, int) and not isinstance(indices, bool):
        rows, count = Tensor([indices], mstype.int64), 1
    elif isinstance(indices, tuple) and indices and all(isinstance(i, int) and not isinstance(i, bool)
                                                        for i in indices):
        rows, count = Tensor(list(indices), mstype.int64), len(indices)
    else:
        kinds = "an int, a tuple of ints or a Tensor" if tensor_indices else "an int or a tuple of ints"
        raise TypeError(f"{api}: 'indices' must be {kinds}, but got {indices!r}")
    if x.ndim == 0 or v.shape != (count,) + x.shape[1:]:
        raise ValueError(f"{api}: 'v' must have shape (len(indices),) + x.shape[1:] = {(count,) + x.shape[1:]}, "
                         f"but got {v.shape} (x: {x.shape})")
    if type(rows) is Tensor:  # eager: report a row outside x by its value
        bad = [int(r) for r in rows.asnumpy() if not -x.shape[0] <= r < x.shape[0]]
        if bad:
            raise IndexError(f"{api}: 'indices' holds {bad[0]}, out of range for axis 0 of 'x' of size {x.shape[0]}")
    rows = prim("Select")(prim("Less")(rows, Tensor(0, mstype.int64)), rows + x.shape[0], rows)
    return x, v if v.dtype == x.dtype else cast(v, x.dtype), rows


def inplace_add(x, v, indices):
    """x with v[i] added to row indices[i] (repeats accumulate); a new tensor."""
    x, v, rows = _inplace_rows("inplace_add", x, v, indices, False)
    return x + unsorted_segment_sum(v, rows, x.shape[0])


def inplace_sub(x, v, indices):
    """x with v[i] subtracted from row indices[i] (repeats accumulate); a new tensor."""
    x, v, rows = _inplace_rows("inplace_sub", x, v, indices, False)
    return x - unsorted_segment_sum(v, rows, x.shape[0])


def inplace_update(x, v, indices):
    """x with row indices[i] replaced by v[i]; a new tensor."""
    x, v, rows = _inplace_rows("inplace_update", x, v, indices, True)
    return prim("TensorScatterUpdate")(x, expand_dims(rows, 1), v)


__all__ = ["scatter_update", "scatter_max", "scatter_min", "scatter_mul", "scatter_div", "scatter_nd_update",
           "scatter_nd_add", "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
           "inplace_add", "inplace_sub", "inplace_update"]
TENSOR_METHODS = ["scatter_max", "scatter_min", "scatter_mul", "scatter_div", "inplace_update"]
