"""NumPy references of the convolution ops (float64, NC + spatial axes, 2-d or 3-d), shared by the records."""
import itertools

import numpy as np


def conv_pads(in_sizes, kernel, stride, dilation, pad_mode, pad):
    """(before, after) padding per spatial axis, flattened, as MindSpore's Conv2D/Conv3D compute it."""
    rank = len(in_sizes)
    if pad_mode.lower() == "same":
        pads = []
        for size, k, s, d in zip(in_sizes, kernel, stride, dilation):
            out = -(-size // s)
            needed = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
            pads += [needed // 2, needed - needed // 2]
        return tuple(pads)
    if pad_mode.lower() == "pad":
        return tuple(pad) if isinstance(pad, tuple) else (pad,) * (2 * rank)
    return (0,) * (2 * rank)


def _taps(x_shape, w_shape, stride, dilation, pads):
    """[(kernel tap index, slices of the padded input it reads)], the output size and the padded size."""
    kernel = w_shape[2:]
    padded = [x_shape[2 + i] + pads[2 * i] + pads[2 * i + 1] for i in range(len(kernel))]
    out = [(p - d * (k - 1) - 1) // s + 1 for p, k, s, d in zip(padded, kernel, stride, dilation)]
    taps = [(tap, tuple(slice(t * d, t * d + s * (o - 1) + 1, s) for t, d, s, o in zip(tap, dilation, stride, out)))
            for tap in itertools.product(*[range(k) for k in kernel])]
    return taps, tuple(out), padded


def _pad(x, pads):
    return np.pad(x, [(0, 0), (0, 0)] + [(pads[2 * i], pads[2 * i + 1]) for i in range(x.ndim - 2)])


def conv(x, w, stride, dilation, pads, group):
    xp = _pad(x, pads)
    taps, out_size, _ = _taps(x.shape, w.shape, stride, dilation, pads)
    o, cg = w.shape[:2]
    og = o // group
    out = np.zeros((x.shape[0], o) + out_size)
    for g in range(group):
        for tap, sl in taps:
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", patch, w[(slice(g * og, (g + 1) * og), slice(None)) + tap])
    return out


def conv_backprop_input(dy, w, x_shape, stride, dilation, pads, group):
    taps, _, padded = _taps(x_shape, w.shape, stride, dilation, pads)
    o, cg = w.shape[:2]
    og = o // group
    dxp = np.zeros(tuple(x_shape[:2]) + tuple(padded))
    for g in range(group):
        for tap, sl in taps:
            dxp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl] += np.einsum(
                "no...,oc->nc...", dy[:, g * og:(g + 1) * og], w[(slice(g * og, (g + 1) * og), slice(None)) + tap])
    crop = tuple(slice(pads[2 * i], padded[i] - pads[2 * i + 1]) for i in range(len(padded)))
    return dxp[(slice(None), slice(None)) + crop]


def conv_backprop_filter(dy, x, w_shape, stride, dilation, pads, group):
    xp = _pad(x, pads)
    taps, _, _ = _taps(x.shape, w_shape, stride, dilation, pads)
    o, cg = w_shape[:2]
    og = o // group
    dw = np.zeros(w_shape)
    for g in range(group):
        for tap, sl in taps:
            d = dy[:, g * og:(g + 1) * og]
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            flat = lambda a: a.reshape(a.shape[:2] + (int(np.prod(a.shape[2:])),))  # noqa: E731
            dw[(slice(g * og, (g + 1) * og), slice(None)) + tap] = np.einsum("nos,ncs->oc", flat(d), flat(patch))
    return dw


conv2d, conv2d_backprop_input, conv2d_backprop_filter = conv, conv_backprop_input, conv_backprop_filter
