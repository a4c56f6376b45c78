"""ForwardValueAndGrad (``mindspore.nn.ForwardValueAndGrad``): a network's output and its gradients, chosen
as ops.GradOperation chooses them (get_all, get_by_list, sens_param)."""
from types import FunctionType, MethodType

from sprout import _C
from sprout._frontend import is_building_graph
from sprout.common.parameter import ParameterTuple
from sprout.nn.cell import Cell
from sprout.ops.composite.grad import GradOperation, _gradients, _taped_call


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)``. The gradients are those of the first input (the default), of all
    inputs (get_all), of `weights` (get_by_list), or ((inputs...), (weights...)) with both. With sens_param the
    last input is the sensitivity (the output's gradient), otherwise ones."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"ForwardValueAndGrad: 'network' must be a Cell, function or method, but got "
                            f"{type(network).__name__}")
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"ForwardValueAndGrad: '{name}' must be a bool, but got {type(value).__name__}")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"ForwardValueAndGrad: with get_by_list=True, 'weights' must be a ParameterTuple, tuple "
                            f"or list of Parameters, but got {type(weights).__name__}")
        self.network = network
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        if is_building_graph():  # staged: the compiler differentiates the network (Note [J transform])
            grad_inputs = inputs
            if self.sens_param:
                inputs = inputs[:-1]
            loss = self.network(*inputs)
            if self.get_by_list:
                grads = self.grad(self.network, self.weights)(*grad_inputs)
            else:
                grads = self.grad(self.network)(*grad_inputs)
            return loss, grads
        return self._eager_value_and_grads(inputs)

    def _eager_value_and_grads(self, inputs):
        """One forward pass recorded, one backward pass (MindSpore runs the network twice)."""
        sens = None
        if self.sens_param:
            if not inputs:
                raise ValueError("ForwardValueAndGrad: sens_param=True needs the sensitivity as the last input")
            inputs, sens = inputs[:-1], inputs[-1]
        if self.get_all:
            positions = tuple(range(len(inputs)))
        elif self.get_by_list:
            positions = ()
        else:
            if not inputs:
                raise ValueError("ForwardValueAndGrad: the network has no input to differentiate with respect to")
            positions = (0,)
        weights = list(self.weights) if self.get_by_list else []
        out, targets, restore = _taped_call(self.network, inputs, positions, weights, "ForwardValueAndGrad")
        try:
            grads = _gradients(out, sens, targets, "ForwardValueAndGrad")
        finally:
            restore()
        input_grads, weight_grads = tuple(grads[:len(positions)]), tuple(grads[len(positions):])
        out = tuple(_C.detach(o) for o in out) if isinstance(out, tuple) else _C.detach(out)
        if self.get_all and self.get_by_list:
            return out, (input_grads, weight_grads)
        if self.get_by_list:
            return out, weight_grads
        return out, input_grads if self.get_all else input_grads[0]


# Staged from source when compiled (Note [Staging]), so that the gradient call is differentiated by the compiler.
ForwardValueAndGrad.construct._sprout_stage = True
