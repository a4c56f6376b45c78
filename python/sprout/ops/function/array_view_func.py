"""Array ops that move, pick or repeat axes: broadcast_to, swapaxes/moveaxis, narrow, unbind, hstack/vstack,
atleast_1d/2d/3d, fliplr/flipud/rot90, repeat_interleave, nonzero, scatter; small constructors
(scalar_to_tensor, tuple_to_array) and the tensor queries numel, rank, shape, size.

MindSpore 2.x names and arguments, built from registry primitives (views where the layout allows), so
eager mode, graph mode and autodiff see the same ops.
"""

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import (_axis, _int, _ints, _narrow, _tensor, _tensors, concat, reshape,
                                            tensor_scatter_elements, transpose)


def broadcast_to(input, shape):
    """`input` broadcast to `shape` (NumPy rules; -1 keeps that dimension); a view."""
    x = _tensor(input, "broadcast_to", "input")
    return prim("BroadcastTo", shape=_ints(shape, "broadcast_to", "shape"))(x)


def swapaxes(input, axis0, axis1):
    """`input` with axes `axis0` and `axis1` exchanged; a view."""
    x = _tensor(input, "swapaxes", "input")
    a, b = _axis("swapaxes", "axis0", axis0, x.ndim), _axis("swapaxes", "axis1", axis1, x.ndim)
    perm = list(range(x.ndim))
    if perm:  # a 0-d input has no axes to exchange (axis 0 and -1 name it, as in PyTorch)
        perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def swapdims(input, dim0, dim1):
    """Same as swapaxes (PyTorch's name, kept by MindSpore)."""
    return swapaxes(input, dim0, dim1)


def moveaxis(x, source, destination):
    """`x` with the axes `source` moved to positions `destination`, the others in order; a view."""
    x = _tensor(x, "moveaxis", "x")
    src = [_axis("moveaxis", "source", a, x.ndim) for a in _ints(source, "moveaxis", "source")]
    dst = [_axis("moveaxis", "destination", a, x.ndim) for a in _ints(destination, "moveaxis", "destination")]
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: 'source' and 'destination' must have as many axes, but got {len(src)} "
                         f"and {len(dst)}")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"moveaxis: repeated axis in 'source' {tuple(src)} or 'destination' {tuple(dst)}")
    rest = iter(a for a in range(x.ndim) if a not in src)
    placed = dict(zip(dst, src))
    return transpose(x, [placed[i] if i in placed else next(rest) for i in range(x.ndim)])


def movedim(x, source, destination):
    """Same as moveaxis (PyTorch's name, kept by MindSpore)."""
    return moveaxis(x, source, destination)


def narrow(input, axis, start, length):
    """Elements [start, start + length) of `input` along `axis`; a view."""
    x = _tensor(input, "narrow", "input")
    if x.ndim == 0:
        raise ValueError("narrow: 'input' must have at least one dimension, but got a 0-d tensor")
    axis = _axis("narrow", "axis", axis, x.ndim)
    start, length = _int(start, "narrow", "start"), _int(length, "narrow", "length")
    size = x.shape[axis]
    if start < 0:
        start += size
    if not 0 <= start <= size or length < 0 or start + length > size:
        raise ValueError(f"narrow: 'start' {start} and 'length' {length} must stay within axis {axis} of size "
                         f"{size}")
    return _narrow(x, axis, start, length)


def unbind(input, dim=0):
    """The slices of `input` along `dim`, each without that axis, as a tuple."""
    x = _tensor(input, "unbind", "input")
    dim = _axis("unbind", "dim", dim, x.ndim)
    if x.ndim == 0:
        raise ValueError("unbind: 'input' must have at least one dimension, but got a 0-d tensor")
    shape = x.shape[:dim] + x.shape[dim + 1:]
    return tuple(reshape(narrow(x, dim, i, 1), shape) for i in range(x.shape[dim]))


def _at_least(tensors, api, rank):
    return tuple(reshape(t, (1,) * (rank - t.ndim) + t.shape) if t.ndim < rank else t
                 for t in _tensors(tensors, api, "tensors"))


def hstack(tensors):
    """Tensors joined column-wise: along axis 1, or axis 0 for 1-d ones (NumPy's hstack)."""
    ts = _at_least(tensors, "hstack", 1)
    return concat(ts, 0 if all(t.ndim == 1 for t in ts) else 1)


