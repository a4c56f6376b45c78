"""Convolution layers (``mindspore.nn.Conv2d`` ...), NCHW."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import HeUniform, Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


def _pair(api, name, value, n=2):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    if isinstance(value, tuple) and len(value) == n and all(isinstance(v, int) for v in value):
        return value
    raise ValueError(f"{api}: '{name}' must be an int or a tuple of {n} ints, but got {value!r}")


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
