"""Tensors built by arranging the elements of others, MindSpore 2.x names and arguments: block_diag,
cartesian_prod, combinations, vander, diag_embed and diagflat. The arrangement (which element goes where)
is a compile-time table or mask computed with NumPy from the shapes; the data moves through Gather, Pad,
Concat, Meshgrid, Select and Mul, so every function differentiates and compiles."""
import itertools

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _axis, _int, _tensor, cast, concat, pad, reshape, stack
from sprout.ops.function.array_view_func import broadcast_to, moveaxis


def _common_dtype(tensors):
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = _C.promote_types(dtype, t.dtype)
    return [t if t.dtype == dtype else cast(t, dtype) for t in tensors]


def _inputs(api, inputs):
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if not inputs:
        raise ValueError(f"{api}: needs at least one tensor, but got none")
    return _common_dtype([_tensor(t, api, "inputs") for t in inputs])


def block_diag(*inputs):
    """A 2-d tensor with the inputs (0-d, 1-d as one row, or 2-d) as blocks along its diagonal, zeros elsewhere
    (dtypes promoted to a common one)."""
    blocks = []
    for t in _inputs("block_diag", inputs):
        if t.ndim > 2:
            raise ValueError(f"block_diag: each input must have rank 0, 1 or 2, but got shape {t.shape}")
        blocks.append(reshape(t, (1,) * (2 - t.ndim) + t.shape))
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:  # each block's rows, zero-padded to the full width at its column offset
        rows.append(pad(b, (left, width - left - b.shape[1])))
        left += b.shape[1]
    return concat(rows, 0)


def cartesian_prod(*inputs):
    """All combinations of one element from each 1-d input, in itertools.product order: shape
    (n1 * n2 * ..., number of inputs)."""
    vectors = _inputs("cartesian_prod", inputs)
    for t in vectors:
        if t.ndim != 1:
            raise ValueError(f"cartesian_prod: each input must be 1-d, but got shape {t.shape}")
    if len(vectors) == 1:
        return reshape(vectors[0], (-1, 1))
    grids = prim("Meshgrid", indexing="ij")(tuple(vectors))
    return stack([reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """All length-r combinations of the elements of the 1-d `input` (itertools.combinations order, or
    combinations_with_replacement), shape (count, r); an empty (0,) tensor when there are none."""
    x = _tensor(input, "combinations", "input")
    if x.ndim != 1:
        raise ValueError(f"combinations: 'input' must be 1-d, but got shape {x.shape}")
    r = _int(r, "combinations", "r")
    if r <= 0:
        raise ValueError(f"combinations: 'r' must be positive, but got {r}")
    if not isinstance(with_replacement, bool):
        raise TypeError(f"combinations: 'with_replacement' must be a bool, but got {with_replacement!r}")
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    table = np.asarray(list(pick(range(x.shape[0]), r)), np.int64)
    if table.size == 0:
        return prim("Fill")(x.dtype, (0,), 0)
    return prim("Gather")(x, Tensor(table), 0)


def vander(x, N=None):
    """The Vandermonde matrix of the 1-d `x`: column i is x ** (N - 1 - i), N columns (len(x) by default).
    Integer inputs give Int64, as MindSpore's."""
    v = _tensor(x, "vander", "x")
    if v.ndim != 1:
        raise ValueError(f"vander: 'x' must be 1-d, but got shape {v.shape}")
    if v.dtype == mstype.bool_:
        raise TypeError("vander: 'x' must be a numeric tensor, but got Bool")
    n = v.shape[0] if N is None else _int(N, "vander", "N")
    if n <= 0:
        raise ValueError(f"vander: 'N' must be positive, but got {n}")
    if v.dtype not in mstype.float_type:
        v = cast(v, mstype.int64)
    # Powers 0..2m-1 from powers 0..m-1 and x^m: log2(N) products and no division or pow, so the gradient
    # is finite at x = 0.
    column = reshape(v, (-1, 1))
    powers, x_m = prim("OnesLike")(column), column
    while powers.shape[1] < n:
        powers = concat([powers, powers * x_m], 1)
        x_m = x_m * x_m
    powers = prim("Slice")(powers, (0, 0), (v.shape[0], n))
    return prim("ReverseV2", axis=(1,))(powers)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor of one more dimension whose (dim1, dim2) planes hold input's last axis on their diagonal
    `offset` above the main one (below when negative), zeros elsewhere; the other axes of `input` keep their
    order."""
    x = _tensor(input, "diag_embed", "input")
    if x.ndim == 0:
        raise ValueError("diag_embed: 'input' must have at least one dimension, but got a 0-d tensor")
    offset = _int(offset, "diag_embed", "offset")
    a, b = _axis("diag_embed", "dim1", dim1, x.ndim + 1), _axis("diag_embed", "dim2", dim2, x.ndim + 1)
    if a == b:
        raise ValueError(f"diag_embed: 'dim1' and 'dim2' must be different axes, but both are {a}")
    n = x.shape[-1] + abs(offset)
    # Plane element (i, j) with j - i == offset holds input[..., min(i, j)]: input padded to n along its
    # last axis (in front for a positive offset), broadcast over the rows, masked to the diagonal.
    padded = pad(x, (offset, 0) if offset >= 0 else (0, -offset))
    rows = broadcast_to(prim("ExpandDims")(padded, x.ndim - 1), x.shape[:-1] + (n, n))
    mask = Tensor(np.subtract.outer(np.arange(n), np.arange(n)) == -offset)
    planes = prim("Select")(broadcast_to(mask, rows.shape), rows, prim("ZerosLike")(rows))
    return moveaxis(planes, (-2, -1), (a, b))


def diagflat(input, offset=0):
    """A 2-d tensor with the flattened `input` on its diagonal `offset` above the main one, zeros elsewhere."""
    x = _tensor(input, "diagflat", "input")
    return diag_embed(reshape(x, (-1,)), offset)


__all__ = ["block_diag", "cartesian_prod", "combinations", "vander", "diag_embed", "diagflat"]
TENSOR_METHODS = ["diagflat"]
