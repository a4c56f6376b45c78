"""Dynamic learning rates (``mindspore.nn.dynamic_lr``): functions returning one learning rate per step, a
list an optimizer takes as its ``learning_rate``. The epoch of step i is floor(i / step_per_epoch).

piecewise_constant_lr, exponential_decay_lr, cosine_decay_lr and warmup_lr live with the schedules in
learning_rate_schedule.py; this module adds MindSpore's other three and gathers all seven under the
module name MindSpore uses.
"""
import math

from sprout.nn.learning_rate_schedule import (cosine_decay_lr, exponential_decay_lr, piecewise_constant_lr,
                                              warmup_lr)


def _check_positive_int(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")


def _check_float(api, name, value, allow_zero=False):
    # MindSpore refuses ints here too (check_is_float): 1 where 1.0 is meant is usually a slip.
    if not isinstance(value, float):
        raise TypeError(f"{api}: '{name}' must be a float, but got {type(value).__name__}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{api}: '{name}' must be {'>= 0' if allow_zero else '> 0'}, but got {value}")


def _check_decay_inputs(api, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    for name, v in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _check_positive_int(api, name, v)
    _check_float(api, "learning_rate", learning_rate)
    _check_float(api, "decay_rate", decay_rate)
    if not isinstance(is_stair, bool):
        raise TypeError(f"{api}: 'is_stair' must be a bool, but got {type(is_stair).__name__}")


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """lr * e^(-decay_rate * epoch); with is_stair, the epoch rounded down to a multiple of decay_epoch.
    As in MindSpore, the smooth form does not divide the epoch by decay_epoch."""
    _check_decay_inputs("natural_exp_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                        is_stair)
    out = []
    for i in range(total_step):
        epoch = i // step_per_epoch
        if is_stair:
            epoch = epoch // decay_epoch * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """lr / (1 + decay_rate * epoch / decay_epoch); with is_stair, the ratio rounded down."""
    _check_decay_inputs("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                        is_stair)
    out = []
    for i in range(total_step):
        progress = (i // step_per_epoch) / decay_epoch
        out.append(learning_rate / (1 + decay_rate * (math.floor(progress) if is_stair else progress)))
    return out


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """(lr - end_lr) * (1 - epoch / decay_epoch)^power + end_lr, the epoch capped at decay_epoch; with
    update_decay_epoch, the horizon grows to the next multiple of decay_epoch instead of capping."""
    api = "polynomial_decay_lr"
    _check_float(api, "learning_rate", learning_rate)
    _check_float(api, "end_learning_rate", end_learning_rate, allow_zero=True)
    _check_float(api, "power", power)
    for name, v in (("total_step", total_step), ("step_per_epoch", step_per_epoch), ("decay_epoch", decay_epoch)):
        _check_positive_int(api, name, v)
    if not isinstance(update_decay_epoch, bool):
        raise TypeError(f"{api}: 'update_decay_epoch' must be a bool, but got {type(update_decay_epoch).__name__}")
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = i // step_per_epoch
        if update_decay_epoch:
            horizon = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            horizon, epoch = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - epoch / horizon) ** power + end_learning_rate)
    return out


__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
