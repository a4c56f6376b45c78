"""Pooling layers (``mindspore.nn.MaxPool2d``, ``MaxPool1d`` ...), NCHW and NCL."""
from sprout import ops
from sprout.nn.cell import Cell


class _Pool2d(Cell):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, data_format="NCHW", ceil_mode=False):
        super().__init__()
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"{type(self).__name__}: 'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"{type(self).__name__}: only data_format='NCHW' is supported, got {data_format!r}")
        if (padding or ceil_mode) and pad_mode != "pad":
            raise ValueError(f"{type(self).__name__}: 'padding' and 'ceil_mode' need pad_mode='pad', got {pad_mode!r}")
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
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, ceil_mode)
        self.dilation, self.return_indices = dilation, return_indices

    def construct(self, x):
        if self.pad_mode == "pad":
            return ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self.dilation, self.return_indices,
                                  self.ceil_mode)
        return self._primitive(ops.MaxPool)(x)


class AvgPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format, ceil_mode)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def construct(self, x):
        if self.pad_mode == "pad":
            return ops.avg_pool2d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                  self.count_include_pad, self.divisor_override)
        return self._primitive(ops.AvgPool)(x)


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
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode):
        super().__init__()
        if pad_mode not in ("valid", "pad"):
            raise ValueError(f"{type(self).__name__}: 'pad_mode' must be 'valid' or 'pad', got {pad_mode!r}")
        if (padding or ceil_mode) and pad_mode != "pad":
            raise ValueError(f"{type(self).__name__}: 'padding' and 'ceil_mode' need pad_mode='pad', got {pad_mode!r}")
        self.kernel_size, self.stride, self.pad_mode, self.padding = kernel_size, stride, pad_mode, padding
        self.ceil_mode = ceil_mode

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool1d(_Pool1d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
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
