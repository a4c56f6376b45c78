"""Sliding windows as columns and back: unfold (im2col) and fold (col2im), and power-average pooling
(lp_pool1d/2d). MindSpore 2.x names and arguments. unfold gathers every window's elements through one
index table; fold adds them back through the same table (unsorted_segment_sum), so each is the other's
adjoint and both differentiate through registry ops."""
import numpy as np

from sprout._frontend import is_building_graph
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, pad, reshape, transpose, unsorted_segment_sum
from sprout.ops.function.nn_conv_func import _pool_window, avg_pool2d
from sprout.ops.function.nn_func import _check_float_arg
from sprout.ops.function.nn_pool1d_func import _as_2d, _back, _ncl
from sprout.ops.function.nn_pool1d_func import _pair as _pool_pair


def _pair(api, arg, value):
    if isinstance(value, Tensor) and value.ndim == 1 and value.shape[0] == 2 and not is_building_graph():
        value = tuple(value.asnumpy().tolist())  # MindSpore's fold takes output_size as a 2-element tensor too
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return tuple(_int(v, api, arg) for v in value)
    value = _int(value, api, arg)
    return value, value


def _window_table(api, size, kernel, dilation, padding, stride):
    """(positions, (out_h, out_w)): positions[k, l] is the flat index in the padded plane of element k of
    window l."""
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = size, kernel, dilation, padding, stride
    if min(kh, kw, dh, dw, sh, sw) < 1 or min(ph, pw) < 0:
        raise ValueError(f"{api}: 'kernel_size', 'dilation' and 'stride' must be >= 1 and 'padding' >= 0, but got "
                         f"{kernel}, {dilation}, {stride} and {padding}")
    hp, wp = h + 2 * ph, w + 2 * pw
    out_h, out_w = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    if out_h < 1 or out_w < 1:
        raise ValueError(f"{api}: a {kh}x{kw} window (dilation {dh}x{dw}) does not fit a {h}x{w} plane padded by "
                         f"{ph}x{pw}")
    ky, kx = np.meshgrid(np.arange(kh) * dh, np.arange(kw) * dw, indexing="ij")
    oy, ox = np.meshgrid(np.arange(out_h) * sh, np.arange(out_w) * sw, indexing="ij")
    rows = ky.reshape(-1, 1) + oy.reshape(1, -1)
    cols = kx.reshape(-1, 1) + ox.reshape(1, -1)
    return (rows * wp + cols).astype(np.int64), (out_h, out_w)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C * kh * kw, L): each column one window's elements, channel-major, L windows."""
    x = _tensor(input, "unfold", "input")
    if x.ndim != 4:
        raise ValueError(f"unfold: 'input' must be (N, C, H, W), but got shape {x.shape}")
    args = [_pair("unfold", name, v) for name, v in (("kernel_size", kernel_size), ("dilation", dilation),
                                                      ("padding", padding), ("stride", stride))]
    table, _ = _window_table("unfold", x.shape[2:], *args)
    ph, pw = args[2]
    padded = pad(x, (pw, pw, ph, ph)) if ph or pw else x
    n, c = x.shape[:2]
    flat = reshape(padded, (n, c, -1))
    cols = prim("Gather")(flat, Tensor(table.reshape(-1)), 2)  # (N, C, k * L)
    return reshape(cols, (n, c * table.shape[0], table.shape[1]))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C * kh * kw, L) -> (N, C, H, W): each column's elements added back where unfold took them."""
    x = _tensor(input, "fold", "input")
    size = _pair("fold", "output_size", output_size)
    args = [_pair("fold", name, v) for name, v in (("kernel_size", kernel_size), ("dilation", dilation),
                                                    ("padding", padding), ("stride", stride))]
    table, _ = _window_table("fold", size, *args)
    k, windows = table.shape
    if x.ndim != 3 or x.shape[1] % k or x.shape[2] != windows:
        raise ValueError(f"fold: 'input' must be (N, C * {k}, {windows}) for these windows, but got shape {x.shape}")
    (ph, pw), (h, w) = args[2], size
    n, c = x.shape[0], x.shape[1] // k
    hp, wp = h + 2 * ph, w + 2 * pw
    # Elements first for the segment sum: (k * L, N, C), summed into the padded plane's hp * wp positions.
    elements = transpose(reshape(x, (n, c, k * windows)), (2, 0, 1))
    plane = unsorted_segment_sum(elements, Tensor(table.reshape(-1)), hp * wp)  # (hp * wp, N, C)
    out = reshape(transpose(plane, (1, 2, 0)), (n, c, hp, wp))
    return prim("Slice")(out, (0, 0, ph, pw), (n, c, h, w)) if ph or pw else out


def _norm_type(api, norm_type):
    p = _check_float_arg(api, "norm_type", norm_type)
    if p == 0:  # the result is the sum's 1/p-th power
        raise ValueError(f"{api}: 'norm_type' must be nonzero, but got {norm_type!r}")
    return p


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling: (sum over each window of x^p)^(1/p), p = norm_type."""
    x = _tensor(x, "lp_pool2d", "x")
    p = _norm_type("lp_pool2d", norm_type)
    kernel, stride = _pool_window("lp_pool2d", "x", x, kernel_size, stride)  # the 2-d pools' checks
    sums = avg_pool2d(prim("Pow")(x, Tensor(p, x.dtype)), kernel, stride, 0, ceil_mode) * float(kernel[0] * kernel[-1])
    return prim("Pow")(sums, Tensor(1.0 / p, x.dtype))


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over the last axis of an (N, C, L) or (C, L) input."""
    x = _ncl("lp_pool1d", "x", x)
    p = _norm_type("lp_pool1d", norm_type)
    k = _pool_pair("lp_pool1d", "kernel_size", kernel_size)
    s = k if stride is None else _pool_pair("lp_pool1d", "stride", stride)
    return _back(lp_pool2d(_as_2d(x), p, k, s, ceil_mode), x)


__all__ = ["unfold", "fold", "lp_pool2d", "lp_pool1d"]
