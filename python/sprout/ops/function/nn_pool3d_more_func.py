"""3-d average and adaptive pooling (``ops.avg_pool3d``, ``ops.adaptive_avg_pool3d``,
``ops.adaptive_max_pool3d``, MindSpore 2.x arguments) of (N, C, D, H, W) inputs.

Sums and maxima over a box separate into height-and-width then depth (Note [Separable 3-D pooling] in
nn/layer/pooling3d.py), so these run the 2-d and 1-d pools. Adaptive max pooling with indices gathers
each window instead (Note [Adaptive max pooling indices] below).
"""
import math

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import expand_dims, gather_elements, pad, reshape, squeeze, transpose
from sprout.ops.function.nn_conv_func import (_check_bool, _check_tensor, _ints, adaptive_avg_pool2d,
                                              adaptive_max_pool2d, avg_pool2d)
from sprout.ops.function.nn_pool1d_func import adaptive_avg_pool1d, adaptive_max_pool1d, avg_pool1d


def _triple(api, arg, value, minimum):
    values = _ints(api, arg, value, (1, 3))
    values = values * 3 if len(values) == 1 else values
    if min(values) < minimum:
        raise ValueError(f"{api}: '{arg}' must be >= {minimum}, but got {value!r}")
    return values


def _six_pads(api, padding):
    """(head, tail, top, bottom, left, right) from an int or 3 or 6 ints (3: the same before and after)."""
    values = _ints(api, "padding", padding, (1, 3, 6))
    if min(values) < 0:
        raise ValueError(f"{api}: 'padding' must be >= 0, but got {padding!r}")
    if len(values) == 1:
        return values * 6
    if len(values) == 3:
        return tuple(v for p in values for v in (p, p))
    return values


def _ndhw(api, x):
    """x as (N, C, D, H, W), and whether a leading axis was added to a (C, D, H, W) input."""
    _check_tensor(api, "input", x)
    if x.ndim not in (4, 5):
        raise ValueError(f"{api}: 'input' must be (N, C, D, H, W) or (C, D, H, W), but got shape {x.shape}")
    return (x, False) if x.ndim == 5 else (expand_dims(x, 0), True)


def _separable(x, pool2d, args2d, pool1d, args1d):
    """pool2d over height and width (the depth folded into the channels), then pool1d over the depth (height
    and width folded into the channels)."""
    n, c, depth, height, width = x.shape
    y = pool2d(reshape(x, (n, c * depth, height, width)), *args2d)
    h, w = y.shape[-2:]
    y = reshape(transpose(reshape(y, (n, c, depth, h * w)), (0, 1, 3, 2)), (n, c * h * w, depth))
    y = pool1d(y, *args1d)
    return transpose(reshape(y, (n, c, h, w, y.shape[-1])), (0, 1, 4, 2, 3))


