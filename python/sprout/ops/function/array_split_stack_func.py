"""Splitting and stacking, MindSpore 2.x names and arguments: tensor_split (by a count or at indices) and
its axis-fixed forms hsplit/vsplit/dsplit, column_stack, row_stack, dstack, take (flat indexing), t, and
unique_consecutive. Views (Slice), Concat, Gather and masks: they differentiate and compile through those
primitives; unique_consecutive's outputs have a length known only from the data (MaskedSelect's)."""
import builtins

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import (_axis, _narrow, _tensor, _tensors, cast, concat, reshape,
                                            transpose, unsorted_segment_sum)
from sprout.ops.function.array_view_func import atleast_3d, moveaxis, vstack


def _split_points(api, size, indices_or_sections):
    """(start, length) of each piece of an axis of `size`."""
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"{api}: 'indices_or_sections' as a number of sections must be positive, but got "
                             f"{sections}")
        # The first size % sections pieces take one element more.
        lengths = [size // sections + (i < size % sections) for i in builtins.range(sections)]
        starts = np.cumsum([0] + lengths[:-1])
        return [(int(s), n) for s, n in zip(starts, lengths)]
    if isinstance(indices_or_sections, (tuple, list)) and builtins.all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in indices_or_sections):
        bounds = [None] + [int(i) for i in indices_or_sections] + [None]
        pieces = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):  # input[lo:hi] under Python's slice rules
            start, stop, _ = slice(lo, hi).indices(size)
            pieces.append((start, builtins.max(0, stop - start)))
        return pieces
    raise TypeError(f"{api}: 'indices_or_sections' must be an int or a tuple or list of ints, but got "
                    f"{indices_or_sections!r}")


def _split(api, x, indices_or_sections, axis):
    return tuple(_narrow(x, axis, start, length)
                 for start, length in _split_points(api, x.shape[axis], indices_or_sections))


def tensor_split(input, indices_or_sections, axis=0):
    """Pieces of `input` along `axis`: an int n gives n pieces as equal as can be (the first size % n one
    longer); a list of indices cuts before each of them (Python slice rules: out-of-range indices clip, a
    smaller index after a larger gives an empty piece). A tuple of views."""
    x = _tensor(input, "tensor_split", "input")
    if x.ndim == 0:
        raise ValueError("tensor_split: 'input' must have at least one dimension, but got a 0-d tensor")
    return _split("tensor_split", x, indices_or_sections, _axis("tensor_split", "axis", axis, x.ndim))


def _split_fixed(api, input, indices_or_sections, axis):
    x = _tensor(input, api, "input")
    if x.ndim <= axis:
        raise ValueError(f"{api}: 'input' must have at least {axis + 1} dimensions, but got shape {x.shape}")
    return _split(api, x, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """tensor_split along axis 1 (input of rank >= 2)."""
    return _split_fixed("hsplit", input, indices_or_sections, 1)


def vsplit(input, indices_or_sections):
    """tensor_split along axis 0 (input of rank >= 1)."""
    return _split_fixed("vsplit", input, indices_or_sections, 0)


def dsplit(input, indices_or_sections):
    """tensor_split along axis 2 (input of rank >= 3)."""
    return _split_fixed("dsplit", input, indices_or_sections, 2)


def column_stack(tensors):
    """Tensors joined as columns along axis 1: 0-d and 1-d ones become (n, 1) columns first."""
    columns = [reshape(t, (t.size, 1)) if t.ndim < 2 else t for t in _tensors(tensors, "column_stack", "tensors")]
    return concat(columns, 1)


def row_stack(tensors):
    """Same as vstack: tensors joined row-wise along axis 0, 1-d ones as rows."""
    return vstack(tensors)


def dstack(tensors):
    """Tensors joined along axis 2 (depth), each made at least 3-d first ((n,) -> (1, n, 1), (m, n) ->
    (m, n, 1))."""
    return concat(atleast_3d(list(_tensors(tensors, "dstack", "tensors"))), 2)


def take(input, index):
    """The elements of the flattened `input` at `index` (int32 or int64, any shape; negative counts from the
    end), in index's shape."""
    x, idx = _tensor(input, "take", "input"), _tensor(index, "take", "index")
    if idx.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"take: 'index' must be an int32 or int64 tensor, but got {idx.dtype}")
    return prim("Gather")(reshape(x, (-1,)), idx, 0)


