"""3-D pooling layers (``mindspore.nn.MaxPool3d``, ``AvgPool3d``, ``AdaptiveAvgPool3d``, ``AdaptiveMaxPool3d``)
over (N, C, D, H, W) or (C, D, H, W) inputs.

Note [Separable 3-D pooling]
A max or a sum over a box is the max or the sum over its depth of the same over its height and width. So
each layer pools height and width with the 2-d ops (the depth folded into the channels), then the depth
with the 1-d ops (height and width folded into the channels); the gradient comes from their rules, and
adaptive pooling separates the same way (a window's bounds are per axis). Padding is explicit (-inf for
max, 0 for a sum), so every mode ('valid', 'same', 'pad', ceil_mode) is one valid pooling. An average
divides each window's sum by the cells that count in it, a product of per-axis counts: padding counts
when count_include_pad, cells ceil_mode adds never do. MaxPool3d pools through ops.max_pool3d, which
separates the same way unless it must return indices or dilate (Note [Max pooling indices]).
"""
import math
import numbers

import numpy as np

from sprout import ops
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell


def _triple(api, name, value, minimum):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (int(value),) * 3
    elif isinstance(value, (tuple, list)) and len(value) == 1:
        value = tuple(value) * 3
    ok = (isinstance(value, (tuple, list)) and len(value) == 3
          and all(isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= minimum for v in value))
    if not ok:
        raise ValueError(f"{api}: '{name}' must be an int >= {minimum} or a tuple of 3 such ints, but got {value!r}")
    return tuple(int(v) for v in value)


