"""ParameterUpdate (``mindspore.nn.ParameterUpdate``): a Cell that writes its input into a Parameter."""
from sprout import ops
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


class ParameterUpdate(Cell):
    """``ParameterUpdate(param)(x)`` assigns x to param (in place, eager or compiled) and returns x."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"ParameterUpdate: 'param' must be a Parameter, but got {type(param).__name__}")
        self._param = param

    def construct(self, x):
        if tuple(x.shape) != tuple(self._param.shape):
            raise ValueError(f"ParameterUpdate: the value has shape {tuple(x.shape)}, but the Parameter "
                             f"{self._param.name} has shape {tuple(self._param.shape)}")
        ops.assign(self._param, x)
        return x
