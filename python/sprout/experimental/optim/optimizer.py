"""Optimizer: the base of the PyTorch-style optimizers (``mindspore.experimental.optim.Optimizer``).

Parameters come in ``param_groups``, dicts whose options default to the optimizer's ``defaults``; each
group's ``"lr"`` is a float32 Parameter of shape (), which the schedulers of ``lr_scheduler`` write between
steps. ``optimizer(grads)`` takes the gradients in the order of ``optimizer.parameters`` and updates every
parameter in place (``ops.assign``), so one code path serves eager and compiled training steps:

- eagerly, the step count and the learning rate are read as Python numbers and the scalar coefficients
  (bias corrections ...) computed in double precision, as PyTorch computes them;
- while a step is compiled they are read from their Parameters in the graph (they change between runs of
  the same compiled step), the coefficients computed in float64 and cast to the parameter's dtype.
"""
import math
import numbers
from collections import defaultdict

import numpy as np

from sprout import ops
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell

__all__ = ["Optimizer"]


def read_parameter(param):
    """A Parameter's value: while a step is compiled, the graph's (a Tensor method on the Parameter object
    itself would compute now, a constant of its current value)."""
    from sprout._frontend import calls
    if not calls._active or not isinstance(param, Parameter):  # a Cell attribute is already read as the graph's
        return param
    return calls.active_context().load_parameter(param)


# ---- scalars that are Python numbers eagerly and 0-d tensors in a compiled step ----

def is_number(x):
    return isinstance(x, numbers.Real)


def sqrt(x):
    return math.sqrt(x) if is_number(x) else ops.sqrt(x)


def power(base, exponent):
    """base ** exponent for a number base and a number or float64 tensor exponent."""
    return base ** exponent if is_number(exponent) else ops.pow(base, exponent)


def maximum(x, y):
    return max(x, y) if is_number(x) and is_number(y) else ops.maximum(x, y)


def where(condition, x, y):
    """x if condition else y, for a bool or a 0-d bool tensor (x, y numbers or tensors)."""
    if isinstance(condition, (bool, np.bool_)):
        return x if condition else y
    return ops.where(condition, x, y)


def equal(x, value):
    """x == value for a number or a 0-d tensor x."""
    return x == value if is_number(x) else ops.equal(x, value)


def greater(x, value):
    return x > value if is_number(x) else ops.greater(x, value)


def coefficient(x, dtype):
    """A scalar coefficient to multiply a tensor of `dtype` by: numbers stay numbers (weak scalars), tensors
    (float64 in a compiled step) are cast so that the product keeps the parameter's dtype."""
    return x if is_number(x) else ops.cast(x, dtype)


# ---- argument checks (MindSpore's rules, errors in Sprout's form) ----

def check_number(api, name, value, low=None, high=None, low_inclusive=True, high_inclusive=True):
    """A real number (not a bool) within the bounds given; returns it as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{name}' must be a number, but got {type(value).__name__}")
    too_low = low is not None and (value < low if low_inclusive else value <= low)
    too_high = high is not None and (value > high if high_inclusive else value >= high)
    if too_low or too_high:
        parts = []
        if low is not None:
            parts.append(f"{'>=' if low_inclusive else '>'} {low}")
        if high is not None:
            parts.append(f"{'<=' if high_inclusive else '<'} {high}")
        raise ValueError(f"{api}: '{name}' must be {' and '.join(parts)}, but got {value}")
    return float(value)


def check_pair(api, name, value):
    """A tuple or list of two numbers."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"{api}: '{name}' must be a tuple of 2 numbers, but got {value!r}")
    for i, v in enumerate(value):
        check_number(api, f"{name}[{i}]", v)
    return tuple(float(v) for v in value)


def check_betas(api, betas):
    """(beta1, beta2), each in [0, 1)."""
    betas = check_pair(api, "betas", betas)
    for i, beta in enumerate(betas):
        check_number(api, f"betas[{i}]", beta, 0.0, 1.0, high_inclusive=False)
    return betas


