"""Jvp and Vjp cells (``mindspore.nn.Jvp``, ``mindspore.nn.Vjp``, MindSpore's older spelling of ops.jvp and
ops.vjp): the last input is the vector, the others are fn's inputs."""
from sprout.nn.cell import Cell
from sprout.ops.composite.grad import jvp, vjp


def _split(api, args):
    if len(args) < 2:
        raise ValueError(f"{api}: expects fn's inputs followed by the vector, but got {len(args)} input(s)")
    return args[:-1], args[-1]


class Jvp(Cell):
    """``Jvp(fn)(*inputs, v)`` -> (fn(*inputs), J v): v is a Tensor for one input, a tuple for several."""

    def __init__(self, fn):
        super().__init__()
        if not callable(fn):
            raise TypeError(f"Jvp: 'fn' must be a Cell or function, but got {type(fn).__name__}")
        self.fn = fn

    def construct(self, *args):
        inputs, v = _split("Jvp", args)
        return jvp(self.fn, inputs, v)


class Vjp(Cell):
    """``Vjp(fn)(*inputs, v)`` -> (fn(*inputs), v^T J): the gradient of one input, or a tuple of them."""

    def __init__(self, fn):
        super().__init__()
        if not callable(fn):
            raise TypeError(f"Vjp: 'fn' must be a Cell or function, but got {type(fn).__name__}")
        self.fn = fn

    def construct(self, *args):
        inputs, v = _split("Vjp", args)
        out, back = vjp(self.fn, *inputs)
        return out, back(v)


# Staged from source when compiled (Note [Staging]): the compiler differentiates fn.
Jvp.construct._sprout_stage = True
Vjp.construct._sprout_stage = True
