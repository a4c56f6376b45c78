"""Max pooling through gathered windows: the maxima with their indices, for any dilation, over 1 to 3
spatial axes. max_pool3d comes here for return_indices or dilation, max_pool1d/2d for those with integer
inputs; floating-point 1-d and 2-d pooling has the MaxPoolWithArgmaxV2 primitive (Note [Max pooling with
argmax]) and, without them, MaxPool.

Note [Max pooling indices]
The input is padded with the dtype's lowest value, flattened per (sample, channel), and one Gather
through a constant table of padded positions lays out every window's elements (as ops.unfold does);
Argmax over each window picks the first maximum (PyTorch's tie rule), GatherElements reads its value,
so the gradient reaches exactly that element. A second constant table turns (output position, place
in the window) into the flat index in the unpadded input plane (or volume), the indices MindSpore,
PyTorch and max_unpool use. The table sends a padding cell to the window's first input cell: Argmax
lands on padding only when every input cell of the window equals the padding value, and then PyTorch
names the first input cell too.
"""
import math

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import expand_dims, gather_elements, pad, reshape, squeeze

_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def lowest(dtype):
    """The padding value of max pooling: -inf, or the integer dtype's minimum."""
    return float("-inf") if dtype in _FLOATS else int(np.iinfo(mstype.dtype_to_nptype(dtype)).min)


def output_sizes(api, spatial, kernel, stride, padding, dilation, ceil_mode):
    """Per axis (out, pad_after): the output length and the cells padded after the input, which with
    ceil_mode cover a last partial window (PyTorch's and MindSpore's rule: a window must start inside
    the input or its leading padding)."""
    result = []
    for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
        if 2 * p > k:  # MindSpore's rule (PyTorch's allows half the dilated window)
            raise ValueError(f"{api}: 'padding' must be between 0 and half the kernel size ({k}), but got {p}")
        span = d * (k - 1) + 1
        room = n + 2 * p - span
        if room < 0:
            raise ValueError(f"{api}: a window of {k} cells at dilation {d} ({span} wide) is larger than the "
                             f"padded input ({n} + 2 * {p})")
        out = (room + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (out - 1) * s >= n + p:
            out -= 1
        result.append((out, max((out - 1) * s + span - n - p, 0)))
    return result


def _tables(spatial, kernel, stride, padding, dilation, sizes):
    """(gather, index): for each output position (row-major) and each window place (row-major), the flat
    position in the padded input, and the flat index in the unpadded input (Note [Max pooling indices])."""
    padded = [n + p + after for n, p, (_, after) in zip(spatial, padding, sizes)]
    nd = len(spatial)
    gather = np.zeros((1,) * (2 * nd), np.int64)
    index = np.zeros((1,) * (2 * nd), np.int64)
    for axis, (n, k, s, p, d, (out, _)) in enumerate(zip(spatial, kernel, stride, padding, dilation, sizes)):
        pos = np.arange(out)[:, None] * s - p + np.arange(k)[None, :] * d  # (out, k), unpadded coordinates
        valid = (pos >= 0) & (pos < n)
        first = np.where(valid.any(1), np.argmax(valid, 1), 0)
        first_pos = np.clip(pos[np.arange(out), first], 0, n - 1)
        in_pos = np.where(valid, pos, first_pos[:, None])
        shape = [1] * (2 * nd)
        shape[axis], shape[nd + axis] = out, k
        gather = gather + ((pos + p) * math.prod(padded[axis + 1:])).reshape(shape)
        index = index + (in_pos * math.prod(spatial[axis + 1:])).reshape(shape)
    return gather.reshape(-1), index.reshape(-1)


def max_pool_windows(api, x, kernel, stride, padding, dilation, ceil_mode):
    """(values, indices) of max pooling the trailing len(kernel) axes of an (N, C, *spatial) x."""
    nd = len(kernel)
    lead, spatial = tuple(x.shape[:2]), tuple(x.shape[2:])
    sizes = output_sizes(api, spatial, kernel, stride, padding, dilation, ceil_mode)
    gather, index = _tables(spatial, kernel, stride, padding, dilation, sizes)
    widths = []
    for p, (_, after) in reversed(list(zip(padding, sizes))):  # ops.pad lists the last axis first
        widths += [p, after]
    if any(widths):
        x = pad(x, tuple(widths), value=lowest(x.dtype))
    cells, places = math.prod(out for out, _ in sizes), math.prod(kernel)
    windows = reshape(prim("Gather")(reshape(x, lead + (-1,)), Tensor(gather), 2), lead + (cells, places))
    place = prim("Argmax", axis=3, output_type=mstype.int64)(windows)  # the first maximum of each window
    values = squeeze(gather_elements(windows, 3, expand_dims(place, 3)), 3)
    start = Tensor(np.arange(cells, dtype=np.int64) * places)  # each output position's row of the table
    indices = prim("Gather")(Tensor(index), place + start, 0)
    out = lead + tuple(out for out, _ in sizes)
    return reshape(values, out), reshape(indices, out)
