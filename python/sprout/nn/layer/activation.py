"""Activation cells, each a thin wrapper of the functional op (``mindspore.nn`` activations)."""
import numbers

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


class ReLU(Cell):
    def construct(self, x):
        return ops.relu(x)


class ReLU6(Cell):
    def construct(self, x):
        return ops.relu6(x)


class LeakyReLU(Cell):
    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)

    def extend_repr(self):
        return f"alpha={self.alpha}"


class ELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def construct(self, x):
        return ops.elu(x, self.alpha)


class GELU(Cell):
    """GELU; approximate=True (MindSpore's default) uses the tanh form."""

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = approximate

    def construct(self, x):
        return ops.gelu(x, approximate="tanh" if self.approximate else "none")


class SiLU(Cell):
    def construct(self, x):
        return ops.silu(x)


class Mish(Cell):
    def construct(self, x):
        return ops.mish(x)


class HSwish(Cell):
    def construct(self, x):
        return ops.hardswish(x)


class HSigmoid(Cell):
    def construct(self, x):
        return ops.hardsigmoid(x)


class Sigmoid(Cell):
    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return ops.tanh(x)


class Softplus(Cell):
    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmax(x, self.axis)

    def extend_repr(self):
        return f"axis={self.axis}"


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class PReLU(Cell):
    """x where x > 0, else w * x, with a learned slope `w` per channel (axis 1), or one shared by all for
    channel=1; `w` starts at the number `w` or from a Tensor of `channel` values."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"PReLU: 'channel' must be a positive int, but got {channel!r}")
        if isinstance(w, numbers.Real) and not isinstance(w, bool):
            w = initializer(float(w), (channel,), mstype.float32)
        elif not (hasattr(w, "shape") and tuple(w.shape) in ((channel,), (1,))):
            raise ValueError(f"PReLU: 'w' must be a number or a Tensor of shape ({channel},), but got {w!r}")
        self.w = Parameter(w, name="a")

    def construct(self, x):
        return ops.prelu(x, self.w)


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "elu": ELU, "gelu": GELU, "silu": SiLU,
                "mish": Mish, "hswish": HSwish, "hsigmoid": HSigmoid, "sigmoid": Sigmoid, "tanh": Tanh,
                "softplus": Softplus, "softmax": Softmax, "logsoftmax": LogSoftmax, "prelu": PReLU}


def get_activation(name, prim_name=None):
    """The activation cell named `name` ('relu', 'gelu' ...), or None for None. An unknown name is a
    ValueError naming `prim_name` (the layer that was given it) when there is one."""
    if name is None:
        return None
    if not isinstance(name, str) or name.lower() not in _ACTIVATIONS:
        api, arg = (prim_name, "activation") if prim_name else ("get_activation", "name")
        raise ValueError(f"{api}: '{arg}' must be one of {', '.join(sorted(_ACTIVATIONS))}, but got {name!r}")
    return _ACTIVATIONS[name.lower()]()
