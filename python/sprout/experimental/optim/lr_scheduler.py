"""Learning-rate schedulers of the PyTorch-style optimizers (``mindspore.experimental.optim.lr_scheduler``).

A scheduler writes the optimizer's group learning rates, float32 Parameters of shape () that the
optimizer reads at every step (eagerly, or as inputs of a compiled step), so ``scheduler.step()`` between
training steps changes the rate without recompiling. The rules and their order are PyTorch's: the chained
form (each rate from the group's current one, so schedulers compose and outside changes persist) on
``step()``, the closed form on ``step(epoch)`` where one exists. The schedules are computed in double
precision from the Parameters' values; ``step()`` runs eagerly, outside compiled functions.

``last_epoch`` is an int; ``_last_lr`` is the list of the groups' lr Parameters (what a subclass's
``get_lr`` reads, as MindSpore's examples do); ``get_last_lr()`` returns copies of them as Tensors.
"""
import math
import numbers
from bisect import bisect_right
from collections import Counter

from sprout import ops
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.experimental.optim.optimizer import Optimizer

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR", "MultiplicativeLR", "ConstantLR",
           "MultiStepLR", "LambdaLR", "SequentialLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "CosineAnnealingLR"]


def _check_optimizer(api, optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{api}: 'optimizer' must be a mindspore.experimental.optim.Optimizer, but got "
                        f"{type(optimizer).__name__}")


def _check_int(api, name, value, low=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__}")
    if low is not None and value < low:
        raise ValueError(f"{api}: '{name}' must be >= {low}, but got {value}")
    return value


