"""LearningRateScheduler: a callback that sets the optimizer's learning rate after every step from a
function of (current rate, step number)."""
import math

from sprout.train.callback.callback import Callback


class LearningRateScheduler(Callback):
    """After each training step, ``learning_rate_function(lr, cur_step_num)`` gives the new learning rate of
    the model's optimizer (which must have one constant rate, as MindSpore's does)."""

    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"LearningRateScheduler: 'learning_rate_function' must be callable, but got "
                            f"{type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        import numpy as np
        cb = run_context.original_args()
        optimizer = cb.optimizer
        api = "LearningRateScheduler"
        if optimizer is None or not getattr(optimizer, "_groups", None):
            raise ValueError(f"{api}: the model has no optimizer whose learning rate could change")
        rates = [group["lr"] for group in optimizer._groups]
        if any(rate.is_dynamic for rate in rates) or len({float(rate.values[0]) for rate in rates}) > 1:
            raise ValueError(f"{api}: the optimizer's learning rate must be one constant number, not a schedule, a "
                             f"list or per-group rates")
        lr = float(rates[0].values[0])
        new_lr = self.learning_rate_function(lr, cb.cur_step_num)
        if not math.isclose(lr, float(new_lr), rel_tol=1e-10):
            for rate in rates:
                rate.values = np.array([float(new_lr)])


__all__ = ["LearningRateScheduler"]
