"""mindspore.numpy.array_ops: NumPy's shape, joining, splitting and indexing functions on Sprout tensors,
with MindSpore's arguments and dtype rules (Python ints become int32, floats float32; joined arrays of
different dtypes are promoted as MindSpore's tensors are).

Index tables that depend only on shapes and Python arguments (repeat counts, split points) are NumPy
constants; everything computed from values goes through sprout.ops, so it differentiates and compiles.
Functions whose output length depends on values (unique, intersect1d, argwhere, where with one argument)
have MindSpore's dynamic shapes.
"""
import builtins

import numpy as np

from sprout import _C, ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.numpy._numpy_args import (check_axes, check_axis, check_bool, check_int, check_ints, check_shape,
                                      to_tensor, to_tensors)


def _building_graph():
    from sprout._frontend import is_building_graph
    return is_building_graph()


def _promoted(tensors):
    """The tensors cast to the dtype MindSpore promotes them to together."""
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = _C.promote_types(dtype, t.dtype)
    return tuple(t if t.dtype == dtype else ops.cast(t, dtype) for t in tensors)


def _sequence_of_arrays(arrays, api, arg):
    """A tuple/list of array-likes, or a Tensor taken as the sequence of its sub-arrays along axis 0."""
    if isinstance(arrays, Tensor):
        if arrays.ndim == 0:
            raise ValueError(f"{api}: '{arg}' as a Tensor must have at least one dimension, but got a 0-d tensor")
        return tuple(arrays[i] for i in builtins.range(arrays.shape[0]))
    tensors = to_tensors(arrays, api, arg)
    if not tensors:
        raise ValueError(f"{api}: '{arg}' must hold at least one array")
    return tensors


# ---- shape --------------------------------------------------------------------------------------

def transpose(a, axes=None):
    """`a` with its axes permuted as `axes` says (reversed when None)."""
    a = to_tensor(a, "transpose", "a")
    if axes is None:
        perm = tuple(builtins.range(a.ndim - 1, -1, -1))
    else:
        perm = check_axes(axes, a.ndim, "transpose", "axes")
        if len(perm) != a.ndim:
            raise ValueError(f"transpose: 'axes' must name each of the {a.ndim} axes once, but got {axes!r}")
    return ops.transpose(a, perm)


def expand_dims(a, axis):
    """`a` with axes of size 1 inserted at `axis` (an int or a tuple: positions in the result)."""
    a = to_tensor(a, "expand_dims", "a")
    axes = check_axes(axis, a.ndim + len(check_ints(axis, "expand_dims", "axis")), "expand_dims")
    shape, dims = [], iter(a.shape)
    for i in builtins.range(a.ndim + len(axes)):
        shape.append(1 if i in axes else next(dims))
    return ops.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    """`a` without its axes of size 1 (only `axis`, an int or a tuple, when given; each must be size 1)."""
    a = to_tensor(a, "squeeze", "a")
    if axis is None:
        axes = tuple(i for i, d in enumerate(a.shape) if d == 1)
    else:
        axes = check_axes(axis, builtins.max(a.ndim, 1), "squeeze")
        for i in axes:
            if a.ndim and a.shape[i] != 1:
                raise ValueError(f"squeeze: axis {i} of 'a' has size {a.shape[i]}; only axes of size 1 can be "
                                 f"removed (shape {tuple(a.shape)})")
    return ops.reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def rollaxis(x, axis, start=0):
    """`x` with axis `axis` moved to just before position `start` (NumPy's rollaxis)."""
    x = to_tensor(x, "rollaxis", "x")
    axis = check_axis(axis, x.ndim, "rollaxis")
    start = check_int(start, "rollaxis", "start")
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"rollaxis: 'start' must be in [{-x.ndim}, {x.ndim}], but got {start}")
    if start < 0:
        start += x.ndim
    if axis < start:
        start -= 1
    perm = [i for i in builtins.range(x.ndim) if i != axis]
    perm.insert(start, axis)
    return ops.transpose(x, tuple(perm))


