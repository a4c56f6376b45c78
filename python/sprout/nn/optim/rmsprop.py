"""RMSProp, Adagrad and Lamb."""
from sprout import ops
from sprout.nn.optim.optimizer import Optimizer, _update_moments
from sprout.nn.optim.sgd import _check_range


class RMSProp(Optimizer):
    """ms = decay*ms + (1-decay)*g^2; mom = momentum*mom + lr*g/sqrt(ms + eps); p -= mom.
    centered=True subtracts the squared mean gradient (mg) inside the root, as MindSpore's RMSProp."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.decay = _check_range("RMSProp", "decay", decay, 0.0)
        self.momentum = _check_range("RMSProp", "momentum", momentum, 0.0)
        self.epsilon = _check_range("RMSProp", "epsilon", epsilon, 0.0, low_inclusive=False)
        self.centered = bool(centered)
        self.ms = self._make_state("mean_square", 1.0)
        self.moment = self._make_state("moment")
        self.mg = self._make_state("mean_grad") if centered else None

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        ms = self.ms[i] * self.decay + g * g * (1 - self.decay)
        ops.assign(self.ms[i], ms)
        denom = ms
        if self.centered:
            mg = self.mg[i] * self.decay + g * (1 - self.decay)
            ops.assign(self.mg[i], mg)
            denom = ms - mg * mg
        mom = self.moment[i] * self.momentum + lr * g / ops.sqrt(denom + self.epsilon)
        ops.assign(self.moment[i], mom)
        ops.assign(p, p - mom)


class Adagrad(Optimizer):
    """accum += g^2; p -= lr * g / sqrt(accum)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.initial_accum = _check_range("Adagrad", "accum", accum, 0.0)
        self.update_slots = update_slots
        self.accum = self._make_state("accum", self.initial_accum)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        accum = self.accum[i] + g * g if self.update_slots else self.accum[i]
        ops.assign(self.accum[i], accum)
        ops.assign(p, p - lr * g / ops.sqrt(accum))


class Lamb(Optimizer):
    """Adam moments with a layer-wise trust ratio ||p|| / ||update|| (You et al. 2019)."""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = _check_range("Lamb", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("Lamb", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        self.eps = _check_range("Lamb", "eps", eps, 0.0, low_inclusive=False)
        self.moments1 = self._make_state("lamb_m")
        self.moments2 = self._make_state("lamb_v")

    def _update(self, i, p, g, lr, wd, step):
        m, v = _update_moments(self.moments1[i], self.moments2[i], g, self.beta1, self.beta2)
        t = step + 1
        update = (m / (1 - self.beta1 ** t)) / (ops.sqrt(v / (1 - self.beta2 ** t)) + self.eps)
        if wd:
            update = update + wd * p
        # The trust ratio ||p|| / ||update|| (1 where either is zero), computed as tensors: no host sync
        # in eager mode, and right in a compiled step.
        w_norm = ops.sqrt((p * p).sum())
        u_norm = ops.sqrt((update * update).sum())
        ok = ops.logical_and(w_norm > 0, u_norm > 0)
        trust = ops.select(ok, w_norm / ops.select(ok, u_norm, ops.ones_like(u_norm)), ops.ones_like(w_norm))
        ops.assign(p, p - lr * trust * update)
