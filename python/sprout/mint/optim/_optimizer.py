"""The base of mint.optim's optimizers: PyTorch-style parameter groups (a list of Parameters, or of dicts with
'params' and per-group settings) over a Cell whose construct(gradients) updates the parameters in place.

Updates are ops.assign, and the step count is a Parameter read as a tensor, so one code path serves eager and
compiled training steps (as sprout.nn's optimizers)."""
import numbers

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell


class Optimizer(Cell):
    """Holds `param_groups` (dicts of 'params' and the settings `defaults` names) and the step counter."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        api = f"mint.optim.{type(self).__name__}"
        if isinstance(params, Parameter) or not isinstance(params, (list, tuple)) and not hasattr(params, "__iter__"):
            raise TypeError(f"{api}: 'params' must be a list of Parameters or of dicts, but got "
                            f"{type(params).__name__}")
        params = list(params)
        if not params:
            raise ValueError(f"{api}: 'params' is empty")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults = dict(defaults)
        self.param_groups = []
        seen = set()
        for group in groups:
            if not isinstance(group, dict) or "params" not in group:
                raise TypeError(f"{api}: each parameter group must be a dict with 'params', but got {group!r}")
            ps = [group["params"]] if isinstance(group["params"], Parameter) else list(group["params"])
            for p in ps:
                if not isinstance(p, Parameter):
                    raise TypeError(f"{api}: 'params' must hold Parameters, but got {type(p).__name__}")
                if id(p) in seen:
                    raise ValueError(f"{api}: the Parameter {p.name} appears in more than one group")
                seen.add(id(p))
            unknown = set(group) - set(defaults) - {"params"}
            if unknown:
                raise ValueError(f"{api}: unknown parameter group settings {sorted(unknown)}")
            full = dict(defaults, **{k: v for k, v in group.items() if k != "params"})
            self._check_group(api, full)
            full["params"] = ps
            self.param_groups.append(full)
        self.parameters = ParameterTuple(p for g in self.param_groups for p in g["params"])
        self.state_step = Parameter(Tensor(np.zeros((), np.float32)), name="state_step", requires_grad=False)

    @staticmethod
    def _number(api, name, value, low=0.0, high=None):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{api}: '{name}' must be a number, but got {value!r}")
        if value < low or (high is not None and value >= high):
            bounds = f"in [{low}, {high})" if high is not None else f">= {low}"
            raise ValueError(f"{api}: '{name}' must be {bounds}, but got {value}")
        return float(value)

    def _check_group(self, api, group):
        """Validates one group's settings (subclasses)."""

    def _make_state(self, prefix):
        """One zero state Parameter per optimized parameter, named prefix.<param name>."""
        return ParameterTuple(Parameter(Tensor(np.zeros(p.shape, np.float32), p.dtype), name=f"{prefix}.{p.name}",
                                        requires_grad=False) for p in self.parameters)

    def construct(self, gradients):
        grads = tuple(gradients)
        if len(grads) != len(self.parameters):
            raise ValueError(f"mint.optim.{type(self).__name__}: got {len(grads)} gradients for "
                             f"{len(self.parameters)} parameters")
        step = ops.add(self.state_step, 1.0)
        i = 0
        for group in self.param_groups:
            for p in group["params"]:
                g = grads[i]
                if tuple(g.shape) != tuple(p.shape):
                    raise ValueError(f"mint.optim.{type(self).__name__}: the gradient of {p.name} has shape "
                                     f"{g.shape}, expected {p.shape}")
                g = g if g.dtype == p.dtype else ops.cast(g, p.dtype)
                self._update(i, p, ops.neg(g) if group["maximize"] else g, group, step)
                i += 1
        ops.assign(self.state_step, step)
        return True

    def _update(self, index, param, grad, group, step):
        """Writes the new value of `param` (subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must define _update")


def float_step(step, dtype):
    return step if dtype == mstype.float32 else ops.cast(step, dtype)
