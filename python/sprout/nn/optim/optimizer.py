"""Optimizer: the base of SGD, Momentum, Adam ... (``mindspore.nn.Optimizer``).

Holds the parameters (optionally in groups with their own lr / weight_decay), the learning rate
(a number, a per-step list or Tensor, or a LearningRateSchedule cell), weight decay and loss scale.
``optimizer(grads)`` applies one step: every update writes into the Parameter's memory in place,
so the network sees the new values without rebinding anything.
"""
import math
import numbers

import numpy as np

from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.tensor import Tensor
from sprout import ops
from sprout.nn.cell import Cell


def _default_decay_filter(param):
    return "beta" not in param.name and "gamma" not in param.name


def _centralized(grad):
    """Gradient centralization (Yong et al. 2020) under MindSpore's condition: 2 or more axes, the second a
    multiple of 16; other gradients unchanged."""
    if grad.ndim < 2 or grad.shape[1] % 16:
        return grad
    return grad - ops.mean(grad, tuple(range(1, grad.ndim)), True)


def _sqrt(x):
    """sqrt of a number (eager step counts) or of a tensor (the step counter read in a graph)."""
    return math.sqrt(x) if isinstance(x, numbers.Real) else ops.sqrt(x)


class _LearningRate:
    """A learning rate as a function of the step: constant, per-step values, or a schedule cell."""

    def __init__(self, value, api):
        from sprout.nn.learning_rate_schedule import LearningRateSchedule
        self.schedule = None
        self.values = None
        if isinstance(value, bool):
            raise TypeError(f"{api}: 'learning_rate' must be a number, list, Tensor or LearningRateSchedule, got bool")
        if isinstance(value, numbers.Real):
            if value < 0:
                raise ValueError(f"{api}: 'learning_rate' must be >= 0, but got {value}")
            self.values = np.array([float(value)])
        elif isinstance(value, (list, tuple)) or isinstance(value, Tensor):
            arr = np.asarray(value.asnumpy() if isinstance(value, Tensor) else value, dtype=np.float64).reshape(-1)
            if arr.size == 0:
                raise ValueError(f"{api}: 'learning_rate' must not be empty")
            self.values = arr
        elif isinstance(value, LearningRateSchedule):
            self.schedule = value
        else:
            raise TypeError(f"{api}: 'learning_rate' must be a number, list, Tensor or LearningRateSchedule, "
                            f"but got {type(value).__name__}")

    @property
    def is_dynamic(self):
        return self.schedule is not None or self.values.size > 1

    def at(self, step):
        if self.schedule is not None:
            return float(self.schedule(Tensor(step, mstype.int32)).item())
        return float(self.values[min(step, self.values.size - 1)])

    def in_graph(self, step):
        """The rate at `step` (an Int32 tensor of shape (1,)) computed in the graph being built."""
        from sprout import ops
        if self.schedule is not None:
            return self.schedule(step.reshape(()))
        if self.values.size == 1:
            return float(self.values[0])
        table = Tensor(self.values.astype(np.float32))
        index = ops.minimum(step, self.values.size - 1)
        return ops.gather(table, index, 0).reshape(())


