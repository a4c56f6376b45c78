"""Pooling layers (``mindspore.nn.MaxPool2d``, ``MaxPool1d`` ...), NCHW and NCL.

Max pooling with return_indices or dilation needs pad_mode='pad' (MindSpore's rule: its other modes run
the MaxPool primitive, which has neither); such a layer returns (output, indices), the indices flat in
each input plane (Note [Max pooling indices]).
"""
from sprout import ops
from sprout.nn.cell import Cell


def _check_pad_only(api, pad_mode, padding, ceil_mode, dilation=1, return_indices=False):
    """Arguments MindSpore takes only with pad_mode='pad'."""
    if not isinstance(ceil_mode, bool) or not isinstance(return_indices, bool):
        raise TypeError(f"{api}: 'ceil_mode' and 'return_indices' must be bools, but got {ceil_mode!r} and "
                        f"{return_indices!r}")
    if pad_mode == "pad":
        return
    if padding or ceil_mode:
        raise ValueError(f"{api}: 'padding' and 'ceil_mode' need pad_mode='pad', got {pad_mode!r}")
    if return_indices or dilation not in (1, (1,), (1, 1), [1], [1, 1]):
        raise ValueError(f"{api}: 'dilation' other than 1 and return_indices=True need pad_mode='pad', got "
                         f"{pad_mode!r}")


def _batched(x, ndim):
    """x with a batch axis: (x, whether one was added) for an input of `ndim` axes without one."""
    return (ops.expand_dims(x, 0), True) if x.ndim == ndim else (x, False)


def _unbatched(out, added):
    if not added:
        return out
    return tuple(ops.squeeze(t, 0) for t in out) if isinstance(out, tuple) else ops.squeeze(out, 0)


class _Pool2d(Cell):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, data_format="NCHW", ceil_mode=False,
                 dilation=1, return_indices=False):
        super().__init__()
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"{type(self).__name__}: 'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"{type(self).__name__}: only data_format='NCHW' is supported, got {data_format!r}")
        _check_pad_only(type(self).__name__, pad_mode, padding, ceil_mode, dilation, return_indices)
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode, padding
        self.ceil_mode = ceil_mode
        self._prim = None

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"

    def _primitive(self, cls):
        if self._prim is None:
            object.__setattr__(self, "_prim", cls(kernel_size=self.kernel_size, strides=self.stride,
                                                  pad_mode="same" if self.pad_mode == "same" else "valid"))
        return self._prim


class MaxPool2d(_Pool2d):
    """Max over each window of the last two axes of (N, C, H, W) or (C, H, W) inputs; with
    return_indices (pad_mode='pad'), (output, indices)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, ceil_mode, dilation, return_indices)
        self.dilation, self.return_indices = dilation, return_indices

    def construct(self, x):
        x, added = _batched(x, 3)
        if self.pad_mode == "pad":
            out = ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                                 self.ceil_mode)
        else:
            out = self._primitive(ops.MaxPool)(x)
        return _unbatched(out, added)


class AvgPool2d(_Pool2d):
    """Mean over each window of the last two axes of (N, C, H, W) or (C, H, W) inputs."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, ceil_mode)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def construct(self, x):
        x, added = _batched(x, 3)
        if self.pad_mode == "pad":
            out = ops.avg_pool2d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                 self.count_include_pad, self.divisor_override)
        else:
            out = self._primitive(ops.AvgPool)(x)
        return _unbatched(out, added)


class AdaptiveAvgPool2d(Cell):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        return ops.adaptive_avg_pool2d(x, self.output_size)


class AdaptiveMaxPool2d(Cell):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, x):
        return ops.adaptive_max_pool2d(x, self.output_size, self.return_indices)


class _Pool1d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, dilation=1, return_indices=False):
        super().__init__()
        if pad_mode not in ("valid", "pad"):
            raise ValueError(f"{type(self).__name__}: 'pad_mode' must be 'valid' or 'pad', got {pad_mode!r}")
        _check_pad_only(type(self).__name__, pad_mode, padding, ceil_mode, dilation, return_indices)
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode, padding
        self.ceil_mode = ceil_mode

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool1d(_Pool1d):
    """Max over each window of the last axis of (N, C, L) or (C, L) inputs; with return_indices
    (pad_mode='pad'), (output, indices)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, dilation, return_indices)
        self.dilation, self.return_indices = dilation, return_indices

    def construct(self, x):
        return ops.max_pool1d(x, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                              self.ceil_mode)


class AvgPool1d(_Pool1d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        self.count_include_pad = count_include_pad

    def construct(self, x):
        return ops.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)


class AdaptiveAvgPool1d(Cell):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        return ops.adaptive_avg_pool1d(x, self.output_size)


class AdaptiveMaxPool1d(Cell):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        return ops.adaptive_max_pool1d(x, self.output_size)


class LPPool1d(Cell):
    """Power-average pooling over the last axis: (sum over each window of x^p)^(1/p)."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x):
        return ops.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(LPPool1d):
    """Power-average pooling over the last two axes: (sum over each window of x^p)^(1/p)."""

    def construct(self, x):
        return ops.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)
