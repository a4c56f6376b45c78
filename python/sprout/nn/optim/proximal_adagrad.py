"""ProximalAdagrad (``mindspore.nn.ProximalAdagrad``): Adagrad followed by the proximal step of L1/L2
regularization (Duchi and Singer's forward-backward splitting), MindSpore's ApplyProximalAdagrad composed of
elementwise ops and assign."""
from sprout import ops
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.sgd import _check_range


class ProximalAdagrad(Optimizer):
    """accum += g^2; a = lr / sqrt(accum); v = w - a g; w = sign(v) / (1 + a l2) * max(|v| - a l1, 0).

    The L1 and L2 terms are weighted by the adaptive rate a, as MindSpore's ApplyProximalAdagrad kernel (and
    TensorFlow's) computes; MindSpore's docstring writes lr there, but its CPU results follow the kernel."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.initial_accum = _check_range("ProximalAdagrad", "accum", accum, 0.0)
        self.l1 = _check_range("ProximalAdagrad", "l1", l1, 0.0)
        self.l2 = _check_range("ProximalAdagrad", "l2", l2, 0.0)
        if not isinstance(use_locking, bool):
            raise TypeError(f"ProximalAdagrad: 'use_locking' must be a bool, but got {type(use_locking).__name__}")
        self.use_locking = use_locking
        self.accum = self._make_state("accum", self.initial_accum)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        accum = self.accum[i]
        accum_new = accum + g * g
        rate = lr / ops.sqrt(accum_new)
        v = p - rate * g
        shrunk = ops.maximum(ops.abs(v) - rate * self.l1, 0.0)
        ops.assign(accum, accum_new)
        ops.assign(p, ops.sign(v) / (1 + rate * self.l2) * shrunk)