def swapaxes(x, axis1, axis2):
    """`x` with axes `axis1` and `axis2` exchanged."""
    x = to_tensor(x, "swapaxes", "x")
    axis1 = check_axis(axis1, x.ndim, "swapaxes", "axis1")
    axis2 = check_axis(axis2, x.ndim, "swapaxes", "axis2")
    perm = list(builtins.range(x.ndim))
    perm[axis1], perm[axis2] = axis2, axis1
    return ops.transpose(x, tuple(perm))


def moveaxis(a, source, destination):
    """`a` with the axes `source` moved to positions `destination` (ints or tuples of one length); the
    other axes keep their order."""
    a = to_tensor(a, "moveaxis", "a")
    source = check_axes(source, a.ndim, "moveaxis", "source")
    destination = check_axes(destination, a.ndim, "moveaxis", "destination")
    if len(source) != len(destination):
        raise ValueError(f"moveaxis: 'source' and 'destination' must have the same number of axes, but got "
                         f"{len(source)} and {len(destination)}")
    perm = [i for i in builtins.range(a.ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return ops.transpose(a, tuple(perm))


def reshape(x, new_shape):
    """The elements of `x` in shape `new_shape` (an int or a tuple; one entry may be -1)."""
    x = to_tensor(x, "reshape", "x")
    shape = check_ints(new_shape, "reshape", "new_shape")
    if builtins.sum(d == -1 for d in shape) > 1 or builtins.any(d < -1 for d in shape):
        raise ValueError(f"reshape: 'new_shape' may hold one -1 and otherwise non-negative sizes, but got {new_shape!r}")
    known = int(np.prod([d for d in shape if d != -1]))
    if (-1 not in shape and known != x.size) or (-1 in shape and (known == 0 or x.size % known)):
        raise ValueError(f"reshape: cannot reshape an array of shape {tuple(x.shape)} ({x.size} elements) into "
                         f"shape {shape}")
    return ops.reshape(x, shape)


def ravel(x):
    """The elements of `x` as a 1-d Tensor, in row-major order."""
    return ops.reshape(to_tensor(x, "ravel", "x"), (-1,))


def _atleast(api, arys, ndim):
    out = []
    for t in (to_tensor(a, api, "arys") for a in arys):
        if t.ndim < ndim:
            # NumPy's placement: 1-d -> (1, n) for 2-d, (1, n, 1) for 3-d; 2-d -> (m, n, 1).
            shape = tuple(t.shape)
            if ndim == 1:
                shape = (1,)
            elif ndim == 2:
                shape = (1,) * (2 - len(shape)) + shape
            else:
                shape = {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]
            t = ops.reshape(t, shape)
        out.append(t)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """Each input as a Tensor of at least one dimension (one input: the Tensor; several: a list)."""
    return _atleast("atleast_1d", arys, 1)


def atleast_2d(*arys):
    """Each input as a Tensor of at least two dimensions (new axes in front)."""
    return _atleast("atleast_2d", arys, 2)


def atleast_3d(*arys):
    """Each input as a Tensor of at least three dimensions (a vector of n as (1, n, 1), a matrix as
    (m, n, 1))."""
    return _atleast("atleast_3d", arys, 3)


def broadcast_to(array, shape):
    """`array` broadcast to `shape`."""
    x = to_tensor(array, "broadcast_to", "array")
    shape = check_shape(shape, "broadcast_to")
    try:
        if np.broadcast_shapes(tuple(x.shape), shape) != shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"broadcast_to: an array of shape {tuple(x.shape)} cannot be broadcast to {shape}") from None
    return ops.broadcast_to(x, shape)


def _broadcast_shape(api, tensors):
    try:
        return np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    except ValueError:
        raise ValueError(f"{api}: shapes {[tuple(t.shape) for t in tensors]} do not broadcast together") from None


def broadcast_arrays(*args):
    """The inputs broadcast to their common shape, as a list."""
    tensors = [to_tensor(a, "broadcast_arrays", "args") for a in args]
    shape = _broadcast_shape("broadcast_arrays", tensors)
    return [t if tuple(t.shape) == shape else ops.broadcast_to(t, shape) for t in tensors]


def tile(a, reps):
    """`a` repeated `reps` times along each axis (`reps` an int or a tuple; the shorter of the two is
    padded with ones in front)."""
    a = to_tensor(a, "tile", "a")
    reps = check_ints(reps, "tile", "reps")
    if builtins.any(r < 0 for r in reps):
        raise ValueError(f"tile: 'reps' must be non-negative, but got {reps}")
    if len(reps) < a.ndim:
        reps = (1,) * (a.ndim - len(reps)) + reps
    elif len(reps) > a.ndim:
        a = ops.reshape(a, (1,) * (len(reps) - a.ndim) + tuple(a.shape))
    return ops.tile(a, reps)


def size(a, axis=None):
    """The number of elements of `a`, or along `axis`; a Python int."""
    a = to_tensor(a, "size", "a")
    if axis is None:
        return a.size
    return a.shape[check_axis(axis, a.ndim, "size")]


# ---- joining ------------------------------------------------------------------------------------

def concatenate(arrays, axis=0):
    """The arrays joined along `axis` (flattened first when None); dtypes are promoted together. A Tensor
    is taken as the sequence of its sub-arrays along axis 0."""
    tensors = _sequence_of_arrays(arrays, "concatenate", "arrays")
    if axis is None:
        tensors = tuple(ops.reshape(t, (-1,)) for t in tensors)
        axis = 0
    ndim = tensors[0].ndim
    for t in tensors:
        if t.ndim != ndim:
            raise ValueError(f"concatenate: the arrays must have the same number of dimensions, but got shapes "
                             f"{[tuple(x.shape) for x in tensors]}")
    if ndim == 0:
        raise ValueError("concatenate: 0-d arrays cannot be concatenated")
    axis = check_axis(axis, ndim, "concatenate")
    for t in tensors:
        if tuple(d for i, d in enumerate(t.shape) if i != axis) != \
                tuple(d for i, d in enumerate(tensors[0].shape) if i != axis):
            raise ValueError(f"concatenate: the arrays must match in shape except along axis {axis}, but got "
                             f"shapes {[tuple(x.shape) for x in tensors]}")
    return ops.concat(_promoted(tensors), axis)


def append(arr, values, axis=None):
    """`values` appended to `arr` along `axis` (both flattened first when None)."""
    arr = to_tensor(arr, "append", "arr")
    values = to_tensor(values, "append", "values")
    if axis is None:
        return concatenate((ops.reshape(arr, (-1,)), ops.reshape(values, (-1,))), 0)
    return concatenate((arr, values), axis)


def stack(arrays, axis=0):
    """The arrays, all of one shape, joined along a new axis `axis`."""
    tensors = _sequence_of_arrays(arrays, "stack", "arrays")
    shapes = {tuple(t.shape) for t in tensors}
    if len(shapes) != 1:
        raise ValueError(f"stack: the arrays must have the same shape, but got {[tuple(t.shape) for t in tensors]}")
    axis = check_axis(axis, tensors[0].ndim + 1, "stack")
    return ops.stack(_promoted(tensors), axis)


def hstack(tup):
    """The arrays joined along axis 1 (axis 0 for 1-d arrays)."""
    tensors = _sequence_of_arrays(tup, "hstack", "tup")
    tensors = [ops.reshape(t, (1,)) if t.ndim == 0 else t for t in tensors]
    return concatenate(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tup):
    """The arrays joined along axis 0, 1-d arrays of n taken as rows (1, n)."""
    tensors = _sequence_of_arrays(tup, "vstack", "tup")
    return concatenate([_atleast("vstack", (t,), 2) for t in tensors], 0)


def dstack(tup):
    """The arrays joined along axis 2, after atleast_3d."""
    tensors = _sequence_of_arrays(tup, "dstack", "tup")
    return concatenate([_atleast("dstack", (t,), 3) for t in tensors], 2)


def column_stack(tup):
    """1-d arrays as the columns of a 2-d array (2-d arrays joined along axis 1)."""
    tensors = _sequence_of_arrays(tup, "column_stack", "tup")
    return concatenate([ops.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in tensors], 1)


# ---- splitting ----------------------------------------------------------------------------------

def _split(api, x, indices_or_sections, axis, equal):
    x = to_tensor(x, api, "x")
    if x.ndim == 0:
        raise ValueError(f"{api}: 'x' must have at least one dimension, but got a 0-d tensor")
    axis = check_axis(axis, x.ndim, api)
    n = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"{api}: 'indices_or_sections' as a number of sections must be positive, but got "
                             f"{sections}")
        if equal and n % sections:
            raise ValueError(f"{api}: an axis of size {n} does not split into {sections} equal sections; "
                             f"array_split allows unequal ones")
        lengths = [n // sections + (i < n % sections) for i in builtins.range(sections)]
        bounds = np.cumsum([0] + lengths).tolist()
        pieces = list(zip(bounds[:-1], bounds[1:]))
        as_list = False
    elif isinstance(indices_or_sections, (tuple, list)):
        points = [check_int(i, api, "indices_or_sections") for i in indices_or_sections]
        cuts = [None] + points + [None]
        pieces = []
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            start, stop, _ = builtins.slice(lo, hi).indices(n)
            pieces.append((start, builtins.max(start, stop)))
        as_list = True  # MindSpore gives a list for split points, a tuple for a section count
    elif isinstance(indices_or_sections, Tensor):
        return _split(api, x, [int(v) for v in indices_or_sections.asnumpy().reshape(-1)], axis, equal)
    else:
        raise TypeError(f"{api}: 'indices_or_sections' must be an int or a tuple or list of ints, but got "
                        f"{indices_or_sections!r}")
    out = [ops.narrow(x, axis, lo, hi - lo) for lo, hi in pieces]
    return out if as_list else tuple(out)


def split(x, indices_or_sections, axis=0):
    """`x` split along `axis` into `indices_or_sections` equal pieces (an int, which must divide the axis)
    or at the given indices (a list or tuple)."""
    return _split("split", x, indices_or_sections, axis, True)


def array_split(x, indices_or_sections, axis=0):
    """split allowing unequal pieces: n sections of an axis of size l are l % n of size l // n + 1 and the
    rest of size l // n."""
    return _split("array_split", x, indices_or_sections, axis, False)


def vsplit(x, indices_or_sections):
    """split along axis 0."""
    return _split("vsplit", x, indices_or_sections, 0, True)


def hsplit(x, indices_or_sections):
    """split along axis 1 (axis 0 for a 1-d `x`)."""
    x = to_tensor(x, "hsplit", "x")
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, True)


