"""BiDense (``mindspore.nn.BiDense``): the bilinear layer y = x1^T A x2 + b, one (in1, in2) matrix A per
output channel."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function.nn_loss_more_func import _check_bool


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"BiDense: '{name}' must be an int, but got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"BiDense: '{name}' must be a positive int, but got {value}")
    return value


class BiDense(Cell):
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]; weight
    (out_channels, in1_channels, in2_channels). Both default to Uniform(1 / sqrt(in1_channels)), as MindSpore."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        self.in1_channels = _positive_int("in1_channels", in1_channels)
        self.in2_channels = _positive_int("in2_channels", in2_channels)
        self.out_channels = _positive_int("out_channels", out_channels)
        self.has_bias = _check_bool("BiDense", "has_bias", has_bias)
        bound = 1 / math.sqrt(in1_channels)
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"BiDense: 'weight_init' must have shape {shape} (out_channels, in1_channels, "
                             f"in2_channels), but got {tuple(weight_init.shape)}")
        weight_init = Uniform(bound) if weight_init is None else weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"BiDense: 'bias_init' must have shape ({out_channels},), but got "
                                 f"{tuple(bias_init.shape)}")
            bias_init = Uniform(bound) if bias_init is None else bias_init
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")

    def construct(self, input1, input2):
        for name, x in (("input1", input1), ("input2", input2)):
            if not isinstance(x, Tensor):
                raise TypeError(f"BiDense: '{name}' must be a Tensor, but got {type(x).__name__}")
        return ops.bidense(input1, input2, self.weight, self.bias)

    def extend_repr(self):
        return (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
                f"out_channels={self.out_channels}, has_bias={self.has_bias}")
