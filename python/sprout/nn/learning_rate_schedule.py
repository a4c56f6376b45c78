"""Learning-rate schedules: cells computing lr from the global step (``mindspore.nn`` *DecayLR), and the
dynamic-lr functions returning one value per step (``nn.piecewise_constant_lr`` ...)."""
import math
import numbers

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell


def _positive(api, name, value, allow_zero=False):
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and (value >= 0 if allow_zero else value > 0)
    if not ok:
        raise ValueError(f"{api}: '{name}' must be a {'non-negative' if allow_zero else 'positive'} number, "
                         f"but got {value!r}")
    return value


def _positive_int(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
    return value


class LearningRateSchedule(Cell):
    """Base: ``construct(global_step)`` returns the learning rate at that step as a 0-d Float32 tensor.

    The built-in schedules compute it with ops from the step as a 0-d Float32 tensor (``rate(step)``), so the
    same code runs eagerly and is staged into a compiled training step, where the step counter is only known
    when the graph runs. A subclass defines ``rate(step)`` that way, or ``construct(global_step)`` as in
    MindSpore.
    """

    def construct(self, global_step):
        if isinstance(global_step, Tensor):
            step = global_step.astype(mstype.float32).reshape(())
        else:
            step = Tensor(float(global_step), mstype.float32)
        return self.rate(step)

    def rate(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define rate(step) or construct(global_step)")


class ExponentialDecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        self.learning_rate = _positive("ExponentialDecayLR", "learning_rate", learning_rate)
        self.decay_rate = _positive("ExponentialDecayLR", "decay_rate", decay_rate)
        self.decay_steps = _positive_int("ExponentialDecayLR", "decay_steps", decay_steps)
        self.is_stair = is_stair

    def _progress(self, step):
        p = step / self.decay_steps
        return ops.floor(p) if self.is_stair else p

    def rate(self, step):
        return self.learning_rate * ops.pow(self.decay_rate, self._progress(step))


class NaturalExpDecayLR(ExponentialDecayLR):
    def rate(self, step):
        return self.learning_rate * ops.exp(-self.decay_rate * self._progress(step))


class InverseDecayLR(ExponentialDecayLR):
    def rate(self, step):
        return self.learning_rate / (1 + self.decay_rate * self._progress(step))


class CosineDecayLR(LearningRateSchedule):
    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        self.min_lr = _positive("CosineDecayLR", "min_lr", min_lr, allow_zero=True)
        self.max_lr = _positive("CosineDecayLR", "max_lr", max_lr)
        if min_lr >= max_lr:
            raise ValueError(f"CosineDecayLR: 'min_lr' ({min_lr}) must be less than 'max_lr' ({max_lr})")
        self.decay_steps = _positive_int("CosineDecayLR", "decay_steps", decay_steps)

    def rate(self, step):
        p = ops.minimum(step, float(self.decay_steps)) / self.decay_steps
        return self.min_lr + 0.5 * (self.max_lr - self.min_lr) * (1 + ops.cos(math.pi * p))


class PolynomialDecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        self.learning_rate = _positive("PolynomialDecayLR", "learning_rate", learning_rate)
        self.end_learning_rate = _positive("PolynomialDecayLR", "end_learning_rate", end_learning_rate, True)
        self.decay_steps = _positive_int("PolynomialDecayLR", "decay_steps", decay_steps)
        self.power = _positive("PolynomialDecayLR", "power", power)
        self.update_decay_steps = update_decay_steps

    def rate(self, step):
        if self.update_decay_steps:  # the horizon grows by decay_steps each time the step reaches it
            decay_steps = self.decay_steps * ops.maximum(ops.ceil(step / self.decay_steps), 1.0)
        else:
            decay_steps, step = self.decay_steps, ops.minimum(step, float(self.decay_steps))
        return (self.learning_rate - self.end_learning_rate) * (1 - step / decay_steps) ** self.power \
            + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _positive("WarmUpLR", "learning_rate", learning_rate)
        self.warmup_steps = _positive_int("WarmUpLR", "warmup_steps", warmup_steps)

    def rate(self, step):
        return self.learning_rate * ops.minimum(step, float(self.warmup_steps)) / self.warmup_steps


def piecewise_constant_lr(milestone, learning_rates):
    """lr[i] for steps in [milestone[i-1], milestone[i]): one value per step up to the last milestone."""
    if len(milestone) != len(learning_rates):
        raise ValueError(f"piecewise_constant_lr: 'milestone' has {len(milestone)} entries but 'learning_rates' "
                         f"has {len(learning_rates)}")
    if any(b <= a for a, b in zip(milestone, milestone[1:])) or milestone[0] <= 0:
        raise ValueError(f"piecewise_constant_lr: 'milestone' must be strictly increasing positive ints, "
                         f"but got {milestone}")
    out, last = [], 0
    for m, lr in zip(milestone, learning_rates):
        out += [float(lr)] * (m - last)
        last = m
    return out


def _per_step(api, total_step, step_per_epoch, decay_epoch):
    for name, v in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _positive_int(api, name, v)


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    _per_step("exponential_decay_lr", total_step, step_per_epoch, decay_epoch)
    out = []
    for i in range(total_step):
        p = (i // step_per_epoch) / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    _per_step("cosine_decay_lr", total_step, step_per_epoch, decay_epoch)
    out = []
    for i in range(total_step):
        epoch = min(i // step_per_epoch, decay_epoch)
        out.append(min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    _per_step("warmup_lr", total_step, step_per_epoch, warmup_epoch)
    return [learning_rate * min(i // step_per_epoch, warmup_epoch) / warmup_epoch for i in range(total_step)]