def dsplit(x, indices_or_sections):
    """split along axis 2 (`x` must have at least three dimensions)."""
    x = to_tensor(x, "dsplit", "x")
    if x.ndim < 3:
        raise ValueError(f"dsplit: 'x' must have at least 3 dimensions, but got shape {tuple(x.shape)}")
    return _split("dsplit", x, indices_or_sections, 2, True)


# ---- reordering ---------------------------------------------------------------------------------

def flip(m, axis=None):
    """`m` with the order of elements reversed along `axis` (an int or a tuple; all axes when None)."""
    m = to_tensor(m, "flip", "m")
    axes = tuple(builtins.range(m.ndim)) if axis is None else check_axes(axis, m.ndim, "flip")
    return ops.flip(m, axes) if axes else m


def flipud(m):
    """`m` reversed along axis 0."""
    m = to_tensor(m, "flipud", "m")
    if m.ndim < 1:
        raise ValueError("flipud: 'm' must have at least one dimension, but got a 0-d tensor")
    return ops.flip(m, (0,))


def fliplr(m):
    """`m` reversed along axis 1."""
    m = to_tensor(m, "fliplr", "m")
    if m.ndim < 2:
        raise ValueError(f"fliplr: 'm' must have at least two dimensions, but got shape {tuple(m.shape)}")
    return ops.flip(m, (1,))


