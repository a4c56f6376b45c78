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