def _as_5d(api, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'x' must be a Tensor, but got {type(x).__name__}")
    if x.ndim not in (4, 5):
        raise ValueError(f"{api}: expects an input of shape (N, C, D, H, W) or (C, D, H, W), but got {x.shape}")
    return (x, False) if x.ndim == 5 else (ops.expand_dims(x, 0), True)


class _Pool3d(Cell):
    def __init__(self, api, kernel_size, stride, pad_mode, padding, dilation, ceil_mode):
        super().__init__()
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"{api}: 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}")
        self.kernel_size = _triple(api, "kernel_size", kernel_size, 1)
        self.stride = _triple(api, "stride", stride, 1)
        self.dilation = _triple(api, "dilation", dilation, 1)
        self.padding = _triple(api, "padding", padding, 0)
        if (any(self.padding) or ceil_mode) and pad_mode != "pad":
            raise ValueError(f"{api}: 'padding' and 'ceil_mode' need pad_mode='pad', but got {pad_mode!r}")
        self.pad_mode, self.ceil_mode, self._api = pad_mode, bool(ceil_mode), api

    def _axis_padding(self, size, axis):
        """(before, after, extra) cells on one axis: the mode's padding, then the cells ceil_mode adds."""
        k, s, d = self.kernel_size[axis], self.stride[axis], self.dilation[axis]
        span = d * (k - 1) + 1
        if self.pad_mode == "valid":
            before = after = 0
        elif self.pad_mode == "pad":
            before = after = self.padding[axis]
            if 2 * before > span:
                raise ValueError(f"{self._api}: 'padding' {before} must be at most half the window ({span})")
        else:  # 'same': MindSpore's rule, the odd cell after
            total = max((math.ceil(size / s) - 1) * s + span - size, 0)
            before, after = total // 2, total - total // 2
        padded = size + before + after
        if padded < span:
            raise ValueError(f"{self._api}: the window ({span}) is larger than the padded input ({padded}) on axis "
                             f"{axis + 2}")
        extra = 0
        if self.ceil_mode:
            out = -(-(padded - span) // s) + 1
            if (out - 1) * s >= size + before:  # the last window must start inside the input or its padding
                out -= 1
            extra = max((out - 1) * s + span - padded, 0)
        return before, after, extra

    def _pad(self, x, value):
        pads = [self._axis_padding(x.shape[2 + a], a) for a in range(3)]
        widths = []
        for before, after, extra in reversed(pads):  # ops.pad lists the last axis first
            widths += [before, after + extra]
        if any(widths):
            x = ops.pad(x, tuple(widths), value=value)
        return x, pads


def _separable(x, pool2d, args2d, pool1d, args1d):
    """pool2d(x, *args2d) over height and width, then pool1d(., *args1d) over depth (Note [Separable 3-D
    pooling]). The ops and their arguments come apart: a cell compiled on its own is staged from source,
    where a function made in construct would be a staged closure this library code cannot call."""
    n, c, depth, height, width = x.shape
    y = pool2d(x.reshape(n, c * depth, height, width), *args2d)
    h, w = y.shape[-2:]
    y = ops.transpose(y.reshape(n, c, depth, h * w), (0, 1, 3, 2)).reshape(n, c * h * w, depth)
    y = pool1d(y, *args1d)
    return ops.transpose(y.reshape(n, c, h, w, y.shape[-1]), (0, 1, 4, 2, 3))


class MaxPool3d(_Pool3d):
    """Max over each window of the depth, height and width axes; with return_indices (pad_mode='pad'),
    (output, indices), the indices flat in each D * H * W input volume (ops.max_pool3d)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__("MaxPool3d", kernel_size, stride, pad_mode, padding, dilation, ceil_mode)
        if not isinstance(return_indices, bool):
            raise TypeError(f"MaxPool3d: 'return_indices' must be a bool, but got {return_indices!r}")
        dilated = self.dilation != (1, 1, 1)
        for arg, given in (("return_indices=True", return_indices), (f"dilation={dilation!r}", dilated)):
            if given and pad_mode != "pad":  # MindSpore's rule
                raise ValueError(f"MaxPool3d: {arg} is not supported with pad_mode={pad_mode!r}; use pad_mode='pad'")
        self.return_indices = return_indices

    def construct(self, x):
        x, squeezed = _as_5d(self._api, x)
        if self.pad_mode == "pad":  # the op pads, so that the indices count input cells only
            out = ops.max_pool3d(x, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                                 self.return_indices)
        else:
            x, _ = self._pad(x, float("-inf"))
            out = ops.max_pool3d(x, self.kernel_size, self.stride)
        if not squeezed:
            return out
        return (ops.squeeze(out[0], 0), ops.squeeze(out[1], 0)) if self.return_indices else ops.squeeze(out, 0)


class AvgPool3d(_Pool3d):
    """Mean over each window of the depth, height and width axes."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__("AvgPool3d", kernel_size, stride, pad_mode, padding, 1, ceil_mode)
        if divisor_override is not None and (isinstance(divisor_override, bool) or
                                             not isinstance(divisor_override, numbers.Integral) or
                                             divisor_override <= 0):
            raise ValueError(f"AvgPool3d: 'divisor_override' must be a positive int or None, but got "
                             f"{divisor_override!r}")
        self.count_include_pad, self.divisor_override = bool(count_include_pad), divisor_override

    def _counts(self, size, axis, pads):
        """How many cells count in each window along one axis."""
        before, after, extra = pads
        k, s = self.kernel_size[axis], self.stride[axis]
        counted = np.zeros(size + before + after + extra)
        start, stop = (0, size + before + after) if self.count_include_pad else (before, before + size)
        counted[start:stop] = 1
        return np.array([counted[i:i + k].sum() for i in range(0, len(counted) - k + 1, s)])

    def construct(self, x):
        x, squeezed = _as_5d(self._api, x)
        sizes = x.shape[2:]
        x, pads = self._pad(x, 0.0)
        k, s = self.kernel_size, self.stride
        sums = _separable(x, ops.avg_pool2d, (k[1:], s[1:]), ops.avg_pool1d, (k[0], s[0])) * float(k[0] * k[1] * k[2])
        if self.divisor_override is not None:
            y = sums / float(self.divisor_override)
        else:
            cd, ch, cw = (self._counts(sizes[a], a, pads[a]) for a in range(3))
            divisor = (cd[:, None, None] * ch[None, :, None] * cw[None, None, :]).astype(np.float32)
            y = sums / Tensor(divisor, sums.dtype)
        return ops.squeeze(y, 0) if squeezed else y


def _output_size(api, output_size, spatial):
    sizes = (output_size,) * 3 if isinstance(output_size, numbers.Integral) or output_size is None else output_size
    if not isinstance(sizes, (tuple, list)) or len(sizes) != 3 or not all(
            s is None or (isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0) for s in sizes):
        raise ValueError(f"{api}: 'output_size' must be a positive int or a tuple of 3 positive ints or None, but got "
                         f"{output_size!r}")
    return tuple(int(s) if s is not None else size for s, size in zip(sizes, spatial))


class AdaptiveAvgPool3d(Cell):
    """Mean over the windows that split depth, height and width into output_size (None keeps an axis)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        x, squeezed = _as_5d("AdaptiveAvgPool3d", x)
        od, oh, ow = _output_size("AdaptiveAvgPool3d", self.output_size, x.shape[2:])
        y = _separable(x, ops.adaptive_avg_pool2d, ((oh, ow),), ops.adaptive_avg_pool1d, (od,))
        return ops.squeeze(y, 0) if squeezed else y


class AdaptiveMaxPool3d(Cell):
    """Max over the windows that split depth, height and width into output_size (None keeps an axis); with
    return_indices, (output, Int32 indices flat in each D * H * W input volume), ops.adaptive_max_pool3d's."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        if not isinstance(return_indices, bool):
            raise TypeError(f"AdaptiveMaxPool3d: 'return_indices' must be a bool, but got {return_indices!r}")
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, x):
        if self.return_indices:
            return ops.adaptive_max_pool3d(x, self.output_size, True)
        x, squeezed = _as_5d("AdaptiveMaxPool3d", x)
        od, oh, ow = _output_size("AdaptiveMaxPool3d", self.output_size, x.shape[2:])
        y = _separable(x, ops.adaptive_max_pool2d, ((oh, ow),), ops.adaptive_max_pool1d, (od,))
        return ops.squeeze(y, 0) if squeezed else y