def roll(a, shift, axis=None):
    """`a` with elements shifted by `shift` along `axis` (ints or tuples of one length); those leaving one
    end come in at the other. With axis=None the flattened array is rolled and the shape restored."""
    a = to_tensor(a, "roll", "a")
    shifts = check_ints(shift, "roll", "shift")
    if axis is None:
        flat = ops.reshape(a, (-1,))
        return ops.reshape(ops.roll(flat, builtins.sum(shifts), 0), tuple(a.shape)) if a.size else a
    axes = [check_axis(ax, a.ndim, "roll") for ax in check_ints(axis, "roll", "axis")]
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: 'shift' and 'axis' must have the same length, but got {shift!r} and {axis!r}")
    total = {}
    for ax, s in zip(axes, shifts):
        total[ax] = total.get(ax, 0) + s
    out = a
    for ax, s in total.items():
        if a.shape[ax]:
            out = ops.roll(out, s % a.shape[ax], ax)
    return out


def rot90(a, k=1, axes=(0, 1)):
    """`a` rotated by 90 degrees `k` times in the plane of `axes`, from the first axis towards the second."""
    a = to_tensor(a, "rot90", "a")
    k = check_int(k, "rot90", "k")
    axes = check_axes(axes, a.ndim, "rot90", "axes") if a.ndim >= 2 else None
    if axes is None or len(axes) != 2:
        raise ValueError(f"rot90: 'axes' must be two different axes of an array of at least 2 dimensions, but got "
                         f"{axes!r} for shape {tuple(a.shape)}")
    k %= 4
    ax0, ax1 = axes
    if k == 0:
        return a
    if k == 2:
        return ops.flip(a, (ax0, ax1))
    perm = list(builtins.range(a.ndim))
    perm[ax0], perm[ax1] = ax1, ax0
    if k == 1:
        return ops.transpose(ops.flip(a, (ax1,)), tuple(perm))
    return ops.flip(ops.transpose(a, tuple(perm)), (ax1,))