def vstack(inputs):
    """Tensors joined row-wise along axis 0, 1-d ones as rows (NumPy's vstack)."""
    return concat(_at_least(inputs, "vstack", 2), 0)


def _repeat_counts(repeats):
    """repeat_interleave's `repeats` as an int or a tuple of per-element counts, each checked >= 0."""
    if isinstance(repeats, Tensor):
        if repeats.ndim > 1 or repeats.dtype not in mstype.int_type + mstype.uint_type:
            raise ValueError(f"repeat_interleave: a Tensor 'repeats' must be a 0-d or 1-d integer tensor, but got "
                             f"{repeats.dtype} of shape {repeats.shape}")
        values = repeats.asnumpy().reshape(-1).tolist()  # the output's shape depends on them
        repeats = values[0] if repeats.ndim == 0 else tuple(values)
    if isinstance(repeats, (list, tuple)):
        counts = tuple(_int(r, "repeat_interleave", "repeats") for r in repeats)
    else:
        counts = _int(repeats, "repeat_interleave", "repeats")
    if min(counts if isinstance(counts, tuple) else (counts,), default=0) < 0:
        raise ValueError(f"repeat_interleave: 'repeats' must be >= 0, but got {repeats}")
    return counts


def repeat_interleave(input, repeats, axis=None):
    """Each element repeated along `axis` (over the flattened input when None): `repeats` times (an int),
    or counts[i] times for element i (a list, tuple or 1-d Tensor of one count per element)."""
    x = _tensor(input, "repeat_interleave", "input")
    counts = _repeat_counts(repeats)
    if axis is not None:
        axis = _axis("repeat_interleave", "axis", axis, x.ndim)
    if axis is None or x.ndim == 0:  # over the flattened input (a 0-d one as its one element, as NumPy)
        x, axis = reshape(x, (-1,)), 0
    if isinstance(counts, tuple) and len(counts) == 1:
        counts = counts[0]
    if isinstance(counts, tuple):  # element i's index counts[i] times, then one Gather
        n = x.shape[axis]
        if len(counts) != n:
            raise ValueError(f"repeat_interleave: 'repeats' must hold one count per element along axis {axis} "
                             f"({n}), or a single count, but got {len(counts)} counts")
        index = np.repeat(np.arange(n, dtype=np.int64), counts)
        return prim("Gather")(x, Tensor(index), axis)
    # (..., n, 1, ...) broadcast to (..., n, repeats, ...), then the two axes merged.
    expanded = broadcast_to(reshape(x, x.shape[:axis + 1] + (1,) + x.shape[axis + 1:]),
                            x.shape[:axis + 1] + (counts,) + x.shape[axis + 1:])
    return reshape(expanded, x.shape[:axis] + (x.shape[axis] * counts,) + x.shape[axis + 1:])


def nonzero(input, as_tuple=False):
    """Coordinates of the nonzero elements in row-major order: an (N, ndim) Int64 tensor, or with
    `as_tuple` a tuple of ndim (N,) tensors, one per axis."""
    out = prim("NonZero")(_tensor(input, "nonzero", "input"))
    return unbind(out, 1) if as_tuple else out


def _atleast(api, rank, inputs):
    def lift(t):
        t = _tensor(t, api, "inputs")
        if t.ndim >= rank:
            return t
        if rank < 3:  # leading 1s: (n,) -> (1, n)
            return reshape(t, (1,) * (rank - t.ndim) + t.shape)
        return reshape(t, {0: (1, 1, 1), 1: (1, t.size, 1), 2: t.shape + (1,)}[t.ndim])  # NumPy's placement
    if isinstance(inputs, (tuple, list)):
        return tuple(lift(t) for t in inputs)
    return lift(inputs)


def atleast_1d(inputs):
    """A tensor (or each of a list of tensors) with at least 1 dimension."""
    return _atleast("atleast_1d", 1, inputs)


def atleast_2d(inputs):
    """At least 2 dimensions: a 1-d (n,) becomes (1, n)."""
    return _atleast("atleast_2d", 2, inputs)


def atleast_3d(inputs):
    """At least 3 dimensions: (n,) becomes (1, n, 1) and (m, n) becomes (m, n, 1)."""
    return _atleast("atleast_3d", 3, inputs)


