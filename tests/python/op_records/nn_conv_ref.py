"""NumPy references of the 2-d convolution ops (float64, NCHW), shared by the conv records."""
import numpy as np


def conv_pads(in_hw, kernel, stride, dilation, pad_mode, pad):
    """(top, bottom, left, right) padding as MindSpore's Conv2D computes it."""
    if pad_mode == "same":
        pads = []
        for size, k, s, d in zip(in_hw, kernel, stride, dilation):
            out = -(-size // s)
            needed = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
            pads += [needed // 2, needed - needed // 2]
        return tuple(pads)
    if pad_mode == "pad":
        return tuple(pad) if isinstance(pad, tuple) else (pad,) * 4
    return (0, 0, 0, 0)


def _taps(x_shape, w_shape, stride, dilation, pads):
    """Yields (i, j, slice of the padded input that tap (i, j) reads) and the output size."""
    kh, kw = w_shape[2:]
    hp, wp = x_shape[2] + pads[0] + pads[1], x_shape[3] + pads[2] + pads[3]
    oh = (hp - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wp - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    taps = [(i, j, (slice(i * dilation[0], i * dilation[0] + stride[0] * (oh - 1) + 1, stride[0]),
                    slice(j * dilation[1], j * dilation[1] + stride[1] * (ow - 1) + 1, stride[1])))
            for i in range(kh) for j in range(kw)]
    return taps, (oh, ow), (hp, wp)


def conv2d(x, w, stride, dilation, pads, group):
    xp = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    taps, (oh, ow), _ = _taps(x.shape, w.shape, stride, dilation, pads)
    o, cg = w.shape[:2]
    og = o // group
    out = np.zeros((x.shape[0], o, oh, ow))
    for g in range(group):
        for i, j, (sy, sx) in taps:
            patch = xp[:, g * cg:(g + 1) * cg, sy, sx]
            out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return out


def conv2d_backprop_input(dy, w, x_shape, stride, dilation, pads, group):
    taps, _, (hp, wp) = _taps(x_shape, w.shape, stride, dilation, pads)
    o, cg = w.shape[:2]
    og = o // group
    dxp = np.zeros((x_shape[0], x_shape[1], hp, wp))
    for g in range(group):
        for i, j, (sy, sx) in taps:
            dxp[:, g * cg:(g + 1) * cg, sy, sx] += np.einsum("nohw,oc->nchw", dy[:, g * og:(g + 1) * og],
                                                             w[g * og:(g + 1) * og, :, i, j])
    return dxp[:, :, pads[0]:hp - pads[1], pads[2]:wp - pads[3]]


def conv2d_backprop_filter(dy, x, w_shape, stride, dilation, pads, group):
    xp = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    taps, _, _ = _taps(x.shape, w_shape, stride, dilation, pads)
    o, cg = w_shape[:2]
    og = o // group
    dw = np.zeros(w_shape)
    for g in range(group):
        for i, j, (sy, sx) in taps:
            dw[g * og:(g + 1) * og, :, i, j] = np.einsum("nohw,nchw->oc", dy[:, g * og:(g + 1) * og],
                                                         xp[:, g * cg:(g + 1) * cg, sy, sx])
    return dw