# ---- selecting ----------------------------------------------------------------------------------

def where(condition, x=None, y=None):
    """Elements of `x` where `condition` is True, else of `y` (broadcast together; dtypes promoted). With
    neither x nor y, the indices of the True elements, one Tensor per axis (NumPy's nonzero)."""
    condition = to_tensor(condition, "where", "condition")
    if x is None and y is None:
        positions = ops.argwhere(condition)
        return tuple(positions[:, i] for i in builtins.range(condition.ndim))
    if x is None or y is None:
        raise ValueError("where: give both 'x' and 'y', or neither")
    x, y = _promoted((to_tensor(x, "where", "x"), to_tensor(y, "where", "y")))
    if condition.dtype != mstype.bool_:
        condition = ops.cast(condition, mstype.bool_)
    shape = _broadcast_shape("where", (condition, x, y))
    return ops.where(ops.broadcast_to(condition, shape), ops.broadcast_to(x, shape), ops.broadcast_to(y, shape))


def _index_mode(api, indices, n, mode):
    """Indices into an axis of size n made valid by `mode`: 'clip' to [0, n-1], 'wrap' modulo n, 'raise'
    checked (eagerly: a compiled graph has no index values to check)."""
    if mode == 'clip':
        return ops.clamp(indices, 0, n - 1)
    if mode == 'wrap':
        return ops.remainder(indices, n)
    if mode == 'raise':
        if _building_graph():
            raise ValueError(f"{api}: mode='raise' checks the index values, which a graph being compiled does not "
                             f"have; use mode='clip' or 'wrap' in compiled code")
        values = indices.asnumpy()
        if values.size and (values.min() < -n or values.max() >= n):
            raise IndexError(f"{api}: index {values.min() if values.min() < -n else values.max()} is out of "
                             f"bounds for an axis of size {n}")
        return ops.where(indices < 0, indices + n, indices)
    raise ValueError(f"{api}: 'mode' must be 'clip', 'wrap' or 'raise', but got {mode!r}")


