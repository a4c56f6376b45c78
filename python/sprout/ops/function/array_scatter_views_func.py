"""Out-of-place scatters, MindSpore 2.x names and arguments: a slice, an index or a diagonal of the input
replaced by `src` (select_scatter, slice_scatter, diagonal_scatter), and tensor_scatter_mul/div/max/min at N-d
indices. New tensors, differentiable in both the input and the values written, since they are compositions
of Slice/Concat, TensorScatterUpdate/TensorScatterElements and the segmented reduction of _scatter_reduce."""
import numpy as np

from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function._scatter_reduce import scatter_nd_reduce
from sprout.ops.function.array_func import _axis, _int, _narrow, _tensor, cast, concat, expand_dims, reshape
from sprout.ops.function.array_search_func import diagonal
from sprout.ops.function.array_view_func import broadcast_to, moveaxis


def _src(api, input, src, want):
    x, s = _tensor(input, api, "input"), _tensor(src, api, "src")
    if s.shape != want:
        raise ValueError(f"{api}: 'src' must have shape {want}, but got {s.shape}")
    return x, s if s.dtype == x.dtype else cast(s, x.dtype)


def select_scatter(input, src, axis, index):
    """`input` with its slice at `index` along `axis` replaced by `src` (of input's shape without `axis`)."""
    x = _tensor(input, "select_scatter", "input")
    if x.ndim == 0:
        raise ValueError("select_scatter: 'input' must have at least one dimension, but got a 0-d tensor")
    axis = _axis("select_scatter", "axis", axis, x.ndim)
    size = x.shape[axis]
    index = _int(index, "select_scatter", "index")
    if not -size <= index < size:
        raise ValueError(f"select_scatter: 'index' must be in [{-size}, {size}) for axis {axis} of size {size}, but "
                         f"got {index}")
    index %= size
    x, s = _src("select_scatter", x, src, x.shape[:axis] + x.shape[axis + 1:])
    # Slices joined: only views and one Concat, whose gradient splits back to input and src.
    parts = [_narrow(x, axis, 0, index), expand_dims(s, axis), _narrow(x, axis, index + 1, size - index - 1)]
    return concat([p for p in parts if p.shape[axis]], axis)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """`input` with input[start:end:step] along `axis` replaced by `src` (Python slice rules for the bounds)."""
    x = _tensor(input, "slice_scatter", "input")
    if x.ndim == 0:
        raise ValueError("slice_scatter: 'input' must have at least one dimension, but got a 0-d tensor")
    axis = _axis("slice_scatter", "axis", axis, x.ndim)
    start = None if start is None else _int(start, "slice_scatter", "start")
    end = None if end is None else _int(end, "slice_scatter", "end")
    step = _int(step, "slice_scatter", "step")
    if step <= 0:
        raise ValueError(f"slice_scatter: 'step' must be positive, but got {step}")
    positions = range(*slice(start, end, step).indices(x.shape[axis]))
    x, s = _src("slice_scatter", x, src, x.shape[:axis] + (len(positions),) + x.shape[axis + 1:])
    if not positions:
        return prim("Identity")(x)
    if step == 1:  # a contiguous block: views and a Concat
        first, count = positions[0], len(positions)
        parts = [_narrow(x, axis, 0, first), s, _narrow(x, axis, first + count, x.shape[axis] - first - count)]
        return concat([p for p in parts if p.shape[axis]], axis)
    rows = Tensor(np.asarray(positions, np.int64).reshape(-1, 1))
    out = prim("TensorScatterUpdate")(moveaxis(x, axis, 0), rows, moveaxis(s, axis, 0))
    return moveaxis(out, 0, axis)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """`input` with the diagonal of its (dim1, dim2) planes, `offset` above the main one, replaced by `src`
    (shaped as ops.diagonal(input, offset, dim1, dim2): the other axes, then the diagonal)."""
    x = _tensor(input, "diagonal_scatter", "input")
    want = diagonal(x, offset, dim1, dim2).shape  # checks the rank, dims and offset
    a, b = _axis("diagonal_scatter", "dim1", dim1, x.ndim), _axis("diagonal_scatter", "dim2", dim2, x.ndim)
    x, s = _src("diagonal_scatter", x, src, want)
    count = want[-1]
    if count == 0:
        return prim("Identity")(x)
    planes = moveaxis(x, (a, b), (-2, -1))
    n, m = planes.shape[-2:]
    offset = _int(offset, "diagonal_scatter", "offset")
    start = offset if offset >= 0 else -offset * m
    # The diagonal's positions in each flattened plane, the same for every plane (as ops.diagonal reads them).
    positions = Tensor(np.arange(count, dtype=np.int64) * (m + 1) + start)
    flat = reshape(planes, planes.shape[:-2] + (n * m,))
    written = prim("TensorScatterElements", axis=flat.ndim - 1, reduction="none")(
        flat, broadcast_to(positions, s.shape), s)
    return moveaxis(reshape(written, planes.shape), (-2, -1), (a, b))


def tensor_scatter_mul(input_x, indices, updates):
    """input_x with the slices at the N-d `indices` multiplied by `updates` (repeats multiply in turn); a new
    tensor."""
    return scatter_nd_reduce("tensor_scatter_mul", input_x, indices, updates, "mul")


def tensor_scatter_div(input_x, indices, updates):
    """input_x with the slices at the N-d `indices` divided by `updates` (repeats divide in turn; integer
    tensors truncate); a new tensor."""
    return scatter_nd_reduce("tensor_scatter_div", input_x, indices, updates, "div")


def tensor_scatter_max(input_x, indices, updates):
    """input_x with the slices at the N-d `indices` raised to the elementwise maximum with `updates` (repeats
    included); a new tensor."""
    return scatter_nd_reduce("tensor_scatter_max", input_x, indices, updates, "max")


def tensor_scatter_min(input_x, indices, updates):
    """input_x with the slices at the N-d `indices` lowered to the elementwise minimum with `updates` (repeats
    included); a new tensor."""
    return scatter_nd_reduce("tensor_scatter_min", input_x, indices, updates, "min")


__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "tensor_scatter_mul", "tensor_scatter_div",
           "tensor_scatter_max", "tensor_scatter_min"]
TENSOR_METHODS = ["select_scatter", "slice_scatter", "diagonal_scatter"]