class Optimizer(Cell):
    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        api = type(self).__name__
        if isinstance(parameters, Parameter):
            parameters = [parameters]
        parameters = list(parameters) if parameters is not None else []
        if not parameters:
            raise ValueError(f"{api}: 'params' must not be empty")
        if not isinstance(loss_scale, numbers.Real) or isinstance(loss_scale, bool) or loss_scale <= 0:
            raise ValueError(f"{api}: 'loss_scale' must be a positive number, but got {loss_scale!r}")
        self.loss_scale = float(loss_scale)
        self._groups = []
        order = None
        if isinstance(parameters[0], dict):
            for group in parameters:
                if "order_params" in group:  # the order of the gradients the optimizer will be given
                    if len(group) != 1:
                        raise ValueError(f"{api}: an 'order_params' group must hold nothing else, but has keys "
                                         f"{sorted(group)}")
                    order = list(group["order_params"])
                else:
                    self._add_group(api, group, learning_rate, weight_decay)
        else:
            self._add_group(api, {"params": parameters}, learning_rate, weight_decay)
        params = [p for g in self._groups for p in g["params"]]
        names = [p.name for p in params]
        if len(set(map(id, params))) != len(params):
            raise ValueError(f"{api}: a Parameter appears in more than one group")
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"{api}: parameter names must be unique, but {dup} repeat; name the Parameters")
        if order is not None:
            if sorted(map(id, order)) != sorted(map(id, params)):
                raise ValueError(f"{api}: 'order_params' must hold exactly the Parameters of the groups")
            params = order
        self._parameters = ParameterTuple(params)
        # Where each parameter's gradient (and state) is: its place in self._parameters.
        self._index = {id(p): i for i, p in enumerate(params)}
        self.unique = True  # MindSpore's flag for sparse gradients, which Sprout does not have
        self.global_step = Parameter(Tensor([0], mstype.int32), name="global_step", requires_grad=False)
        self.learning_rate = self._groups[0]["lr"]

    def _add_group(self, api, group, default_lr, default_wd):
        if "params" not in group:
            raise ValueError(f"{api}: each parameter group must have a 'params' entry")
        unknown = set(group) - {"params", "lr", "weight_decay", "grad_centralization"}
        if unknown:
            raise ValueError(f"{api}: parameter groups take the keys 'params', 'lr', 'weight_decay', "
                             f"'grad_centralization' (and a group of 'order_params' alone), but got {sorted(unknown)}")
        centralize = group.get("grad_centralization", False)
        if not isinstance(centralize, bool):
            raise TypeError(f"{api}: 'grad_centralization' must be a bool, but got {centralize!r}")
        params = list(group["params"])
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"{api}: 'params' must hold Parameters, but got {type(p).__name__}")
        wd = group.get("weight_decay", default_wd)
        if not isinstance(wd, numbers.Real) or isinstance(wd, bool) or wd < 0:
            raise ValueError(f"{api}: 'weight_decay' must be a number >= 0, but got {wd!r}")
        explicit_wd = "weight_decay" in group
        self._groups.append({
            "params": params,
            "lr": _LearningRate(group.get("lr", default_lr), api),
            "weight_decay": float(wd),
            "decay": [explicit_wd or _default_decay_filter(p) for p in params],
            "centralize": centralize,
        })

    @property
    def parameters(self):
        return self._parameters

    @property
    def is_group(self):
        return len(self._groups) > 1

    def get_lr(self):
        """The learning rate of this step (of the first group)."""
        return Tensor(self._groups[0]["lr"].at(self._step()), mstype.float32)

    def get_lr_parameter(self, param):
        for g in self._groups:
            if any(p is param for p in g["params"]):
                return Tensor(g["lr"].at(self._step()), mstype.float32)
        raise ValueError(f"get_lr_parameter: {param.name} is not optimized by this optimizer")

    @property
    def target(self):
        """The device the update runs on: always "CPU"."""
        return "CPU"

    def _per_parameter(self, key):
        """{id(param): the group's value of key} (weight decay: 0 where the decay filter excludes it)."""
        values = {}
        for g in self._groups:
            for p, decay in zip(g["params"], g["decay"]):
                values[id(p)] = (g["weight_decay"] if decay else 0.0) if key == "weight_decay" else g[key]
        return values

    def get_weight_decay(self):
        """The weight decay as MindSpore gives it: scaled by the loss scale (it is applied to scaled
        gradients); a Tensor, or a tuple of one per parameter with parameter groups."""
        if not self.is_group:
            return Tensor(self._groups[0]["weight_decay"] * self.loss_scale, mstype.float32)
        decay = self._per_parameter("weight_decay")
        return tuple(Tensor(decay[id(p)] * self.loss_scale, mstype.float32) for p in self._parameters)

    def decay_weight(self, gradients):
        """gradients + weight_decay * loss_scale * parameter, for the parameters weight decay applies to (for
        an optimizer subclass written with MindSpore's building blocks)."""
        decay = self._per_parameter("weight_decay")
        return tuple(g + (decay[id(p)] * self.loss_scale) * p if decay[id(p)] else g
                     for p, g in zip(self._parameters, gradients))

    def gradients_centralization(self, gradients):
        """Each gradient of a group with grad_centralization minus its mean over all axes but the first, as
        MindSpore applies it: to gradients of 2 or more axes whose second axis is a multiple of 16."""
        centralize = self._per_parameter("centralize")
        return tuple(_centralized(g) if centralize[id(p)] else g for p, g in zip(self._parameters, gradients))

    def scale_grad(self, gradients):
        """The gradients divided by the loss scale."""
        if self.loss_scale == 1.0:
            return tuple(gradients)
        return tuple(g * (1.0 / self.loss_scale) for g in gradients)

    def _step(self):
        return int(self.global_step.asnumpy()[0])

    def _make_state(self, prefix, init=0.0):
        """One zero (or `init`) state Parameter per optimized parameter, named prefix.<param name>."""
        return ParameterTuple(Parameter(Tensor(np.full(p.shape, init, dtype=np.float32), p.dtype),
                                        name=f"{prefix}.{p.name}", requires_grad=False) for p in self._parameters)

    def construct(self, gradients):
        grads = tuple(gradients)
        if len(grads) != len(self._parameters):
            raise ValueError(f"{type(self).__name__}: got {len(grads)} gradients for {len(self._parameters)} "
                             f"parameters")
        graph = is_building_graph()
        # Eager: the step as a number. Graph: the step counter is read in the graph (it changes
        # between runs of the same compiled step).
        step = (self.global_step + 0).astype(mstype.float32).reshape(()) if graph else self._step()
        for group in self._groups:
            lr = group["lr"].in_graph(self.global_step + 0) if graph else group["lr"].at(step)
            for p, decay in zip(group["params"], group["decay"]):
                i = self._index[id(p)]
                g = grads[i]
                if tuple(g.shape) != tuple(p.shape):
                    raise ValueError(f"{type(self).__name__}: the gradient of {p.name} has shape {g.shape}, "
                                     f"expected {p.shape}")
                if group["centralize"]:
                    g = _centralized(g)
                if self.loss_scale != 1.0:
                    g = g / self.loss_scale
                self._update(i, p, g.astype(p.dtype, copy=False), lr, group["weight_decay"] if decay else 0.0, step)
        ops.assign_add(self.global_step, 1)
        return True

    def _update(self, index, param, grad, lr, weight_decay, step):
        """Updates `param` in place from `grad` (subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must define _update(index, param, grad, lr, weight_decay, step)")
