"""FTRL (``mindspore.nn.FTRL``): follow-the-regularized-leader with L1/L2 terms (McMahan et al.), MindSpore's
ApplyFtrl composed of elementwise ops and assign."""
import numbers

from sprout import ops
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.sgd import _check_range


def _uses_group_lr(params):
    return isinstance(params, (list, tuple)) and any(isinstance(g, dict) and "lr" in g for g in params)


def _power(x, exponent):
    """x ** exponent for the accumulator, with sqrt for the default lr_power -0.5 (exact and cheaper)."""
    if exponent == 0.5:
        return ops.sqrt(x)
    if exponent == 0.0:
        return ops.ones_like(x)
    return ops.pow(x, exponent)


class FTRL(Optimizer):
    """m_new = m + g^2; u += g - (m_new^-p - m^-p) / lr * w; w = (sign(u) l1 - u) / (m_new^-p / lr + 2 l2) where
    |u| > l1, else 0 (p = lr_power <= 0). The accumulators are `moments`, the linear terms `linear`. As in
    MindSpore, the learning rate is one fixed number (no schedule, no per-group lr), and without groups the
    weight decay applies to every parameter (no beta/gamma filter)."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, numbers.Real) or learning_rate <= 0:
            raise ValueError(f"FTRL: 'learning_rate' must be a positive number (a schedule, list or Tensor of rates "
                             f"is not supported by FTRL), but got {learning_rate!r}")
        if _uses_group_lr(params):
            raise ValueError("FTRL: a learning rate per parameter group ('lr' in a group) is not supported")
        grouped = isinstance(params, (list, tuple)) and bool(params) and isinstance(params[0], dict)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.initial_accum = _check_range("FTRL", "initial_accum", initial_accum, 0.0)
        if isinstance(lr_power, bool) or not isinstance(lr_power, numbers.Real) or lr_power > 0:
            raise ValueError(f"FTRL: 'lr_power' must be a number <= 0, but got {lr_power!r}")
        self.lr_power = float(lr_power)
        self.l1 = _check_range("FTRL", "l1", l1, 0.0)
        self.l2 = _check_range("FTRL", "l2", l2, 0.0)
        if not isinstance(use_locking, bool):
            raise TypeError(f"FTRL: 'use_locking' must be a bool, but got {type(use_locking).__name__}")
        self.use_locking = use_locking
        self.lr = float(learning_rate)
        if not grouped:  # MindSpore's FTRL decays every parameter when they are not grouped
            for group in self._groups:
                group["decay"] = [True] * len(group["params"])
        self.moments = self._make_state("moments", self.initial_accum)
        self.linear = self._make_state("linear")

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        m, u = self.moments[i], self.linear[i]
        m_new = m + g * g
        root_new = _power(m_new, -self.lr_power)
        sigma = (root_new - _power(m, -self.lr_power)) / lr
        u_new = u + g - sigma * p
        quadratic = root_new / lr + 2 * self.l2
        shrunk = (ops.sign(u_new) * self.l1 - u_new) / quadratic
        ops.assign(m, m_new)
        ops.assign(u, u_new)
        ops.assign(p, ops.select(ops.abs(u_new) > self.l1, shrunk, ops.zeros_like(shrunk)))
