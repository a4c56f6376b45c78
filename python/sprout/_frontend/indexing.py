"""Tensor indexing on GraphTensors: x[i], x[a:b:c], x[None], x[...], x[tensor], and x[...] = v.

Indices are compile-time values (ints, slices, None, Ellipsis) or one integer tensor; the result's
shape is known at compile time, so boolean-mask indexing (a data-dependent shape) is refused with
advice. Reads are StridedSlice/Gather/Reshape nodes; a write is a TensorScatterUpdate that gives
the updated tensor (graph values are immutable).
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim


def _normalize(x, index):
    items = list(index) if isinstance(index, tuple) else [index]
    if any(isinstance(i, Tensor) and i.dtype == mstype.bool_ for i in items):
        raise IndexError("graph mode: indexing with a boolean mask gives a shape known only at run time; use "
                         "ops.masked_select or ops.select instead")
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    if n_real > x.ndim:
        raise IndexError(f"too many indices for a tensor of dimension {x.ndim}: {n_real} given")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (x.ndim - n_real)
    return items + [slice(None)] * (x.ndim - sum(1 for i in items if i is not None))


def getitem(x, index):
    items = _normalize(x, index)
    tensor_dims = [k for k, i in enumerate(items) if isinstance(i, Tensor)]
    if tensor_dims:
        if len(tensor_dims) > 1 or any(not isinstance(i, slice) or i != slice(None)
                                       for k, i in enumerate(items) if k not in tensor_dims and i is not None):
            raise IndexError("graph mode: a tensor index combines only with ':' on the other dimensions")
        axis = sum(1 for i in items[:tensor_dims[0]] if i is not None)
        out = prim("Gather")(x, items[tensor_dims[0]], axis)
        return out
    begin, end, strides, shape = [], [], [], []
    dim = 0
    gathers = []
    for item in items:
        if item is None:
            shape.append(1)
            continue
        size = x.shape[dim]
        if isinstance(item, (bool, np.bool_)):
            raise IndexError("graph mode: a Python bool as an index is not supported")
        if isinstance(item, (int, np.integer)):
            i = int(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            i %= size
            begin.append(i), end.append(i + 1), strides.append(1)
        elif isinstance(item, slice):
            start, stop, step = item.indices(size)
            count = len(range(start, stop, step))
            if step < 0:  # StridedSlice here takes forward steps: gather the elements instead
                gathers.append((dim, list(range(start, stop, step))))
                begin.append(0), end.append(size), strides.append(1)
            else:
                begin.append(start), end.append(start + max(count - 1, 0) * step + 1 if count else start)
                strides.append(step)
            shape.append(count)
        else:
            raise IndexError(f"graph mode: unsupported index {type(item).__name__}")
        dim += 1
    out = x
    if begin != [0] * len(begin) or end != list(x.shape) or strides != [1] * len(strides):
        out = prim("StridedSlice")(x, tuple(begin), tuple(end), tuple(strides))
    for axis, picks in gathers:
        out = prim("Gather")(out, Tensor(np.array(picks, np.int64)), axis)
    if tuple(out.shape) != tuple(shape):
        out = prim("Reshape")(out, tuple(shape))
    return out


def setitem(x, index, value):
    """x with x[index] replaced by value (broadcast), as a new graph value."""
    positions = np.arange(int(np.prod(x.shape)) if x.shape else 1, dtype=np.int64).reshape(x.shape)
    picked = positions[index] if not isinstance(index, Tensor) else None
    if picked is None:
        raise IndexError("graph mode: assigning through a tensor index is not supported; use ops.scatter_nd_update")
    flat = prim("Reshape")(x, (-1,))
    indices = Tensor(picked.reshape(-1, 1))
    if not isinstance(value, Tensor):
        value = Tensor(np.full(picked.shape, value), dtype=x.dtype)
    value = prim("Cast")(value, x.dtype)
    if tuple(value.shape) != picked.shape:
        value = prim("BroadcastTo", shape=tuple(picked.shape))(value)
    updates = prim("Reshape")(value, (-1,))
    return prim("Reshape")(prim("TensorScatterUpdate")(flat, indices, updates), tuple(x.shape))
