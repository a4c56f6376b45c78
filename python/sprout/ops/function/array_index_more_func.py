"""More array functions, MindSpore 2.x names: unstack, expand, dtype, matrix_diag and matrix_diag_part
(TensorFlow's MatrixDiagV3 family: bands of diagonals, aligned left or right), and the bodies of the
UnravelIndex and EmbeddingLookup primitives (which MindSpore has no function for).

The diagonal functions gather through an index table computed with NumPy from the shapes and offsets
(compile-time values); the data only ever goes through Sprout ops, so they differentiate and compile.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import (cast, concat, cumprod, flip, gather, reshape, where,
                                            zeros_like)
from sprout.ops.function.array_view_func import broadcast_to, unbind

__all__ = ["unstack", "expand", "dtype", "matrix_diag", "matrix_diag_part"]


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _ints(api, arg, value, lengths=(1,)):
    """Python ints from an int, a tuple of ints or an integer Tensor (read: these fix shapes)."""
    if isinstance(value, Tensor):
        if value.dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64):
            raise TypeError(f"{api}: '{arg}' must be an integer Tensor, but got {value.dtype}")
        values = [int(v) for v in np.atleast_1d(value.asnumpy()).ravel()]
    elif isinstance(value, int) and not isinstance(value, bool):
        values = [value]
    elif isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        values = list(value)
    else:
        raise TypeError(f"{api}: '{arg}' must be an int, a tuple of ints or an int Tensor, but got {value!r}")
    if len(values) not in lengths:
        raise ValueError(f"{api}: '{arg}' must hold {' or '.join(map(str, lengths))} values, but got {values}")
    return values


def unstack(input_x, axis=0):
    """The slices of input_x along `axis`, each without that axis, as a tuple."""
    return unbind(_tensor("unstack", "input_x", input_x), axis)


def expand(input_x, size):
    """input_x broadcast to `size` (a tuple of ints or a 1-d int Tensor; -1 keeps a dimension)."""
    x = _tensor("expand", "input_x", input_x)
    shape = tuple(_ints("expand", "size", size, range(x.ndim, x.ndim + 64)))
    return broadcast_to(x, shape)


def dtype(x):
    """x's dtype."""
    return _tensor("dtype", "x", x).dtype


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(api, k, align):
    if align not in _ALIGNS:
        raise ValueError(f"{api}: 'align' must be one of {', '.join(_ALIGNS)}, but got {align!r}")
    ks = _ints(api, "k", k, (1, 2))
    lower, upper = ks[0], ks[-1]
    if lower > upper:
        raise ValueError(f"{api}: k[0] must not exceed k[1], but got k = {ks}")
    super_right, sub_right = align.split("_")[0] == "RIGHT", align.split("_")[1] == "RIGHT"
    return lower, upper, len(ks) == 2, super_right, sub_right


def _diagonal_layout(rows, cols, lower, upper, max_len, super_right, sub_right):
    """For each diagonal d of the band (upper first) and each slot of its max_len-long row: the flat
    position rows*cols matrix element it holds, or -1 for padding (TensorFlow's alignment rule)."""
    table = np.full((upper - lower + 1, max_len), -1, np.int64)
    for index, d in enumerate(range(upper, lower - 1, -1)):
        length = min(rows + min(0, d), cols - max(0, d))
        offset = max_len - length if (d >= 0 and super_right) or (d <= 0 and sub_right) else 0
        for t in range(max(length, 0)):
            table[index, t + offset] = (t + max(-d, 0)) * cols + t + max(d, 0)
    return table


def _padding(api, x, padding_value):
    pad = padding_value if isinstance(padding_value, Tensor) else Tensor(padding_value, x.dtype)
    if pad.size != 1:
        raise ValueError(f"{api}: 'padding_value' must hold one value, but got shape {pad.shape}")
    return cast(reshape(pad, ()), x.dtype)