def t(input):
    """A 2-d tensor transposed; 0-d and 1-d tensors are returned as they are."""
    x = _tensor(input, "t", "input")
    if x.ndim > 2:
        raise ValueError(f"t: 'input' must have at most 2 dimensions, but got shape {x.shape}")
    return transpose(x, (1, 0)) if x.ndim == 2 else x


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """`input` with each run of equal consecutive elements (of the flattened input, or slices along `dim`)
    kept once. With `return_inverse`, also each element's (slice's) run number, Int64 in the input's shape (of
    length input.shape[dim] along `dim`); with `return_counts`, the runs' lengths, Int64. Returns the output
    alone, or a tuple with the asked-for extras in that order."""
    x = _tensor(input, "unique_consecutive", "input")
    for arg, value in (("return_inverse", return_inverse), ("return_counts", return_counts)):
        if not isinstance(value, bool):
            raise TypeError(f"unique_consecutive: '{arg}' must be a bool, but got {value!r}")
    if dim is None:
        rows = reshape(x, (-1, 1))
    else:
        if x.ndim == 0:
            raise ValueError("unique_consecutive: 'input' must have at least one dimension for a 'dim', but got "
                             "a 0-d tensor")
        dim = _axis("unique_consecutive", "dim", dim, x.ndim)
        rows = moveaxis(x, dim, 0)
        rows = reshape(rows, (rows.shape[0], -1))
    n = rows.shape[0]
    if n == 0:
        output = x if dim is not None else reshape(x, (0,))
        inverse = prim("Fill")(mstype.int64, x.shape if dim is None else (0,), 0)
        counts = prim("Fill")(mstype.int64, (0,), 0)
    else:
        # A run starts where a row differs from the one before (row 0 always starts one).
        differs = prim("NotEqual")(_narrow(rows, 0, 1, n - 1), _narrow(rows, 0, 0, n - 1))
        differs = prim("ReduceAny", keep_dims=False)(differs, (1,)) if rows.shape[1] else prim("Fill")(
            mstype.bool_, (n - 1,), False)
        starts = concat([Tensor([True]), differs], 0)
        run = prim("CumSum")(cast(starts, mstype.int64), 0) - 1  # each row's run number
        if dim is None:
            output = prim("MaskedSelect")(reshape(x, (-1,)), starts)
        else:  # the first slice of each run
            first_rows = prim("MaskedSelect")(Tensor(np.arange(n, dtype=np.int64)), starts)
            output = moveaxis(prim("Gather")(moveaxis(x, dim, 0), first_rows, 0), 0, dim)
        inverse = reshape(run, x.shape) if dim is None else run
        # Each run's length, read at its first row: sizes from a static-shape segment sum, then selected.
        lengths = unsorted_segment_sum(prim("OnesLike")(run), run, n)
        counts = prim("MaskedSelect")(prim("Gather")(lengths, run, 0), starts)
    extras = ([inverse] if return_inverse else []) + ([counts] if return_counts else [])
    return (output, *extras) if extras else output


__all__ = ["tensor_split", "hsplit", "vsplit", "dsplit", "column_stack", "row_stack", "dstack", "take", "t",
           "unique_consecutive"]
# Tensor.t exists already; Tensor.take is MindSpore's NumPy-style take(indices, axis, mode), another function.
TENSOR_METHODS = ["tensor_split", "hsplit", "vsplit", "dsplit", "unique_consecutive"]
