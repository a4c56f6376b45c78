"""Moving blocks of space into the batch and back (``ops.space_to_batch_nd``, ``ops.batch_to_space_nd``) and
mirror padding (``ops.mirror_pad``), MindSpore 2.x arguments. All are reshapes, transposes, pads and
constant-index gathers, so their gradients come from those ops."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor, pad, reshape, transpose


def _blocks(api, arg, value, m=None):
    values = [value] * (m or 2) if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(values, (tuple, list)) or not values or (m is not None and len(values) != m) or
            not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)):
        raise ValueError(f"{api}: '{arg}' must be a positive int or a list of positive ints, but got {value!r}")
    return [int(v) for v in values]


def _pairs(api, arg, value, m):
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()  # paddings and crops are shapes: known before running
    if (not isinstance(value, (tuple, list)) or len(value) != m or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(v, int) and v >= 0 for v in p)
            for p in value)):
        raise ValueError(f"{api}: '{arg}' must be {m} pairs of ints >= 0, but got {value!r}")
    return [tuple(int(v) for v in p) for p in value]


def space_to_batch_nd(input_x, block_size, paddings):
    """(N * prod(block_size), ..., S_i / block_i ...): the last M = len(block_size) axes of `input_x`, zero
    padded by `paddings` ([before, after] per axis), split into blocks whose offsets become batch entries
    (batch index = offset index (row-major) * N + n)."""
    api = "space_to_batch_nd"
    x = _tensor(input_x, api, "input_x")
    blocks = _blocks(api, "block_size", block_size)
    m = len(blocks)
    pads = _pairs(api, "paddings", paddings, m)
    if x.ndim < m + 1:
        raise ValueError(f"{api}: 'input_x' must have more than {m} dimensions, but got shape {x.shape}")
    lead = x.ndim - m
    widths = []
    for before, after in reversed(pads):  # ops.pad lists the last axis first
        widths += [before, after]
    if any(widths):
        x = pad(x, tuple(widths))
    shape = list(x.shape[:lead])
    for size, b in zip(x.shape[lead:], blocks):
        if size % b:
            raise ValueError(f"{api}: the padded spatial size {size} must be divisible by its block {b}")
        shape += [size // b, b]
    x = reshape(x, tuple(shape))
    block_axes = [lead + 2 * i + 1 for i in range(m)]
    perm = block_axes + list(range(lead)) + [lead + 2 * i for i in range(m)]
    x = transpose(x, tuple(perm))
    return reshape(x, (int(np.prod(blocks)) * shape[0],) + tuple(shape[1:lead]) +
                   tuple(shape[lead + 2 * i] for i in range(m)))


def batch_to_space_nd(input_x, block_shape, crops):
    """space_to_batch_nd's inverse: batch entries become blocks of the last M = len(block_shape) axes, then
    `crops` ([before, after] per axis) are cut off."""
    api = "batch_to_space_nd"
    x = _tensor(input_x, api, "input_x")
    blocks = _blocks(api, "block_shape", block_shape)
    m = len(blocks)
    cuts = _pairs(api, "crops", crops, m)
    if x.ndim < m + 1:
        raise ValueError(f"{api}: 'input_x' must have more than {m} dimensions, but got shape {x.shape}")
    total = int(np.prod(blocks))
    if x.shape[0] % total:
        raise ValueError(f"{api}: the batch {x.shape[0]} must be divisible by the product of 'block_shape' {total}")
    lead = x.ndim - m
    n = x.shape[0] // total
    x = reshape(x, tuple(blocks) + (n,) + tuple(x.shape[1:]))
    perm = list(range(m, m + lead))
    for i in range(m):
        perm += [m + lead + i, i]
    x = transpose(x, tuple(perm))
    spatial = [x.shape[lead + 2 * i] * blocks[i] for i in range(m)]
    x = reshape(x, tuple(x.shape[:lead]) + tuple(spatial))
    for i, (before, after) in enumerate(cuts):
        if before + after >= spatial[i]:
            raise ValueError(f"{api}: 'crops' {cuts[i]} leave nothing of axis {lead + i} ({spatial[i]} cells)")
        index = Tensor(np.arange(before, spatial[i] - after, dtype=np.int64))
        x = prim("Gather")(x, index, lead + i)
    return x


def mirror_pad(input_x, paddings, mode):
    """`input_x` padded on every axis by `paddings` ((ndim, 2) before/after, a Tensor or nested ints) with its
    mirror image: 'REFLECT' leaves the edge out (at most size - 1 cells a side), 'SYMMETRIC' repeats it
    (at most size)."""
    api = "mirror_pad"
    x = _tensor(input_x, api, "input_x")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"{api}: 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}")
    pads = _pairs(api, "paddings", paddings, x.ndim)
    for axis, (before, after) in enumerate(pads):
        if not before and not after:
            continue
        n = x.shape[axis]
        limit = n - 1 if mode == "REFLECT" else n
        if max(before, after) > limit:
            raise ValueError(f"{api}: mode {mode!r} pads axis {axis} of {n} cells by at most {limit} a side, but got "
                             f"{(before, after)}")
        pos = np.arange(-before, n + after)
        if mode == "REFLECT":
            pos = np.where(pos < 0, -pos, np.where(pos >= n, 2 * (n - 1) - pos, pos))
        else:
            pos = np.where(pos < 0, -pos - 1, np.where(pos >= n, 2 * n - 1 - pos, pos))
        x = prim("Gather")(x, Tensor(pos.astype(np.int64)), axis)
    return x


__all__ = ["space_to_batch_nd", "batch_to_space_nd", "mirror_pad"]