def check_bool(api, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {type(value).__name__}")
    return bool(value)


class Optimizer(Cell):
    """Base class of the PyTorch-style optimizers.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters to optimize, or dicts defining parameter
            groups (``"params"`` and options overriding `defaults`).
        defaults (dict): the default options of every group (``"lr"`` among them).

    Subclasses define ``construct(gradients)``; ``group_start_id[i]`` is where group i's parameters begin in
    ``parameters`` (and in the gradients). State created with ``_make_state`` follows the parameters: a group
    added later with ``add_param_group`` gets its state too.
    """

    # What error messages call the optimizer: "Adam", or "mint.optim.Adam" for the mint classes built on these.
    _api_prefix = ""

    @property
    def _api(self):
        return self._api_prefix + type(self).__name__

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        api = self._api
        if not isinstance(defaults, dict):
            raise TypeError(f"{api}: 'defaults' must be a dict, but got {type(defaults).__name__}")
        param_groups = self._parameters_base_check(params, "params")
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        self.parameters = ParameterTuple(())
        self.lrs = []
        self.group_start_id = [0]
        self._state_kinds = []  # (attribute, name prefix, initial value) of each per-parameter state
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(group):
                if key != "params":
                    value = group[key]
                    value = float(value.asnumpy()) if key == "lr" and isinstance(value, Parameter) else value
                    lines.append(f"    {key}: {value}")
        return "\n".join(lines) + "\n)"

    # ---- groups ----

    def add_param_group(self, param_group):
        """Adds a group (a dict with ``"params"`` and options overriding the defaults) to ``param_groups``.

        Args:
            param_group (dict): the Parameters of the group and its options.
        """
        api = self._api
        group_id = len(self.param_groups)
        param_group = self._preprocess_param_group(param_group)
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if "lr" not in param_group:
            raise ValueError(f"{api}: parameter group {group_id} has no 'lr' and the defaults give none")
        lr = self._build_single_lr(param_group["lr"], f"learning_rate_group_{group_id}")
        param_group["weight_decay"] = self._preprocess_weight_decay(param_group.get("weight_decay", 0.0))
        param_group["lr"] = lr
        self.lrs.append(lr)
        self.learning_rates = ParameterTuple(self.lrs)  # registered, so a checkpoint of the optimizer holds them
        new_params = param_group["params"]
        self.parameters = ParameterTuple((*self.parameters, *new_params))
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(new_params))
        for attr, prefix, init, scalar in self._state_kinds:  # the state of the new parameters
            new_state = self._new_state(new_params, prefix, init, scalar)
            setattr(self, attr, ParameterTuple((*getattr(self, attr), *new_state)))

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise ValueError(f"Optimizer: '{param_info}' must not be None")
        if isinstance(parameters, Parameter):
            parameters = [parameters]
        if isinstance(parameters, (set, frozenset)):
            raise TypeError(f"Optimizer: '{param_info}' must be an ordered collection (a list), not a set: the "
                            f"order of a set's Parameters changes between runs")
        try:
            parameters = list(parameters)
        except TypeError:
            raise TypeError(f"Optimizer: '{param_info}' must be an iterable of Parameters or dicts, but got "
                            f"{type(parameters).__name__}") from None
        if not parameters:
            raise ValueError(f"Optimizer: '{param_info}' must not be empty")
        return parameters

    def _preprocess_param_group(self, param_group):
        api = self._api
        if not isinstance(param_group, dict):
            raise TypeError(f"{api}: a parameter group must be a dict, but got {type(param_group).__name__}")
        if "params" not in param_group:
            raise ValueError(f"{api}: a parameter group must have a 'params' entry, but has keys {sorted(param_group)}")
        param_group = dict(param_group)
        params = param_group["params"]
        if isinstance(params, Parameter):
            params = [params]
        elif isinstance(params, (set, frozenset)):
            raise TypeError(f"{api}: a group's 'params' must be an ordered collection (a list), not a set: the "
                            f"order of a set's Parameters changes between runs")
        params = list(params)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"{api}: optimizers optimize Parameters, but 'params' holds a {type(p).__name__}")
        if len({id(p) for p in params}) != len(params):
            raise ValueError(f"{api}: a parameter group holds the same Parameter twice")
        taken = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in taken for p in params):
            raise ValueError(f"{api}: some parameters appear in more than one parameter group")
        param_group["params"] = params
        return param_group

    def _build_single_lr(self, learning_rate, name):
        """The group's learning rate as a float32 Parameter of shape ()."""
        api = self._api
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim != 0:
                raise ValueError(f"{api}: a Tensor 'lr' must be a scalar (shape ()), but got shape "
                                 f"{learning_rate.shape}")
            value = float(learning_rate.asnumpy())
        elif isinstance(learning_rate, numbers.Real) and not isinstance(learning_rate, bool):
            value = float(learning_rate)
        else:
            raise TypeError(f"{api}: 'lr' must be an int, float or Tensor, but got {type(learning_rate).__name__}")
        if value < 0:
            raise ValueError(f"{api}: 'lr' must be >= 0, but got {value}")
        return Parameter(Tensor(value, mstype.float32), name=name, requires_grad=False)

    def _preprocess_weight_decay(self, weight_decay):
        return check_number(self._api, "weight_decay", weight_decay, 0.0)

    # ---- state ----

    def _new_state(self, params, prefix, init, scalar=False):
        state = [Parameter(Tensor(np.full(() if scalar else p.shape, init, np.float32), mstype.float32 if scalar
                                  else p.dtype), name=f"{prefix}{'_' if scalar else '.'}{p.name}", requires_grad=False)
                 for p in params]
        for p, s in zip(params, state):
            self.state[p][prefix] = s
        return state

    def _make_state(self, attr, prefix, init=0.0, scalar=False):
        """One state Parameter per optimized parameter (its shape and dtype, filled with `init`), named
        prefix.<parameter name> (MindSpore's names), kept as the ParameterTuple attribute `attr` (so a
        checkpoint of the optimizer holds it) and in ``state[param][prefix]``. With `scalar`, a float32
        Parameter of shape () named prefix_<parameter name> instead (ASGD's eta and mu, NAdam's mu_product)."""
        self._state_kinds.append((attr, prefix, init, scalar))
        setattr(self, attr, ParameterTuple(self._new_state(self.parameters, prefix, init, scalar)))

    def _make_counter(self, name, dtype=mstype.int32):
        """A step counter: a Parameter of shape () counting the steps taken."""
        return Parameter(Tensor(0, dtype), name=name, requires_grad=False)

    # ---- one step ----

    def _check_gradients(self, gradients):
        grads = tuple(gradients)
        if len(grads) != len(self.parameters):
            raise ValueError(f"{self._api}: got {len(grads)} gradients for {len(self.parameters)} "
                             f"parameters")
        for p, g in zip(self.parameters, grads):
            if tuple(g.shape) != tuple(p.shape):
                raise ValueError(f"{self._api}: the gradient of {p.name} has shape {tuple(g.shape)}, "
                                 f"expected {tuple(p.shape)}")
        return grads

    def _group_items(self, group_id, gradients):
        """[(index, param, grad)] of group `group_id`, the gradient cast to the parameter's dtype."""
        start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
        return [(i, self.parameters[i], gradients[i].astype(self.parameters[i].dtype, copy=False))
                for i in range(start, end)]

    @staticmethod
    def _lr(group):
        """The group's learning rate: a number eagerly, the Parameter's value in a compiled step."""
        lr = group["lr"]
        if is_building_graph():
            return ops.cast(read_parameter(lr), mstype.float64)
        return float(lr.asnumpy())

    @staticmethod
    def _count(counter):
        """The value of a step counter: an int eagerly, a float64 0-d tensor in a compiled step."""
        if is_building_graph():
            return ops.cast(read_parameter(counter), mstype.float64)
        return int(counter.asnumpy())

    @staticmethod
    def _scalar(param):
        """The value of a scalar state Parameter: a float eagerly, a float64 0-d tensor in a compiled step."""
        if is_building_graph():
            return ops.cast(read_parameter(param), mstype.float64)
        return float(param.asnumpy())

    def _decay_weight(self, weight_decay, params, gradients):
        """The gradients plus weight_decay * param (L2 penalty)."""
        if weight_decay == 0.0:
            return tuple(gradients)
        return tuple(g + weight_decay * p for p, g in zip(params, gradients))

    def construct(self, *hyper_params):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients)")