def _int_indices(api, arg, indices):
    indices = to_tensor(indices, api, arg)
    if indices.dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8):
        raise TypeError(f"{api}: '{arg}' must hold integers, but got dtype {indices.dtype}")
    return indices if indices.dtype in (mstype.int32, mstype.int64) else ops.cast(indices, mstype.int32)


def take(a, indices, axis=None, mode='clip'):
    """Elements of `a` at `indices` along `axis` (of the flattened `a` when None): the result has the
    shape a.shape[:axis] + indices.shape + a.shape[axis + 1:]. Out-of-range indices follow `mode`."""
    a = to_tensor(a, "take", "a")
    indices = _int_indices("take", "indices", indices)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = check_axis(axis, a.ndim, "take")
    if a.shape[axis] == 0:
        raise IndexError("take: cannot take from an empty axis")
    return ops.gather(a, _index_mode("take", indices, a.shape[axis], mode), axis)


def take_along_axis(arr, indices, axis):
    """Elements of `arr` at `indices` along `axis` (indices broadcast against `arr` on the other axes;
    axis=None takes from the flattened `arr`). Negative indices count from the end."""
    arr = to_tensor(arr, "take_along_axis", "arr")
    indices = _int_indices("take_along_axis", "indices", indices)
    if axis is None:
        arr, axis = ops.reshape(arr, (-1,)), 0
        if indices.ndim != 1:
            raise ValueError(f"take_along_axis: with axis=None 'indices' must be 1-d, but got shape "
                             f"{tuple(indices.shape)}")
    axis = check_axis(axis, arr.ndim, "take_along_axis")
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: 'indices' must have the rank of 'arr', {arr.ndim}, but got shape "
                         f"{tuple(indices.shape)}")
    shape_arr, shape_idx = list(arr.shape), list(indices.shape)
    shape_arr[axis] = shape_idx[axis] = 1
    common = list(_broadcast_shape("take_along_axis", (ops.zeros(tuple(shape_arr)), ops.zeros(tuple(shape_idx)))))
    index_shape, arr_shape = list(common), list(common)
    index_shape[axis], arr_shape[axis] = indices.shape[axis], arr.shape[axis]
    indices = ops.broadcast_to(indices, tuple(index_shape))
    arr = ops.broadcast_to(arr, tuple(arr_shape))
    indices = ops.where(indices < 0, indices + arr.shape[axis], indices)
    return ops.gather_elements(arr, axis, indices)


def repeat(a, repeats, axis=None):
    """Each element of `a` repeated along `axis` (of the flattened `a` when None): `repeats` is one count
    for all, or a count per element."""
    a = to_tensor(a, "repeat", "a")
    counts = check_ints(repeats, "repeat", "repeats")
    if builtins.any(c < 0 for c in counts):
        raise ValueError(f"repeat: 'repeats' must be non-negative, but got {repeats!r}")
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = check_axis(axis, a.ndim, "repeat")
    n = a.shape[axis]
    if len(counts) not in (1, n):
        raise ValueError(f"repeat: 'repeats' must be one count or {n} counts, but got {len(counts)}")
    positions = np.repeat(np.arange(n), counts if len(counts) == n else counts[0])
    return ops.gather(a, Tensor(positions.astype(np.int32)), axis)


def select(condlist, choicelist, default=0):
    """Per element, the entry of the first of `choicelist` whose condition in `condlist` holds, else
    `default` (all broadcast together)."""
    if not isinstance(condlist, (tuple, list, Tensor)) or not isinstance(choicelist, (tuple, list, Tensor)):
        raise TypeError("select: 'condlist' and 'choicelist' must be lists of arrays")
    conds = _sequence_of_arrays(condlist, "select", "condlist")
    choices = _sequence_of_arrays(choicelist, "select", "choicelist")
    if len(conds) != len(choices):
        raise ValueError(f"select: 'condlist' and 'choicelist' must have the same length, but got {len(conds)} and "
                         f"{len(choices)}")
    default = to_tensor(default, "select", "default")
    values = _promoted(choices + (default,))
    shape = _broadcast_shape("select", conds + values)
    out = ops.broadcast_to(values[-1], shape)
    for cond, choice in zip(reversed(conds), reversed(values[:-1])):
        if cond.dtype != mstype.bool_:
            cond = ops.cast(cond, mstype.bool_)
        out = ops.where(ops.broadcast_to(cond, shape), ops.broadcast_to(choice, shape), out)
    return out