def fliplr(input):
    """Reversed along axis 1 (left to right); at least 2-d."""
    x = _tensor(input, "fliplr", "input")
    if x.ndim < 2:
        raise ValueError(f"fliplr: 'input' must have at least 2 dimensions, but got shape {x.shape}")
    return prim("ReverseV2", axis=(1,))(x)


def flipud(input):
    """Reversed along axis 0 (up to down); at least 1-d."""
    x = _tensor(input, "flipud", "input")
    if x.ndim < 1:
        raise ValueError("flipud: 'input' must have at least 1 dimension, but got a 0-d tensor")
    return prim("ReverseV2", axis=(0,))(x)


def rot90(input, k, dims):
    """Rotated by 90 degrees k times in the plane of `dims`, from dims[0] toward dims[1] (NumPy's rot90)."""
    x = _tensor(input, "rot90", "input")
    k = _int(k, "rot90", "k") % 4
    if not isinstance(dims, (tuple, list)) or len(dims) != 2:
        raise ValueError(f"rot90: 'dims' must be a pair of axes, but got {dims!r}")
    a, b = _axis("rot90", "dims", dims[0], x.ndim), _axis("rot90", "dims", dims[1], x.ndim)
    if a == b:
        raise ValueError(f"rot90: 'dims' must be two different axes, but got {tuple(dims)}")
    flip = lambda t, axis: prim("ReverseV2", axis=(axis,))(t)  # noqa: E731
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, a), b)
    return swapaxes(flip(x, b), a, b) if k == 1 else flip(swapaxes(x, a, b), b)


def scatter(input, axis, index, src):
    """`input` with src[i][j]... written at index[i][j]... along `axis` (tensor_scatter_elements)."""
    return tensor_scatter_elements(input, index, src, axis)


def repeat_elements(x, rep, axis=0):
    """Each slice along `axis` repeated `rep` times in place (MindSpore's name for repeat_interleave)."""
    return repeat_interleave(x, rep, axis)


def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A 0-d tensor of `dtype` holding the Python number `input_x`."""
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(f"scalar_to_tensor: 'input_x' must be an int or float, but got {type(input_x).__name__}")
    return Tensor(input_x, dtype)


def tuple_to_array(input_x):
    """A 1-d tensor of a tuple of numbers (Int32 for ints, as MindSpore 2.10's; Float32 otherwise)."""
    if not isinstance(input_x, tuple) or not input_x or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in input_x):
        raise TypeError(f"tuple_to_array: 'input_x' must be a non-empty tuple of numbers, but got {input_x!r}")
    ints = all(isinstance(v, int) for v in input_x)
    return Tensor(list(input_x), mstype.int32 if ints else mstype.float32)


def numel(input):
    """The number of elements, as a Python int."""
    return _tensor(input, "numel", "input").size


def size(input_x):
    """The number of elements, as a Python int (MindSpore's ops.size)."""
    return _tensor(input_x, "size", "input_x").size


def rank(input_x):
    """The number of dimensions, as a Python int."""
    return _tensor(input_x, "rank", "input_x").ndim


def shape(input_x):
    """The shape, as a tuple of Python ints."""
    return _tensor(input_x, "shape", "input_x").shape


def is_tensor(obj):
    """Whether `obj` is a Tensor (a Parameter included)."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """Whether `input`'s dtype is a floating-point one."""
    return _tensor(input, "is_floating_point", "input").dtype in mstype.float_type


__all__ = ["broadcast_to", "swapaxes", "swapdims", "moveaxis", "movedim", "narrow", "unbind", "hstack", "vstack",
           "repeat_interleave", "nonzero", "scatter", "atleast_1d", "atleast_2d", "atleast_3d", "fliplr", "flipud",
           "rot90", "repeat_elements", "scalar_to_tensor", "tuple_to_array", "numel", "size", "rank", "shape",
           "is_tensor", "is_floating_point"]
TENSOR_METHODS = ["broadcast_to", "swapaxes", "swapdims", "moveaxis", "movedim", "narrow", "unbind",
                  "repeat_interleave", "nonzero", "scatter", "atleast_1d", "atleast_2d", "atleast_3d", "fliplr",
                  "flipud", "rot90", "repeat_elements", "scalar_to_tensor", "tuple_to_array", "numel",
                  "is_floating_point"]
