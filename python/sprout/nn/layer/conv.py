"""Convolution layers (``mindspore.nn.Conv2d`` ...), NCHW."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import HeUniform, Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


def _positive(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _pair(api, name, value, n=2):
    """kernel_size, stride or dilation as n positive ints (a window or step of 0 has no meaning)."""
    if _positive(value):
        return (value,) * n
    if isinstance(value, tuple) and len(value) == n and all(_positive(v) for v in value):
        return value
    count = f"{n} " if n > 1 else ""
    raise ValueError(f"{api}: '{name}' must be a positive int or a tuple of {count}positive ints, but got {value!r}")


def _conv_weight(api, in_channels, out_channels, group, kernel, weight_init, bias_init, has_bias, dtype, shape):
    for name, value in (("in_channels", in_channels), ("out_channels", out_channels), ("group", group)):
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
    if in_channels % group or out_channels % group:
        raise ValueError(f"{api}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                         f"divisible by group ({group})")
    weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init, shape, dtype),
                       name="weight")
    bias = None
    if has_bias:
        fan_in = in_channels // group * int(math.prod(kernel))
        bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init,
                                     (out_channels,), dtype), name="bias")
    return weight, bias


class Conv2d(Cell):
    """2-D convolution. MindSpore 2.x defaults: pad_mode='same', has_bias=False, HeUniform(sqrt(5)) weights."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        api = "Conv2d"
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels), ("group", group)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
        if in_channels % group or out_channels % group:
            raise ValueError(f"{api}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by group ({group})")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"{api}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"{api}: only data_format='NCHW' is supported, but got {data_format!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _pair(api, "kernel_size", kernel_size)
        self.stride = _pair(api, "stride", stride)
        self.dilation = _pair(api, "dilation", dilation)
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode, padding, group, has_bias
        shape = (out_channels, in_channels // group) + self.kernel_size
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init, shape,
                                            dtype), name="weight")
        if has_bias:
            fan_in = in_channels // group * self.kernel_size[0] * self.kernel_size[1]
            bias_init = Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        else:
            self.bias = None

    def construct(self, x):
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                          self.group)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}")


class Conv1d(Cell):
    """1-D convolution over (N, C, L); MindSpore 2.x defaults: pad_mode='same', has_bias=False."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel_size
        self.stride, self.pad_mode, self.padding, self.dilation, self.group = stride, pad_mode, padding, dilation, group
        kernel = _pair("Conv1d", "kernel_size", kernel_size, 1)
        self.weight, self.bias = _conv_weight("Conv1d", in_channels, out_channels, group, kernel, weight_init,
                                              bias_init, has_bias, dtype, (out_channels, in_channels // group) + kernel)

    def construct(self, x):
        return ops.conv1d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                          self.group)


class Conv3d(Cell):
    """3-D convolution over (N, C, D, H, W)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__()
        self.kernel_size = _pair("Conv3d", "kernel_size", kernel_size, 3)
        self.stride, self.pad_mode, self.padding, self.dilation, self.group = stride, pad_mode, padding, dilation, group
        self.weight, self.bias = _conv_weight("Conv3d", in_channels, out_channels, group, self.kernel_size,
                                              weight_init, bias_init, has_bias, dtype,
                                              (out_channels, in_channels // group) + self.kernel_size)

    def construct(self, x):
        return ops.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding, self.dilation,
                          self.group)


class Conv2dTranspose(Cell):
    """Transposed 2-D convolution (the gradient of Conv2d with respect to its input); weight
    (in_channels, out_channels // group, kh, kw) as MindSpore."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__()
        api = "Conv2dTranspose"
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"{api}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = _pair(api, "kernel_size", kernel_size)
        self.stride, self.dilation = _pair(api, "stride", stride), _pair(api, "dilation", dilation)
        self.pad_mode, self.padding = pad_mode, padding
        self.weight, self.bias = _conv_weight(api, in_channels, out_channels, group, self.kernel_size, weight_init,
                                              bias_init, has_bias, dtype,
                                              (in_channels, out_channels // group) + self.kernel_size)
        pad = padding if isinstance(padding, int) else tuple(padding)
        self._prim = ops.Conv2DTranspose(out_channel=in_channels, kernel_size=self.kernel_size, pad_mode=pad_mode,
                                         pad=pad, stride=self.stride, dilation=self.dilation, group=group)

    def _out_size(self, size, k, s, d):
        if self.pad_mode == "same":
            return size * s
        pad = 2 * self.padding if self.pad_mode == "pad" and isinstance(self.padding, int) else 0
        return (size - 1) * s + d * (k - 1) + 1 - pad

    def construct(self, x):
        n, _, h, w = x.shape
        out_h = self._out_size(h, self.kernel_size[0], self.stride[0], self.dilation[0])
        out_w = self._out_size(w, self.kernel_size[1], self.stride[1], self.dilation[1])
        y = self._prim(x, self.weight, (n, self.out_channels, out_h, out_w))
        return y + self.bias.reshape(1, -1, 1, 1) if self.bias is not None else y
