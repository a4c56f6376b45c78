"""The identity whose gradient is a hook's result: what ops.HookBackward, ops.InsertGradientOf and a
Tensor.register_hook while compiling are (python/sprout/common/grad_hooks.py). A Cell with a bprop, which
both modes already differentiate through its bprop; in compiled code the hook is compiled into it."""
from sprout.nn.cell import Cell


class GradientHookCell(Cell):
    """Identity whose gradient is hook(gradient) (or the gradient, where the hook returns None)."""

    def __init__(self, hook):
        super().__init__()
        self.hook = hook

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        new = self.hook(dout)
        if new is None:
            return (dout,)
        return (new,)


class InputsGradientHookCell(Cell):
    """Identity of several tensors whose gradients hook(tuple of gradients) replaces together (with a tuple;
    None keeps them): ops.HookBackward."""

    def __init__(self, hook):
        super().__init__()
        self.hook = hook

    def construct(self, *inputs):
        return inputs

    def bprop(self, *args):
        douts = args[-1]
        new = self.hook(douts)  # checked by the hook's wrapper (grad_hooks._gradients_fn)
        return douts if new is None else new