def _check_float(api, name, value, low=None, high=None, low_inclusive=True, high_inclusive=True, ints=False):
    kinds = (float, int) if ints else (float,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise TypeError(f"{api}: '{name}' must be a {'float or int' if ints else 'float'}, but got "
                        f"{type(value).__name__}")
    too_low = low is not None and (value < low if low_inclusive else value <= low)
    too_high = high is not None and (value > high if high_inclusive else value >= high)
    if too_low or too_high:
        lo = "" if low is None else f"{'[' if low_inclusive else '('}{low}"
        hi = "" if high is None else f"{high}{']' if high_inclusive else ')'}"
        raise ValueError(f"{api}: '{name}' must be in {lo or '(-inf'}, {hi or 'inf)'}, but got {value}")
    return value


def _lr_value(lr):
    """A learning rate (a Parameter, Tensor or number) as a float."""
    return float(lr.asnumpy()) if isinstance(lr, Tensor) else float(lr)


def _per_group(api, optimizer, value, name):
    """One value per parameter group: a list/tuple of that length, or one value for all."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{api}: expected {len(optimizer.param_groups)} values for '{name}' (one per parameter "
                             f"group), but got {len(value)}")
        return list(value)
    return [value] * len(optimizer.param_groups)


def _write_lrs(api, lr_params, values):
    if is_building_graph():
        raise RuntimeError(f"{api}: scheduler.step() runs eagerly; call it between the compiled training steps "
                           f"(the optimizer reads the new rate as an input of the compiled step)")
    for param, value in zip(lr_params, values):
        ops.assign(param, value if isinstance(value, Tensor) else Tensor(float(value), mstype.float32))


class LRScheduler:
    """Base class of the schedulers: subclasses define ``get_lr()`` (the new rates from ``self.last_epoch``
    and the current ones, ``self._last_lr``), optionally ``_get_closed_form_lr()`` (the rates as a function
    of the epoch alone, used by ``step(epoch)``).

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer whose rates it sets.
        last_epoch (int, optional): the index of the last epoch; other than -1 only to resume (the groups must
            then have an ``'initial_lr'``). Default: ``-1``.
    """

    def __init__(self, optimizer, last_epoch=-1):
        api = type(self).__name__
        _check_optimizer(api, optimizer)
        _check_int(api, "last_epoch", last_epoch, -1)
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _lr_value(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"{api}: param_groups[{i}] has no 'initial_lr', which resuming with last_epoch "
                                   f"{last_epoch} needs")
        self.optimizer = optimizer
        self.base_lrs = [_lr_value(group["initial_lr"]) for group in optimizer.param_groups]
        self._last_lr = [group["lr"] for group in optimizer.param_groups]
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        """The rates of the epoch ``self.last_epoch`` (subclasses)."""
        raise NotImplementedError(f"{type(self).__name__} must define get_lr()")

    def get_last_lr(self):
        """The rates the last step set, one 0-d Tensor per parameter group (copies)."""
        return [Tensor(lr) for lr in self._last_lr]

    def _current_lrs(self):
        return [_lr_value(lr) for lr in self._last_lr]

    def step(self, epoch=None):
        """Moves to the next epoch (or to `epoch`) and sets the groups' rates.

        Args:
            epoch (int, optional): the epoch to move to, computed in closed form where the scheduler has one.
                Default: ``None``: the next epoch.
        """
        self._step_count += 1
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            _check_int(type(self).__name__, "epoch", epoch, 0)
            self.last_epoch = epoch
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        _write_lrs(type(self).__name__, self._last_lr, values)
        return True


class StepLR(LRScheduler):
    """Multiplies the rates by `gamma` every `step_size` epochs.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        step_size (int): the period of the decay, in epochs.
        gamma (float, optional): the factor. Default: ``0.1``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = _check_int("StepLR", "step_size", step_size, 1)
        self.gamma = _check_float("StepLR", "gamma", gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return lrs
        return [lr * self.gamma for lr in lrs]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiplies the rates by `gamma` at each milestone epoch (by gamma^k at a milestone listed k times).

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        milestones (list): epoch indices.
        gamma (float, optional): the factor. Default: ``0.1``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        if not isinstance(milestones, list):
            raise TypeError(f"MultiStepLR: 'milestones' must be a list, but got {type(milestones).__name__}")
        for milestone in milestones:
            _check_int("MultiStepLR", "milestones[i]", milestone)
        self.milestones = Counter(milestones)
        self.gamma = _check_float("MultiStepLR", "gamma", gamma, ints=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self.last_epoch not in self.milestones:
            return lrs
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in lrs]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiplies the rates by `factor` until epoch `total_iters`, then restores them.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        factor (float, optional): the factor, in [0, 1]. Default: ``1./3``.
        total_iters (int, optional): the number of epochs it applies. Default: ``5``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        self.factor = _check_float("ConstantLR", "factor", factor, 0.0, 1.0, ints=True)
        self.total_iters = _check_int("ConstantLR", "total_iters", total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in lrs]
        if self.last_epoch != self.total_iters:
            return lrs
        if self.factor == 0:  # nothing to divide by: the rates the factor was applied to
            return self._get_closed_form_lr()
        return [lr * (1.0 / self.factor) for lr in lrs]

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Multiplies the rates by a factor going linearly from `start_factor` to `end_factor` over
    `total_iters` epochs.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        start_factor (float, optional): the factor of epoch 0, in (0, 1]. Default: ``1.0 /3``.
        end_factor (float, optional): the factor from epoch `total_iters` on, in [0, 1]. Default: ``1.0``.
        total_iters (int, optional): the number of epochs the factor changes. Default: ``5``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        self.start_factor = _check_float("LinearLR", "start_factor", start_factor, 0.0, 1.0, low_inclusive=False,
                                         ints=True)
        self.end_factor = _check_float("LinearLR", "end_factor", end_factor, 0.0, 1.0, ints=True)
        self.total_iters = _check_int("LinearLR", "total_iters", total_iters, 1)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in lrs]
        if self._is_initial or self.last_epoch > self.total_iters:
            return lrs
        change = self.end_factor - self.start_factor
        factor = 1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change)
        return [lr * factor for lr in lrs]

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiplies the rates by `gamma` every epoch.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        gamma (float): the factor.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = _check_float("ExponentialLR", "gamma", gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self._is_initial:
            return lrs
        return [lr * self.gamma for lr in lrs]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decays the rates as base_lr * (1 - epoch / total_iters) ** power, to 0 at `total_iters`.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        total_iters (int, optional): the number of epochs of the decay. Default: ``5``.
        power (float, optional): the power, >= 0. Default: ``1.0``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = _check_int("PolynomialLR", "total_iters", total_iters, 1)
        self.power = _check_float("PolynomialLR", "power", power, 0.0)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self._is_initial or self.last_epoch > self.total_iters:
            return lrs
        factor = ((1.0 - self.last_epoch / self.total_iters)
                  / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [lr * factor for lr in lrs]

    def _get_closed_form_lr(self):
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class LambdaLR(LRScheduler):
    """Sets the rates to initial_lr * lr_lambda(epoch).

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        lr_lambda (Union[function, list]): a function of the epoch (an int), or one per parameter group.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        _check_optimizer("LambdaLR", optimizer)
        self.lr_lambdas = _lambdas("LambdaLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiplies the rates by lr_lambda(epoch) every epoch.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        lr_lambda (Union[function, list]): a function of the epoch (an int), or one per parameter group.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        _check_optimizer("MultiplicativeLR", optimizer)
        self.lr_lambdas = _lambdas("MultiplicativeLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self._is_initial:
            return lrs
        return [lr * _lr_value(fn(self.last_epoch)) for fn, lr in zip(self.lr_lambdas, lrs)]


def _lambdas(api, optimizer, lr_lambda):
    lambdas = _per_group(api, optimizer, lr_lambda, "lr_lambda")
    for fn in lambdas:
        if not callable(fn):
            raise TypeError(f"{api}: 'lr_lambda' must be a function or a list of functions, but got "
                            f"{type(fn).__name__}")
    return lambdas


class CosineAnnealingLR(LRScheduler):
    r"""Anneals the rates along a cosine from the initial rate to `eta_min` over `T_max` epochs (and back up
    over the next `T_max`, periodically):
    :math:`\eta_t = \eta_{min} + (\eta_{max} - \eta_{min})(1 + \cos(\pi t / T_{max})) / 2`, in its chained form.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        T_max (int): the number of epochs of half a period.
        eta_min (float, optional): the smallest rate. Default: ``0.0``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = _check_int("CosineAnnealingLR", "T_max", T_max, 1)
        self.eta_min = _check_float("CosineAnnealingLR", "eta_min", eta_min, ints=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = self._current_lrs()
        if self._is_initial:
            return lrs
        if self._step_count == 1 and self.last_epoch > 0:  # resumed: the closed form
            return self._get_closed_form_lr()
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [lr + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, lr in zip(self.base_lrs, lrs)]
        ratio = ((1 + math.cos(math.pi * self.last_epoch / self.T_max))
                 / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)))
        return [ratio * (lr - self.eta_min) + self.eta_min for lr in lrs]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""Cosine annealing with warm restarts (SGDR): :math:`\eta_t = \eta_{min} + (\eta_{max} - \eta_{min})
    (1 + \cos(\pi T_{cur} / T_i)) / 2`, restarting at :math:`\eta_{max}` every :math:`T_i` epochs, with
    :math:`T_0` the first period and each next one `T_mult` times longer.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        T_0 (int): the first period, >= 1.
        T_mult (int, optional): the growth of the period at each restart, >= 1. Default: ``1``.
        eta_min (Union[float, int], optional): the smallest rate. Default: ``0``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):
        if isinstance(T_0, bool) or not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts: 'T_0' must be an int >= 1, but got {T_0!r}")
        if isinstance(T_mult, bool) or not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts: 'T_mult' must be an int >= 1, but got {T_mult!r}")
        self.eta_min = _check_float("CosineAnnealingWarmRestarts", "eta_min", eta_min, ints=True)
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None):
        """Moves to the next epoch (or to `epoch`, a float for a fraction of an epoch) and sets the rates.

        Args:
            epoch (Union[int, float], optional): the epoch to move to. Default: ``None``: the next one.
        """
        self._step_count += 1
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if isinstance(epoch, bool) or not isinstance(epoch, numbers.Real) or epoch < 0:
                raise ValueError(f"CosineAnnealingWarmRestarts: 'epoch' must be a number >= 0, but got {epoch!r}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        _write_lrs("CosineAnnealingWarmRestarts", self._last_lr, self.get_lr())  # None, as MindSpore's


class CyclicLR(LRScheduler):
    """Cycles the rates between `base_lr` and `max_lr` (cyclical learning rates, Smith 2017): up over
    `step_size_up` iterations, down over `step_size_down`, the amplitude scaled by `mode` ("triangular": 1,
    "triangular2": halved every cycle, "exp_range": gamma ** iterations) or by `scale_fn`.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        base_lr (Union[float, list]): the lower bound of the cycle, per group or for all.
        max_lr (Union[float, list]): the upper bound of the cycle, per group or for all.
        step_size_up (int, optional): iterations of the rising half. Default: ``2000``.
        step_size_down (int, optional): iterations of the falling half; None: `step_size_up`. Default: ``None``.
        mode (str, optional): "triangular", "triangular2" or "exp_range" (ignored with `scale_fn`).
            Default: ``'triangular'``.
        gamma (float, optional): the base of "exp_range". Default: ``1.0``.
        scale_fn (function, optional): a custom scaling of the amplitude, with values in [0, 1]. Default: ``None``.
        scale_mode (str, optional): "cycle" or "iterations": what `scale_fn` is a function of. Default: ``'cycle'``.
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1):
        api = "CyclicLR"
        _check_optimizer(api, optimizer)
        base_lrs = [_check_float(api, "base_lr", _lr_value(v) if isinstance(v, Tensor) else v, 0.0, ints=True)
                    for v in _per_group(api, optimizer, base_lr, "base_lr")]
        self.max_lrs = [_check_float(api, "max_lr", _lr_value(v) if isinstance(v, Tensor) else v, 0.0, ints=True)
                        for v in _per_group(api, optimizer, max_lr, "max_lr")]
        step_size_up = _check_float(api, "step_size_up", step_size_up, 0.0, low_inclusive=False, ints=True)
        step_size_down = step_size_up if step_size_down is None else _check_float(
            api, "step_size_down", step_size_down, 0.0, ints=True)
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"{api}: 'mode' must be 'triangular', 'triangular2' or 'exp_range' when 'scale_fn' is "
                             f"None, but got {mode!r}")
        if scale_fn is not None and not callable(scale_fn):
            raise TypeError(f"{api}: 'scale_fn' must be a function, but got {type(scale_fn).__name__}")
        if last_epoch == -1:
            _write_lrs(api, [group["lr"] for group in optimizer.param_groups], base_lrs)
        self.total_step_size = float(step_size_up) + float(step_size_down)
        self.step_up_ratio = float(step_size_up) / self.total_step_size
        self.mode = mode
        self.gamma = _check_float(api, "gamma", gamma, ints=True)
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:  # the mode fixes what the scaling is a function of
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def scale_fn(self, x):
        """The amplitude's scale at x (the cycle or the iteration)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_step_size)
        x = 1.0 + self.last_epoch / self.total_step_size - cycle
        if x <= self.step_up_ratio:
            scale_factor = x / self.step_up_ratio
        else:
            scale_factor = (x - 1) / (self.step_up_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        return [base_lr + (max_lr - base_lr) * scale_factor * scale
                for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """Runs `schedulers` one after another, switching to the next at each of `milestones`.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        schedulers (list[:class:`mindspore.experimental.optim.lr_scheduler.LRScheduler`]): schedulers of
            `optimizer`.
        milestones (list): the epochs at which the next scheduler takes over (len(schedulers) - 1 of them).
        last_epoch (int, optional): the index of the last epoch. Default: ``-1``.
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        api = "SequentialLR"
        _check_optimizer(api, optimizer)
        if not isinstance(schedulers, (list, tuple)) or not schedulers:
            raise ValueError(f"{api}: 'schedulers' must be a non-empty list of schedulers, but got {schedulers!r}")
        for i, scheduler in enumerate(schedulers):
            if isinstance(scheduler, ReduceLROnPlateau) or not hasattr(scheduler, "optimizer"):
                raise TypeError(f"{api}: schedulers[{i}] must be an LRScheduler, but got {type(scheduler).__name__}")
            if scheduler.optimizer is not optimizer:
                raise ValueError(f"{api}: all schedulers must belong to the optimizer passed in, but schedulers[{i}] "
                                 f"has another")
        if not isinstance(milestones, (list, tuple)) or len(milestones) != len(schedulers) - 1:
            raise ValueError(f"{api}: expected {len(schedulers) - 1} milestones (one fewer than the schedulers), but "
                             f"got {milestones!r}")
        _check_int(api, "last_epoch", last_epoch, -1)
        self._schedulers = list(schedulers)
        self.milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo the schedulers' initial steps
            ops.assign(group["lr"], Tensor(_lr_value(group["initial_lr"]), mstype.float32))
        for scheduler in self._schedulers:
            scheduler.last_epoch -= 1
        self._schedulers[bisect_right(self.milestones, 0)]._initial_step()
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self):
        """Moves to the next epoch: the scheduler of this epoch steps (from epoch 0 at its milestone)."""
        self.last_epoch += 1
        idx = bisect_right(self.milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self.milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()  # None, as MindSpore's

    def get_last_lr(self):
        """The rates the last step set, one 0-d Tensor per parameter group (copies)."""
        return [Tensor(lr) for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiplies the rates by `factor` once `metrics` (given to ``step``) stopped improving for `patience`
    epochs.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer.
        mode (str, optional): "min" (lower is better) or "max". Default: ``'min'``.
        factor (float, optional): the factor, < 1. Default: ``0.1``.
        patience (int, optional): epochs without improvement tolerated. Default: ``10``.
        threshold (float, optional): how much better counts as better. Default: ``1e-4``.
        threshold_mode (str, optional): "rel" (best * (1 -/+ threshold)) or "abs" (best -/+ threshold).
            Default: ``'rel'``.
        cooldown (int, optional): epochs to wait after a reduction before counting again. Default: ``0``.
        min_lr (Union[float, list], optional): the smallest rate, for all groups or per group. Default: ``0``.
        eps (float, optional): a reduction smaller than this is skipped. Default: ``1e-8``.
    """

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        api = "ReduceLROnPlateau"
        self.factor = _check_float(api, "factor", factor, high=1.0, high_inclusive=False, ints=True)
        _check_optimizer(api, optimizer)
        self.optimizer = optimizer
        self.min_lrs = [float(_check_float(api, "min_lr", v, 0.0, ints=True))
                        for v in _per_group(api, optimizer, min_lr, "min_lr")]
        if mode not in ("min", "max"):
            raise ValueError(f"{api}: 'mode' must be 'min' or 'max', but got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"{api}: 'threshold_mode' must be 'rel' or 'abs', but got {threshold_mode!r}")
        self.mode = mode
        self.patience = _check_int(api, "patience", patience, 0)
        self.threshold = _check_float(api, "threshold", threshold, ints=True)
        self.threshold_mode = threshold_mode
        self.cooldown = _check_int(api, "cooldown", cooldown, 0)
        self.eps = _check_float(api, "eps", eps, ints=True)
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.wait = 0  # epochs without improvement
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self, metrics):
        """Records this epoch's metric and reduces the rates if it has not improved for `patience` epochs.

        Args:
            metrics (Union[int, float, Tensor]): the value monitored.
        """
        current = _lr_value(metrics)
        self.last_epoch += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        else:
            self.wait += 1
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0  # no bad epochs count during the cooldown
        if self.wait > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.wait = 0
        return True

    def _reduce_lr(self):
        for lr, min_lr in zip(self._last_lr, self.min_lrs):
            old_lr = _lr_value(lr)
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                _write_lrs("ReduceLROnPlateau", [lr], [new_lr])

    def in_cooldown(self):
        """Whether the cooldown after a reduction is running."""
        return self.cooldown_counter > 0

    def _is_improvement(self, current, best):
        if self.mode == "min":
            return current < (best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return current > (best * (1.0 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold)

    def get_last_lr(self):
        """The current rates, one 0-d Tensor per parameter group (copies)."""
        return [Tensor(lr) for lr in self._last_lr]
