"""Layers that chain a Dense or a convolution with an optional batch norm and activation, MindSpore's
``nn.DenseBnAct`` and ``nn.Conv2dBnAct`` (its quantization-aware building blocks, used as plain layers)."""
from sprout.nn.cell import Cell
from sprout.nn.layer.activation import LeakyReLU, get_activation
from sprout.nn.layer.basic import Dense
from sprout.nn.layer.conv import Conv2d
from sprout.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from sprout.ops.primitive import Primitive


def _activation(api, activation, alpha):
    if activation is None:
        return None
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    cell = get_activation(activation) if isinstance(activation, str) else activation
    if not isinstance(cell, (Cell, Primitive)):
        raise TypeError(f"{api}: 'activation' must be a str, a Cell or a Primitive, but got "
                        f"{type(activation).__name__}")
    return cell


def _flag(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {value!r}")
    return value


class DenseBnAct(Cell):
    """Dense, then BatchNorm1d when has_bn, then the activation (a name, 'leakyrelu' with slope alpha, a Cell
    or a Primitive) when given. after_fake concerns quantization only and changes nothing here."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _flag("DenseBnAct", "has_bn", has_bn)
        self.after_fake = _flag("DenseBnAct", "after_fake", after_fake)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation("DenseBnAct", activation, alpha)
        self.has_act = self.activation is not None

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class Conv2dBnAct(Cell):
    """Conv2d, then BatchNorm2d when has_bn, then the activation when given (as DenseBnAct)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                           has_bias, weight_init, bias_init)
        self.has_bn = _flag("Conv2dBnAct", "has_bn", has_bn)
        self.after_fake = _flag("Conv2dBnAct", "after_fake", after_fake)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation("Conv2dBnAct", activation, alpha)
        self.has_act = self.activation is not None

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
