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


def _check_pad_mode(api, pad_mode):
    if pad_mode not in ("same", "valid", "pad"):
        raise ValueError(f"{api}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")


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
        _check_pad_mode(api, pad_mode)
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
        _check_pad_mode(api, pad_mode)
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


def _transposed_size(size, kernel, stride, dilation, pad_mode, before_after, output_padding):
    """Output length of a transposed convolution on one axis (the input length of the forward one)."""
    if pad_mode == "same":
        return size * stride + output_padding
    return (size - 1) * stride + dilation * (kernel - 1) + 1 - sum(before_after) + output_padding


class Conv1dTranspose(Cell):
    """Transposed 1-d convolution over (N, C, L); weight (in_channels, out_channels // group, kernel_size), as
    Conv2dTranspose's with a unit height."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__()
        api = "Conv1dTranspose"
        _check_pad_mode(api, pad_mode)
        if not isinstance(padding, int) or isinstance(padding, bool) or padding < 0 or (padding and pad_mode != "pad"):
            raise ValueError(f"{api}: 'padding' must be an int >= 0, non-zero only with pad_mode='pad', but got "
                             f"{padding!r}")
        (self.kernel_size,), (self.stride,) = _pair(api, "kernel_size", kernel_size, 1), _pair(api, "stride", stride, 1)
        (self.dilation,) = _pair(api, "dilation", dilation, 1)
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.pad_mode, self.padding, self.has_bias = pad_mode, padding, has_bias
        self.weight, self.bias = _conv_weight(api, in_channels, out_channels, group, (self.kernel_size,), weight_init,
                                              bias_init, has_bias, dtype,
                                              (in_channels, out_channels // group, self.kernel_size))
        self._prim = ops.Conv2DTranspose(out_channel=in_channels, kernel_size=(1, self.kernel_size), pad_mode=pad_mode,
                                         pad=(0, 0, padding, padding), stride=(1, self.stride),
                                         dilation=(1, self.dilation), group=group)

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError(f"Conv1dTranspose: expects an input of shape (N, C, L), but got {x.shape}")
        n, _, length = x.shape
        out = _transposed_size(length, self.kernel_size, self.stride, self.dilation, self.pad_mode,
                               (self.padding, self.padding) if self.pad_mode == "pad" else (0, 0), 0)
        w = self.weight.reshape(self.in_channels, self.out_channels // self.group, 1, self.kernel_size)
        y = self._prim(ops.expand_dims(x, 2), w, (n, self.out_channels, 1, out)).squeeze(2)
        return y + self.bias.reshape(1, -1, 1) if self.bias is not None else y


class Conv3dTranspose(Cell):
    """Transposed 3-d convolution over (N, C, D, H, W) (the gradient of Conv3d with respect to its input);
    weight (in_channels, out_channels // group, kd, kh, kw). padding: an int, or 6 ints (before and after
    along depth, height, width); output_padding adds cells at the end of each axis."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__()
        api = "Conv3dTranspose"
        _check_pad_mode(api, pad_mode)
        if data_format != "NCDHW":
            raise ValueError(f"{api}: only data_format='NCDHW' is supported, but got {data_format!r}")
        pads = (padding,) * 6 if isinstance(padding, int) and not isinstance(padding, bool) else padding
        if not (isinstance(pads, tuple) and len(pads) == 6 and all(isinstance(p, int) and p >= 0 for p in pads)) or \
                (any(pads) and pad_mode != "pad"):
            raise ValueError(f"{api}: 'padding' must be an int or 6 ints >= 0, non-zero only with pad_mode='pad', "
                             f"but got {padding!r}")
        self.kernel_size = _pair(api, "kernel_size", kernel_size, 3)
        self.stride, self.dilation = _pair(api, "stride", stride, 3), _pair(api, "dilation", dilation, 3)
        self.output_padding = (output_padding,) * 3 if isinstance(output_padding, int) else tuple(output_padding)
        if len(self.output_padding) != 3 or any(not 0 <= p < max(s, d) for p, s, d in
                                                 zip(self.output_padding, self.stride, self.dilation)):
            raise ValueError(f"{api}: 'output_padding' must be ints smaller than the stride or the dilation, but got "
                             f"{output_padding!r}")
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.pad_mode, self.padding, self.has_bias = pad_mode, pads, has_bias
        self.weight, self.bias = _conv_weight(api, in_channels, out_channels, group, self.kernel_size, weight_init,
                                              bias_init, has_bias, dtype,
                                              (in_channels, out_channels // group) + self.kernel_size)
        self._prim = ops.Conv3DBackpropInput(out_channel=in_channels, kernel_size=self.kernel_size, pad_mode=pad_mode,
                                             pad=pads, stride=self.stride, dilation=self.dilation, group=group)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"Conv3dTranspose: expects an input of shape (N, C, D, H, W), but got {x.shape}")
        sizes = tuple(_transposed_size(x.shape[2 + a], self.kernel_size[a], self.stride[a], self.dilation[a],
                                       self.pad_mode, self.padding[2 * a:2 * a + 2], self.output_padding[a])
                      for a in range(3))
        y = self._prim(self.weight, x, (x.shape[0], self.out_channels) + sizes)
        return y + self.bias.reshape(1, -1, 1, 1, 1) if self.bias is not None else y