def _gather_with_padding(flat, table, pad):
    """flat[..., table] with -1 entries taking `pad`: the padding is appended as one more element."""
    padded = concat((flat, broadcast_to(reshape(pad, (1,) * flat.ndim), flat.shape[:-1] + (1,))), -1)
    size = flat.shape[-1]
    return gather(padded, Tensor(np.where(table < 0, size, table).astype(np.int64)), flat.ndim - 1)


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices with the diagonals k (one offset or a band [k0, k1]) taken from x's last axis (and, for a
    band, its second last, highest diagonal first), the rest padding_value. num_rows/num_cols -1: the
    smallest that fits (square when both are -1)."""
    api = "matrix_diag"
    x = _tensor(api, "x", x)
    lower, upper, is_band, super_right, sub_right = _band(api, k, align)
    if x.ndim < (2 if is_band else 1):
        raise ValueError(f"{api}: 'x' must have rank >= {2 if is_band else 1} for k = {k}, but got {x.shape}")
    num_diags = upper - lower + 1
    if is_band and x.shape[-2] != num_diags:
        raise ValueError(f"{api}: x.shape[-2] must be the number of diagonals {num_diags}, but got {x.shape}")
    max_len = x.shape[-1]
    min_rows, min_cols = max_len - min(upper, 0), max_len + max(lower, 0)
    rows, cols = _ints(api, "num_rows", num_rows)[0], _ints(api, "num_cols", num_cols)[0]
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows < min_rows or cols < min_cols:
        raise ValueError(f"{api}: num_rows and num_cols must be at least {min_rows} and {min_cols} for these "
                         f"diagonals, but got {rows} and {cols}")
    layout = _diagonal_layout(rows, cols, lower, upper, max_len, super_right, sub_right)
    # Inverse table: for each of the rows*cols matrix positions, which slot of the diagonals it shows.
    table = np.full(rows * cols, -1, np.int64)
    slots = np.nonzero(layout >= 0)
    table[layout[slots]] = slots[0] * max_len + slots[1]
    batch = x.shape[:-2] if is_band else x.shape[:-1]
    flat = reshape(x, batch + (num_diags * max_len,))
    out = _gather_with_padding(flat, table, _padding(api, x, padding_value))
    return reshape(out, batch + (rows, cols))


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """The diagonals k (one offset or a band [k0, k1], highest first) of x's innermost matrices, each as a
    row as long as the longest, shorter ones aligned as `align` says and padded with padding_value."""
    api = "matrix_diag_part"
    x = _tensor(api, "x", x)
    if x.ndim < 2:
        raise ValueError(f"{api}: 'x' must have rank >= 2, but got {x.shape}")
    lower, upper, is_band, super_right, sub_right = _band(api, k, align)
    rows, cols = x.shape[-2:]
    if not (-rows < lower and upper < cols):
        raise ValueError(f"{api}: k must lie in ({-rows}, {cols}) for {rows} x {cols} matrices, but got "
                         f"[{lower}, {upper}]")
    max_len = min(rows + min(upper, 0), cols - max(lower, 0))
    layout = _diagonal_layout(rows, cols, lower, upper, max_len, super_right, sub_right)
    flat = reshape(x, x.shape[:-2] + (rows * cols,))
    out = _gather_with_padding(flat, layout.reshape(-1), _padding(api, x, padding_value))
    return reshape(out, x.shape[:-2] + ((upper - lower + 1, max_len) if is_band else (max_len,)))


def unravel_index(indices, dims):
    """Coordinates in an array of shape `dims` of the flat `indices` (0-d or 1-d), one row per dimension."""
    api = "UnravelIndex"
    indices, dims = _tensor(api, "indices", indices), _tensor(api, "dims", dims)
    if indices.dtype not in (mstype.int32, mstype.int64) or dims.dtype != indices.dtype:
        raise TypeError(f"{api}: 'indices' and 'dims' must be int32 or int64 tensors of one dtype, but got "
                        f"{indices.dtype} and {dims.dtype}")
    if indices.ndim > 1 or dims.ndim != 1:
        raise ValueError(f"{api}: 'indices' must be 0-d or 1-d and 'dims' 1-d, but got shapes {indices.shape} "
                         f"and {dims.shape}")
    # Stride of dimension i: the product of the dimensions after it (a reversed exclusive cumprod).
    after = flip(cumprod(flip(dims, (0,)), 0), (0,))
    strides = concat((after[1:], Tensor(np.ones(1), dims.dtype)), 0)
    column = (dims.shape[0],) + (1,) * indices.ndim
    return (reshape(indices, (1,) + indices.shape) // reshape(strides, column)) % reshape(dims, column)


def embedding_lookup(params, indices, offset):
    """Rows indices - offset of params; out-of-range rows are zeros (MindSpore's EmbeddingLookup)."""
    api = "EmbeddingLookup"
    params, indices = _tensor(api, "input_params", params), _tensor(api, "input_indices", indices)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'input_indices' must be an int32 or int64 tensor, but got {indices.dtype}")
    if isinstance(offset, Tensor):
        offset = int(offset.asnumpy())
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise TypeError(f"{api}: 'offset' must be an int, but got {offset!r}")
    if params.ndim < 1:
        raise ValueError(f"{api}: 'input_params' must have at least one dimension, but got a 0-d tensor")
    rows = indices - offset
    inside = (rows >= 0) & (rows < params.shape[0])
    picked = gather(params, where(inside, rows, zeros_like(rows)), 0)
    mask = reshape(inside, inside.shape + (1,) * (params.ndim - 1))
    return where(mask, picked, zeros_like(picked))