def choose(a, choices, mode='clip'):
    """Per element, choices[a][element] (all broadcast together); out-of-range `a` follows `mode`:
    'clip' (default), 'wrap' or 'raise'."""
    a = _int_indices("choose", "a", a)
    options = _promoted(_sequence_of_arrays(choices, "choose", "choices"))
    shape = _broadcast_shape("choose", (a,) + options)
    stacked = ops.stack([ops.broadcast_to(c, shape) for c in options], 0)
    picks = _index_mode("choose", ops.broadcast_to(a, shape), len(options), mode)
    return ops.squeeze(ops.gather_elements(stacked, 0, ops.expand_dims(picks, 0)), 0)


def piecewise(x, condlist, funclist, *args, **kw):
    """Per element of `x`, the value of the function (or constant) of the first condition that holds;
    a last extra entry of `funclist` is the value where none does (else 0). Functions are called as
    func(x, *args, **kw) on the whole `x`, as MindSpore's."""
    x = to_tensor(x, "piecewise", "x")
    if isinstance(condlist, Tensor) and condlist.dtype == mstype.bool_ and condlist.shape == x.shape:
        condlist = [condlist]
    if not isinstance(funclist, (tuple, list)):
        funclist = [funclist]
    conds = list(_sequence_of_arrays(condlist, "piecewise", "condlist"))
    values = [f(x, *args, **kw) if callable(f) else f for f in funclist]
    if len(values) == len(conds) + 1:
        default = values.pop()
    elif len(values) == len(conds):
        default = 0
    else:
        raise ValueError(f"piecewise: 'funclist' must have {len(conds)} or {len(conds) + 1} entries, but got "
                         f"{len(values)}")
    return select(conds, values, default)


def unravel_index(indices, shape, order='C'):
    """The coordinates, one Tensor per axis of `shape`, of flat `indices` into an array of that shape
    (order 'C': row-major, 'F': column-major). As MindSpore's, indices past the end are clipped to the last
    element and negative ones count from the end."""
    indices = _int_indices("unravel_index", "indices", indices)
    shape = check_shape(shape, "unravel_index")
    if order not in ('C', 'F'):
        raise ValueError(f"unravel_index: 'order' must be 'C' or 'F', but got {order!r}")
    dims = shape if order == 'C' else shape[::-1]
    total = int(np.prod(shape))
    if total == 0:
        raise ValueError(f"unravel_index: cannot unravel into the empty shape {shape}")
    flat = ops.clamp(indices, -total, total - 1)
    flat = ops.remainder(flat, total)
    strides = np.cumprod((1,) + dims[::-1])[::-1].tolist()  # elements per step of each axis, and the total
    coords = [ops.floor_divide(ops.remainder(flat, strides[i]), strides[i + 1]) for i in builtins.range(len(dims))]
    return tuple(coords if order == 'C' else coords[::-1])


def argwhere(a):
    """The indices of the nonzero elements of `a`, one row each: shape (count, a.ndim), int64."""
    return ops.argwhere(to_tensor(a, "argwhere", "a"))


def unique(x, return_inverse=False):
    """The sorted unique elements of `x` (flattened); with `return_inverse`, also for each element of the
    flattened `x` its position among them."""
    x = ravel(to_tensor(x, "unique", "x"))
    values, inverse = ops.unique(x)
    return (values, inverse) if check_bool(return_inverse, "unique", "return_inverse") else values