def pool_extents(api, size, kernel, stride, before, after, ceil_mode):
    """(out, extra): the pooled length of one axis padded by before/after, and the cells ceil_mode adds after
    the padding for a last partial window (which must start inside the input or its leading padding)."""
    padded = size + before + after
    if padded < kernel:
        raise ValueError(f"{api}: the window ({kernel}) is larger than the padded input ({padded})")
    out = (padded - kernel + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + before:
        out -= 1
    return out, max((out - 1) * stride + kernel - padded, 0)


def _window_counts(size, kernel, stride, before, after, extra, count_include_pad):
    """How many cells count in each window of one axis: the padding does when count_include_pad, the cells
    ceil_mode adds never do."""
    counted = np.zeros(size + before + after + extra)
    start, stop = (0, size + before + after) if count_include_pad else (before, before + size)
    counted[start:stop] = 1
    return np.array([counted[i:i + kernel].sum() for i in range(0, len(counted) - kernel + 1, stride)])


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """3-d average pooling of an (N, C, D, H, W) `input_x`. `kernel_size` and `stride` are ints or (d, h, w);
    `padding` (zeros) an int or 6 ints (head, tail, top, bottom, left, right); `ceil_mode` keeps a last
    partial window; `count_include_pad` counts the padding in each window's divisor; a positive
    `divisor_override` replaces the divisor (0 or None: not given)."""
    api = "avg_pool3d"
    _check_tensor(api, "input_x", input_x)
    if input_x.ndim != 5:
        raise ValueError(f"{api}: 'input_x' must be 5-d (N, C, D, H, W), but got shape {input_x.shape}")
    _check_bool(api, "ceil_mode", ceil_mode)
    _check_bool(api, "count_include_pad", count_include_pad)
    if divisor_override is None:
        divisor_override = 0
    if isinstance(divisor_override, bool) or not isinstance(divisor_override, int):
        raise TypeError(f"{api}: 'divisor_override' must be an int, but got {divisor_override!r}")
    if divisor_override < 0:
        raise ValueError(f"{api}: 'divisor_override' must be >= 0 (0: not given), but got {divisor_override}")
    kernel = _triple(api, "kernel_size", kernel_size, 1)
    strides = kernel if stride is None else _triple(api, "stride", stride, 1)
    pads = _six_pads(api, padding)
    sizes = input_x.shape[2:]
    extents = [pool_extents(api, sizes[a], kernel[a], strides[a], pads[2 * a], pads[2 * a + 1], ceil_mode)
               for a in range(3)]
    widths = []
    for a in reversed(range(3)):  # ops.pad lists the last axis first
        widths += [pads[2 * a], pads[2 * a + 1] + extents[a][1]]
    x = pad(input_x, tuple(widths), value=0.0) if any(widths) else input_x
    means = _separable(x, avg_pool2d, (kernel[1:], strides[1:]), avg_pool1d, (kernel[0], strides[0]))
    sums = means * float(math.prod(kernel))
    if divisor_override:
        return sums / float(divisor_override)
    cd, ch, cw = (_window_counts(sizes[a], kernel[a], strides[a], pads[2 * a], pads[2 * a + 1], extents[a][1],
                                 count_include_pad) for a in range(3))
    divisor = cd[:, None, None] * ch[None, :, None] * cw[None, None, :]
    return sums / Tensor(divisor.astype(np.float32), sums.dtype)


def _adaptive_sizes(api, output_size, spatial):
    sizes = (output_size,) * 3 if output_size is None or isinstance(output_size, int) else output_size
    if isinstance(sizes, Tensor):
        sizes = tuple(int(v) for v in sizes.asnumpy().reshape(-1))  # a shape: a value known before running
    if (not isinstance(sizes, (tuple, list)) or len(sizes) != 3 or
            not all(s is None or (isinstance(s, int) and not isinstance(s, bool)) for s in sizes)):
        raise TypeError(f"{api}: 'output_size' must be an int, None or a tuple of 3 ints or None, but got "
                        f"{output_size!r}")
    result = tuple(n if s is None or s == -1 else s for s, n in zip(sizes, spatial))
    if min(result) <= 0:
        raise ValueError(f"{api}: 'output_size' must be positive, but got {output_size!r}")
    return result


def adaptive_avg_pool3d(input, output_size):
    """Average pooling of an (N, C, D, H, W) or (C, D, H, W) `input` to `output_size` (an int or (D, H, W);
    None keeps that input dimension): window i of an axis of n cells spans [floor(i*n/o), ceil((i+1)*n/o))."""
    x, added = _ndhw("adaptive_avg_pool3d", input)
    od, oh, ow = _adaptive_sizes("adaptive_avg_pool3d", output_size, x.shape[2:])
    y = _separable(x, adaptive_avg_pool2d, ((oh, ow),), adaptive_avg_pool1d, (od,))
    return squeeze(y, 0) if added else y


def _adaptive_tables(spatial, outs):
    """(gather, index) of Note [Adaptive max pooling indices]: for each output cell and place in the largest
    window, the flat input position (the window's first cell where the window is shorter)."""
    axes = []
    for n, o in zip(spatial, outs):
        starts = np.array([i * n // o for i in range(o)])
        stops = np.array([-(-(i + 1) * n // o) for i in range(o)])
        k = int((stops - starts).max())
        pos = starts[:, None] + np.arange(k)[None, :]
        axes.append((np.where(pos < stops[:, None], pos, starts[:, None]), k))
    (pd, kd), (ph, kh), (pw, kw) = axes
    height, width = spatial[1], spatial[2]
    flat = (pd[:, None, None, :, None, None] * (height * width) + ph[None, :, None, None, :, None] * width +
            pw[None, None, :, None, None, :])  # (od, oh, ow, kd, kh, kw)
    return flat.reshape(-1), kd * kh * kw


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling of an (N, C, D, H, W) or (C, D, H, W) `input` to `output_size` (an int or (D, H, W); None
    keeps that input dimension). With `return_indices`, also each maximum's flat index in its D * H * W input
    volume (int32, MindSpore's dtype; the first maximum on ties).

    Note [Adaptive max pooling indices]
    Adaptive windows differ in length, so each is padded to the longest with its own first cell (a repeat
    changes neither the maximum nor which cell is first to reach it), one Gather through a constant table
    lays them out, Argmax picks the first maximum and the table turns it into the input index.
    """
    api = "adaptive_max_pool3d"
    _check_bool(api, "return_indices", return_indices)
    x, added = _ndhw(api, input)
    outs = _adaptive_sizes(api, output_size, x.shape[2:])
    if not return_indices:
        y = _separable(x, adaptive_max_pool2d, (outs[1:],), adaptive_max_pool1d, (outs[0],))
        return squeeze(y, 0) if added else y
    n, c = x.shape[:2]
    table, places = _adaptive_tables(tuple(x.shape[2:]), outs)
    cells = math.prod(outs)
    windows = reshape(prim("Gather")(reshape(x, (n, c, -1)), Tensor(table), 2), (n, c, cells, places))
    place = prim("Argmax", axis=3, output_type=mstype.int64)(windows)
    values = squeeze(gather_elements(windows, 3, expand_dims(place, 3)), 3)
    start = Tensor(np.arange(cells, dtype=np.int64) * places)
    indices = prim("Cast", dst_type=mstype.int32)(prim("Gather")(Tensor(table), place + start, 0))
    values, indices = reshape(values, (n, c) + outs), reshape(indices, (n, c) + outs)
    return (squeeze(values, 0), squeeze(indices, 0)) if added else (values, indices)


__all__ = ["avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d"]
