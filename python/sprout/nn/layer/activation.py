"""Activation cells, each a thin wrapper of the functional op (``mindspore.nn`` activations)."""
from sprout import ops
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


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "elu": ELU, "gelu": GELU, "silu": SiLU,
                "mish": Mish, "hswish": HSwish, "hsigmoid": HSigmoid, "sigmoid": Sigmoid, "tanh": Tanh,
                "softplus": Softplus, "softmax": Softmax, "logsoftmax": LogSoftmax}


def get_activation(name, prim_name=None):
    """The activation cell named `name` ('relu', 'gelu' ...), or None for None."""
    if name is None:
        return None
    if not isinstance(name, str) or name.lower() not in _ACTIVATIONS:
        raise KeyError(f"get_activation: unknown activation {name!r}; known: {', '.join(sorted(_ACTIVATIONS))}")
    return _ACTIVATIONS[name.lower()]()
