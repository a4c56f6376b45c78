"""Gradient hooks: ``Tensor.register_hook``, ``ops.HookBackward`` and ``ops.InsertGradientOf``.

In PYNATIVE mode a hook is attached to the node output the tensor is (Note [Gradient hooks] in
src/runtime/autograd/backward.cc): it sees the tensor's whole gradient and may replace it. A tensor not
yet tracked (a Parameter before a grad call, an input before ms.grad takes it) keeps its hooks here,
by weak reference, and each grad call that tracks it attaches them to its fresh node.

While a graph is being compiled, a hook becomes an identity whose gradient rule calls it
(nn/_gradient_hook_cell.py, a Cell with a bprop, which both modes already compile): the hook is staged like
any function called from compiled code, as MindSpore parses it into the graph.
"""
import itertools
import weakref

from sprout import _C
from sprout.common.tensor import Tensor

# id(tensor) -> (weak reference to it, {hook id: fn}): hooks of tensors not tracked when registered.
_pending = {}
_hook_ids = itertools.count(1)


def _check_hook(api, fn):
    if not callable(fn):
        raise TypeError(f"{api}: the hook must be a Python function, but got {type(fn).__name__}")


def _gradient_fn(fn):
    """fn(grad) -> Tensor or None, its result in the gradient's dtype (a hook computing in float64 NumPy
    returns float64)."""
    def call(grad):
        result = fn(grad)
        if result is None or not isinstance(result, Tensor) or result.dtype == grad.dtype:
            return result
        return result.astype(grad.dtype)
    return call


def _gradients_fn(fn, n_inputs):
    """fn(tuple of gradients) -> tuple of n_inputs gradients (a lone Tensor when n_inputs is 1) or None,
    checked, each in its gradient's dtype."""
    def call(grads):
        result = fn(grads)
        if result is None:
            return None
        result = (result,) if isinstance(result, Tensor) and n_inputs == 1 else result
        if not isinstance(result, tuple) or len(result) != n_inputs:
            raise TypeError(f"HookBackward: the hook must return None or a tuple of {n_inputs} gradient(s), but "
                            f"returned {type(result).__name__}"
                            + (f" of length {len(result)}" if isinstance(result, tuple) else ""))
        return tuple(r.astype(g.dtype) if isinstance(r, Tensor) and r.dtype != g.dtype else r
                     for r, g in zip(result, grads))
    return call


class _TensorHookHandle:
    """What register_hook returns; ``remove()`` detaches the hook everywhere it was attached."""

    def __init__(self, key=None, hook_id=None):
        self._key, self._hook_id = key, hook_id
        self._attached = []  # _C.GradHookHandle of every node the hook was attached to

    def remove(self):
        for handle in self._attached:
            handle.remove()
        self._attached.clear()
        entry = _pending.get(self._key)
        if entry is not None:
            entry[1].pop(self._hook_id, None)
            if not entry[1]:
                del _pending[self._key]


def register_hook(self, hook):
    """Registers ``hook(grad) -> new gradient or None`` on this tensor's gradient (MindSpore's
    Tensor.register_hook); returns a handle whose ``remove()`` takes it off."""
    _check_hook("Tensor.register_hook", hook)
    from sprout._frontend.graph_tensor import GraphTensor
    if isinstance(self, GraphTensor):
        # MindSpore's graph mode: registering returns the tensor itself, whose later uses see the hook. Its
        # earlier uses would not, unlike in PYNATIVE mode: refused, as MindSpore refuses them.
        if self._node.n_users:
            raise RuntimeError("Tensor.register_hook: in compiled code (ms.jit, GRAPH_MODE) a hook must be registered "
                               "before the tensor is used; move the register_hook call up to where the tensor is made")
        hooked = _gradient_hook_cell(_gradient_fn(hook))(self)
        object.__setattr__(self, "_node", hooked._node)
        return self
    if _C.is_tracked(self):
        handle = _TensorHookHandle()
        handle._attached.append(_C.add_grad_hook(self, _gradient_fn(hook)))
        return handle
    key = id(self)
    if key not in _pending:
        _pending[key] = (weakref.ref(self, lambda _, key=key: _pending.pop(key, None)), {})
    hook_id = next(_hook_ids)
    handle = _TensorHookHandle(key, hook_id)
    _pending[key][1][hook_id] = (hook, handle)
    return handle


def attach_pending_hooks(original, tracked):
    """Called by grad as it tracks `original` (as `tracked`, an alias or the object itself): attaches the
    hooks registered on `original` while it was untracked."""
    entry = _pending.get(id(original))
    if entry is None or entry[0]() is not original:
        return
    for hook, handle in list(entry[1].values()):
        handle._attached = [h for h in handle._attached if h.alive()]  # the nodes of earlier grad calls
        handle._attached.append(_C.add_grad_hook(tracked, _gradient_fn(hook)))


def _gradient_hook_cell(hook):
    from sprout.nn._gradient_hook_cell import GradientHookCell  # nn imports this package
    return GradientHookCell(hook)




class HookBackward:
    """``ops.HookBackward(hook_fn)(x, ...)``: returns its inputs unchanged; during backward,
    ``hook_fn(grads)`` sees the tuple of the inputs' gradients and may return new ones (a tuple of as many,
    or a Tensor for one input; None keeps them), as MindSpore calls it."""

    def __init__(self, hook_fn, cell_id=""):
        _check_hook("HookBackward", hook_fn)
        if not isinstance(cell_id, str):
            raise TypeError(f"HookBackward: 'cell_id' must be a str, but got {type(cell_id).__name__}")
        self.hook_fn, self.cell_id = hook_fn, cell_id

    def __call__(self, *inputs):
        if not inputs:
            raise TypeError("HookBackward: expected at least one Tensor input, but got none")
        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"HookBackward: input {i} must be a Tensor, but got {type(x).__name__}")
        from sprout.nn._gradient_hook_cell import InputsGradientHookCell
        outputs = InputsGradientHookCell(_gradients_fn(self.hook_fn, len(inputs)))(*inputs)
        return outputs[0] if len(outputs) == 1 else outputs


class InsertGradientOf:
    """``ops.InsertGradientOf(f)(x)``: x unchanged; its gradient becomes ``f(gradient)``, in compiled code
    as well (f is compiled into the gradient graph)."""

    def __init__(self, f):
        _check_hook("InsertGradientOf", f)
        self.f = f

    def __call__(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"InsertGradientOf: the input must be a Tensor, but got {type(x).__name__}")
        return _gradient_hook_cell(_gradient_fn(self.f))(x)


__all__ = ["HookBackward", "InsertGradientOf", "register_hook", "attach_pending_hooks"]
