"""get_grad: one gradient out of what ms.grad / ms.value_and_grad return with return_ids=True, where each
gradient comes paired with its identifier: (position, gradient) for inputs, (parameter name, gradient) for
weights, in tuples nested as the gradients are."""
import numbers

from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor

__all__ = ["get_grad"]


def _pairs(gradients):
    """Every (identifier, gradient) pair in the nested tuples, in order."""
    if isinstance(gradients, (tuple, list)):
        if len(gradients) == 2 and isinstance(gradients[0], (numbers.Integral, str)) and \
                not isinstance(gradients[0], bool) and isinstance(gradients[1], Tensor):
            yield gradients
            return
        for item in gradients:
            yield from _pairs(item)


def get_grad(gradients, identifier):
    """The gradient in `gradients` (ms.grad's result with return_ids=True) for `identifier`: an input's
    position (int) or a Parameter given as a weight."""
    if isinstance(identifier, Parameter):
        key = identifier.name
    elif isinstance(identifier, numbers.Integral) and not isinstance(identifier, bool):
        key = int(identifier)
    else:
        raise TypeError(f"get_grad: 'identifier' must be an int (an input's position) or a Parameter, but got "
                        f"{type(identifier).__name__}")
    if not isinstance(gradients, (tuple, list)):
        raise TypeError(f"get_grad: 'gradients' must be the tuple ms.grad returns with return_ids=True, but got "
                        f"{type(gradients).__name__}")
    for ident, grad in _pairs(gradients):
        if type(ident) is type(key) and ident == key:
            return grad
    what = f"Parameter {key!r}" if isinstance(key, str) else f"position {key}"
    raise RuntimeError(f"get_grad: no gradient for {what} in 'gradients' (was it among grad_position or weights, "
                       f"with return_ids=True?)")
