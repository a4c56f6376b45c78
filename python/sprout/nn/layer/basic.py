"""Basic layers: Dense, Flatten, Identity."""
import math

from sprout.common import dtype as mstype
from sprout.common.initializer import HeUniform, Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout import ops


class Dense(Cell):
    """``y = activation(x @ weight.T + bias)``; weight (out_channels, in_channels), as MindSpore.

    Default init follows MindSpore 2.x: HeUniform(sqrt(5)) weight, Uniform(1/sqrt(in_channels)) bias.
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        for name, value in (("in_channels", in_channels), ("out_channels", out_channels)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"Dense: '{name}' must be a positive int, but got {value!r}")
        self.in_channels, self.out_channels, self.has_bias = in_channels, out_channels, has_bias
        weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = Parameter(initializer(weight_init, (out_channels, in_channels), dtype), name="weight")
        if has_bias:
            bias_init = Uniform(1 / math.sqrt(in_channels)) if bias_init is None else bias_init
            self.bias = Parameter(initializer(bias_init, (out_channels,), dtype), name="bias")
        if isinstance(activation, str):  # MindSpore's spelling: Dense(..., activation="relu")
            from sprout.nn.layer.activation import get_activation
            activation = get_activation(activation, "Dense")
        if activation is not None and not callable(activation):
            raise TypeError(f"Dense: 'activation' must be a Cell, callable or name, but got {type(activation).__name__}")
        self.activation = activation
        # Primitives under MindSpore's names, so that a model-parallel script can shard them
        # (dense.matmul.shard(...), Note [Sharded primitives]).
        self.matmul = ops.MatMul(transpose_b=True)
        self.bias_add = ops.Add()

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"Dense: 'x' must be a Tensor, but got {type(x).__name__}")
        if x.ndim == 0:
            raise ValueError(f"Dense: 'x' must be (..., in_channels={self.in_channels}), but got a 0-d tensor")
        if x.shape[-1] != self.in_channels:
            raise ValueError(f"Dense: the input's last dimension is {x.shape[-1]}, expected in_channels="
                             f"{self.in_channels} (input shape {x.shape})")
        lead = x.shape[:-1]
        x2 = x.reshape(-1, self.in_channels) if x.ndim != 2 else x
        y = self.matmul(x2, self.weight)
        if self.has_bias:
            y = self.bias_add(y, self.bias)
        if x.ndim != 2:
            y = y.reshape(lead + (self.out_channels,))
        return self.activation(y) if self.activation is not None else y

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}, has_bias={self.has_bias}"
        return s + (f", activation={self.activation}" if self.activation is not None else "")


class Flatten(Cell):
    """Flattens dims start_dim..end_dim (MindSpore 2.x defaults: 1..-1)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        nd = x.ndim
        start = self.start_dim % nd if nd else 0
        end = self.end_dim % nd if nd else 0
        if start > end:
            raise ValueError(f"Flatten: start_dim {self.start_dim} comes after end_dim {self.end_dim} "
                             f"for an input of rank {nd}")
        shape = x.shape[:start] + (-1,) + x.shape[end + 1:]
        return x.reshape(shape)


class Identity(Cell):
    def construct(self, x):
        return x


class PixelShuffle(Cell):
    """(*, C r^2, H, W) -> (*, C, H r, W r) (ops.pixel_shuffle)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, x):
        return ops.pixel_shuffle(x, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H r, W r) -> (*, C r^2, H, W) (ops.pixel_unshuffle)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, x):
        return ops.pixel_unshuffle(x, self.downscale_factor)


class Unflatten(Cell):
    """Splits axis `axis` into `unflattened_size` (whose product is that axis's length)."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"Unflatten: 'unflattened_size' must be a tuple or list, but got {unflattened_size!r}")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, x):
        axis = self.axis % x.ndim
        return ops.reshape(x, x.shape[:axis] + self.unflattened_size + x.shape[axis + 1:])


class Upsample(Cell):
    """Resizes images (ops.interpolate) to `size` or by `scale_factor`."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)
