"""Cell.register_backward_hook / register_backward_pre_hook in PYNATIVE mode.

A hooked cell's call is wrapped in two identity nodes of the eager graph: one over its tracked tensor
outputs, whose backward is the first to see the output gradients (grad_output: the pre-hooks run there
and may replace them), and one over its tracked tensor inputs, whose backward sees the input gradients
(grad_input) once everything inside the cell has run: the hooks run there and may replace them. As in
MindSpore and PyTorch, grad_input has one entry per Tensor input (None where no gradient flows).
"""
from sprout import _C
from sprout.common.tensor import Tensor


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _replacement(api, cell, old, new):
    """A hook's result: None keeps `old`; otherwise one tensor (or None) per entry of `old`."""
    if new is None:
        return old
    new = _as_tuple(new) if not isinstance(new, list) else tuple(new)
    if len(new) != len(old):
        raise ValueError(f"{type(cell).__name__}.{api}: the hook must return None or {len(old)} gradient(s), one per "
                         f"entry it was given, but returned {len(new)}")
    for g in new:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"{type(cell).__name__}.{api}: the hook must return Tensors (or None), but returned "
                            f"{type(g).__name__}")
    return new


def call_with_backward_hooks(cell, inputs, kwargs):
    state = {"grad_output": None}
    tensor_inputs = [i for i, x in enumerate(inputs) if isinstance(x, Tensor)]
    tracked_inputs = [i for i in tensor_inputs if _C.is_tracked(inputs[i])]

    def run_hooks(grad_input):
        grad_output = state["grad_output"]
        for hook in list(cell._backward_hooks.values()):
            grad_input = _replacement("register_backward_hook", cell, grad_input, hook(cell, grad_input, grad_output))
        return grad_input

    def inputs_backward(douts):
        by_position = dict(zip(tracked_inputs, douts))
        grad_input = run_hooks(tuple(by_position.get(i) for i in tensor_inputs))
        new = dict(zip(tensor_inputs, grad_input))
        return tuple(new[i] for i in tracked_inputs)

    if tracked_inputs:
        aliases = _C.record_custom(inputs_backward, [inputs[i] for i in tracked_inputs],
                                   [_C.detach(inputs[i]) for i in tracked_inputs])
        inputs = list(inputs)
        for i, alias in zip(tracked_inputs, aliases):
            inputs[i] = alias
    output = cell.construct(*inputs, **kwargs)

    outputs = list(output) if isinstance(output, (tuple, list)) else [output]
    tracked_outputs = [k for k, o in enumerate(outputs) if isinstance(o, Tensor) and _C.is_tracked(o)]
    if not tracked_outputs:
        return output

    def outputs_backward(douts):
        grad_output = tuple(douts)
        for hook in list(cell._backward_pre_hooks.values()):
            grad_output = _replacement("register_backward_pre_hook", cell, grad_output, hook(cell, grad_output))
        state["grad_output"] = grad_output
        if not tracked_inputs and cell._backward_hooks:  # no input gradient will come: grad_input is all None
            run_hooks(tuple(None for _ in tensor_inputs))
        return tuple(g if g is not None else d for g, d in zip(grad_output, douts))

    aliases = _C.record_custom(outputs_backward, [outputs[k] for k in tracked_outputs],
                               [_C.detach(outputs[k]) for k in tracked_outputs])
    for k, alias in zip(tracked_outputs, aliases):
        outputs[k] = alias
    if isinstance(output, (tuple, list)):
        return type(output)(outputs)
    return outputs[0]
