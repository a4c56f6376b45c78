"""Scatter with a combining rule (product, quotient, maximum, minimum) at N-d indices, repeated indices
included, as a composition of registry primitives: shared by tensor_scatter_mul/div/max/min, the in-place
scatter_* / scatter_nd_* functions and their Tensor methods.

Why not gather, combine and TensorScatterUpdate: with repeated indices only one of the writes survives.
Here the updates are sorted by their (linear) target, each run of equal targets is reduced by a segmented
scan (log2(N) doubling steps, Hillis-Steele), and only the last element of each run, which then holds the
whole run's reduction, is written; the others go to a spare row appended to the input and cut off after.
Every step is a differentiable primitive (Gather, Select, Mul/Maximum/Minimum, TensorScatterUpdate), so the
result has gradients and compiles; sizes are static, so graph mode needs nothing special.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _narrow, _tensor, cast, concat, reshape

_select, _equal, _not_equal = prim("Select"), prim("Equal"), prim("NotEqual")
_COMBINE = {"mul": prim("Mul"), "div": prim("Mul"), "max": prim("Maximum"), "min": prim("Minimum")}


def check_scatter_nd(api, input_x, indices, updates):
    """(x, indices, updates cast to x's dtype) after checking the shapes: indices (..., k) with k <= x.ndim,
    updates indices.shape[:-1] + x.shape[k:]. Eager indices are checked against x's shape (compiled code
    cannot read them)."""
    x = _tensor(input_x, api, "input_x")
    idx = _tensor(indices, api, "indices")
    if idx.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'indices' must be an int32 or int64 tensor, but got {idx.dtype}")
    if idx.ndim < 1 or idx.shape[-1] > x.ndim or idx.shape[-1] < 1:
        raise ValueError(f"{api}: 'indices' must have shape (..., k) with 1 <= k <= {x.ndim} (the rank of "
                         f"'input_x'), but got shape {idx.shape}")
    upd = _tensor(updates, api, "updates")
    want = idx.shape[:-1] + x.shape[idx.shape[-1]:]
    if upd.shape != want:
        raise ValueError(f"{api}: 'updates' must have shape indices.shape[:-1] + input_x.shape[k:] = {want}, "
                         f"but got {upd.shape}")
    if type(idx) is Tensor and idx.size:  # eager: report a bad index by its value
        values = idx.asnumpy().reshape(-1, idx.shape[-1])
        dims = np.asarray(x.shape[:idx.shape[-1]])
        bad = (values < -dims) | (values >= dims)
        if bad.any():
            row, axis = np.argwhere(bad)[0]
            raise IndexError(f"{api}: 'indices' holds {int(values[row, axis])} for axis {axis} of 'input_x', "
                             f"whose size is {dims[axis]}")
    return x, idx, upd if upd.dtype == x.dtype else cast(upd, x.dtype)


def _shift(t, by, fill):
    """t moved `by` rows down along axis 0 (`fill` entering at the top; by < 0 moves up)."""
    n = t.shape[0]
    block = prim("Fill")(t.dtype, (abs(by),) + t.shape[1:], fill)
    if by > 0:
        return concat([block, _narrow(t, 0, 0, n - by)], 0)
    return concat([_narrow(t, 0, -by, n + by), block], 0)


def scatter_nd_reduce(api, input_x, indices, updates, reduction):
    """input_x with `updates` combined into it at the N-d `indices` by `reduction` ('mul', 'div', 'max',
    'min'); repeated indices all take part (x * u1 * u2, x / (u1 * u2), max(x, u1, u2) ...). A new tensor."""
    x, idx, upd = check_scatter_nd(api, input_x, indices, updates)
    k = idx.shape[-1]
    rows = int(np.prod(x.shape[:k], dtype=np.int64))
    n = int(np.prod(idx.shape[:-1], dtype=np.int64))
    if n == 0:
        return prim("Identity")(x)
    # Linear row numbers of the targets (negative indices count from the end, as TensorScatterUpdate's).
    dims = Tensor(np.asarray(x.shape[:k], np.int64))
    idx = reshape(cast(idx, mstype.int64), (n, k))
    idx = _select(prim("Less")(idx, Tensor(0, mstype.int64)), idx + dims, idx)
    strides = Tensor(np.asarray([int(np.prod(x.shape[i + 1:k], dtype=np.int64)) for i in range(k)], np.int64))
    target = prim("ReduceSum", keep_dims=False)(idx * strides, (1,))
    target, order = prim("Sort", axis=0, descending=False)(target)
    values = prim("Gather")(reshape(upd, (n, -1)), order, 0)
    combine = _COMBINE[reduction]
    step = 1
    while step < n:  # after this step, row i holds the reduction of its run's rows (i - 2 step, i]
        same = reshape(_equal(target, _shift(target, step, -1)), (n, 1))
        values = _select(same, combine(values, _shift(values, step, 0)), values)
        step *= 2
    last = _not_equal(target, _shift(target, -1, -1))
    target = _select(last, target, Tensor(rows, mstype.int64))  # the others write the spare row
    flat = reshape(x, (rows, -1))
    padded = concat([flat, prim("Fill")(x.dtype, (1, flat.shape[1]), 0)], 0)
    current = prim("Gather")(padded, target, 0)
    if reduction == "div":
        new = prim("Div")(current, values)
        if x.dtype not in mstype.float_type:  # integer quotients truncate, as MindSpore's
            new = cast(new, x.dtype)
    else:
        new = combine(current, values)
    out = prim("TensorScatterUpdate")(padded, reshape(target, (n, 1)), new)
    return reshape(_narrow(out, 0, 0, rows), x.shape)