def _first_positions(values, within):
    """For each of `values`, the first position of it in the 1-d `within` (each one present there)."""
    matches = ops.equal(ops.expand_dims(values, 1), ops.expand_dims(within, 0))
    return ops.cast(ops.argmax(ops.cast(matches, mstype.int32), 1), mstype.int32)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values found in both `ar1` and `ar2` (each flattened); with `return_indices`, also the
    position of each one's first occurrence in each input."""
    ar1 = ravel(to_tensor(ar1, "intersect1d", "ar1"))
    ar2 = ravel(to_tensor(ar2, "intersect1d", "ar2"))
    check_bool(assume_unique, "intersect1d", "assume_unique")
    ar1, ar2 = _promoted((ar1, ar2))
    values = ops.unique(ar1)[0]
    in_both = ops.any(ops.equal(ops.expand_dims(values, 1), ops.expand_dims(ar2, 0)), 1) if ar2.size else \
        ops.zeros_like(values, dtype=mstype.bool_)
    common = ops.masked_select(values, in_both)
    if not check_bool(return_indices, "intersect1d", "return_indices"):
        return common
    return common, _first_positions(common, ar1), _first_positions(common, ar2)


# ---- applying functions -------------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d(vector, *args, **kwargs) on each 1-d slice of `arr` along `axis`; the results, all of one
    shape, replace that axis (a scalar result removes it). One call per slice, as NumPy's."""
    arr = to_tensor(arr, "apply_along_axis", "arr")
    axis = check_axis(axis, arr.ndim, "apply_along_axis")
    moved = ops.moveaxis(arr, axis, -1)
    outer = tuple(moved.shape[:-1])
    rows = ops.reshape(moved, (-1, moved.shape[-1]))
    results = [to_tensor(func1d(rows[i], *args, **kwargs), "apply_along_axis", "func1d's result")
               for i in builtins.range(rows.shape[0])]
    if not results:
        raise ValueError("apply_along_axis: cannot apply a function to the slices of an empty array")
    if len({tuple(r.shape) for r in results}) != 1:
        raise ValueError(f"apply_along_axis: func1d must return results of one shape, but got "
                         f"{sorted({tuple(r.shape) for r in results})}")
    result_shape = tuple(results[0].shape)
    out = ops.reshape(ops.stack(_promoted(results), 0), outer + result_shape)
    # The result's axes go where `axis` was.
    k = len(result_shape)
    perm = list(builtins.range(axis)) + [len(outer) + i for i in builtins.range(k)] + \
        list(builtins.range(axis, len(outer)))
    return ops.transpose(out, tuple(perm)) if k else out


def apply_over_axes(func, a, axes):
    """func(a, axis) for each of `axes` in turn, each result fed to the next call; a result one dimension
    short gets that axis back with size 1."""
    a = to_tensor(a, "apply_over_axes", "a")
    for axis in check_ints(axes, "apply_over_axes", "axes"):
        axis = check_axis(axis, a.ndim, "apply_over_axes", "axes")
        result = to_tensor(func(a, axis), "apply_over_axes", "func's result")
        if result.ndim == a.ndim - 1:
            result = ops.expand_dims(result, axis)
        elif result.ndim != a.ndim:
            raise ValueError(f"apply_over_axes: func must keep the number of dimensions or remove one, but it "
                             f"turned shape {tuple(a.shape)} into {tuple(result.shape)}")
        a = result
    return a


def array_str(a):
    """The values of `a` printed as NumPy prints an array (values needed: not in compiled code)."""
    a = to_tensor(a, "array_str", "a")
    if _building_graph():
        raise ValueError("array_str: printing needs the values, which a graph being compiled does not have")
    return np.array_str(a.asnumpy())


__all__ = ['transpose', 'expand_dims', 'squeeze', 'rollaxis', 'swapaxes', 'reshape', 'ravel', 'concatenate',
           'where', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'column_stack', 'hstack', 'dstack', 'vstack',
           'stack', 'unique', 'moveaxis', 'tile', 'broadcast_to', 'broadcast_arrays', 'roll', 'append', 'split',
           'vsplit', 'flip', 'flipud', 'fliplr', 'hsplit', 'dsplit', 'take_along_axis', 'take', 'repeat', 'rot90',
           'select', 'array_split', 'choose', 'size', 'array_str', 'apply_along_axis', 'piecewise',
           'unravel_index', 'apply_over_axes', 'argwhere', 'intersect1d']
