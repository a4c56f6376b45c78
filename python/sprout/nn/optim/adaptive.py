"""Adadelta, Adamax, Rprop and ASGD (``mindspore.nn`` 2.x). Adadelta and Adamax step through their fused
in-place ops (ApplyAdadelta, ApplyAdaMax); Rprop and ASGD are built from elementwise ops and assign."""
from sprout import ops
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.sgd import _check_range


class Adadelta(Optimizer):
    """accum = rho accum + (1 - rho) g^2; update = sqrt(accum_update + eps) / sqrt(accum + eps) * g;
    accum_update = rho accum_update + (1 - rho) update^2; p -= lr * update (Zeiler 2012)."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _check_range("Adadelta", "rho", rho, 0.0, 1.0)
        self.epsilon = _check_range("Adadelta", "epsilon", epsilon, 0.0, low_inclusive=False)
        self.accum = self._make_state("accum")
        self.accum_update = self._make_state("accum_update")
        self._apply = ops.ApplyAdadelta()

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        self._apply(p, self.accum[i], self.accum_update[i], lr, self.rho, self.epsilon, g)  # in place, one pass


class Adamax(Optimizer):
    """Adam with the infinity norm: m = b1 m + (1 - b1) g; v = max(b2 v, |g|);
    p -= lr / (1 - b1^t) * m / (v + eps) (MindSpore's ApplyAdaMax)."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check_range("Adamax", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("Adamax", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        self.eps = _check_range("Adamax", "eps", eps, 0.0, low_inclusive=False)
        self.moment1 = self._make_state("moment1")
        self.moment2 = self._make_state("moment2")
        self._apply = ops.ApplyAdaMax()

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        # In place, one pass; the bias correction comes in as beta1^t.
        self._apply(p, self.moment1[i], self.moment2[i], self.beta1 ** (step + 1), lr, self.beta1, self.beta2,
                    self.eps, g)


class Rprop(Optimizer):
    """Resilient backpropagation: each element's step grows by etas[1] while its gradient keeps its sign,
    shrinks by etas[0] when the sign flips (that step then skips the element), clamped to step_sizes;
    p -= sign(g) * step. Steps start at the learning rate."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not (isinstance(etas, (tuple, list)) and len(etas) == 2 and 0 < etas[0] < 1 < etas[1]):
            raise ValueError(f"Rprop: 'etas' must be (etaminus, etaplus) with 0 < etaminus < 1 < etaplus, "
                             f"but got {etas!r}")
        if not (isinstance(step_sizes, (tuple, list)) and len(step_sizes) == 2 and 0 <= step_sizes[0] <= step_sizes[1]):
            raise ValueError(f"Rprop: 'step_sizes' must be (min, max) with 0 <= min <= max, but got {step_sizes!r}")
        self.etaminus, self.etaplus = float(etas[0]), float(etas[1])
        self.step_min, self.step_max = float(step_sizes[0]), float(step_sizes[1])
        self.prev = self._make_state("prev")
        self.step_size = self._make_state("step_size", -1.0)  # -1: not started (the first step uses lr)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        size = ops.select(self.step_size[i] < 0, ops.ones_like(g) * lr, self.step_size[i])
        agreement = g * self.prev[i]
        factor = ops.select(agreement > 0, ops.ones_like(g) * self.etaplus,
                            ops.select(agreement < 0, ops.ones_like(g) * self.etaminus, ops.ones_like(g)))
        size = ops.clamp(size * factor, self.step_min, self.step_max)
        g = ops.select(agreement < 0, ops.zeros_like(g), g)
        ops.assign(self.step_size[i], size)
        ops.assign(self.prev[i], g)
        ops.assign(p, p - ops.sign(g) * size)


class ASGD(Optimizer):
    """Averaged SGD: eta = lr / (1 + lambd lr t)^alpha; p = p (1 - lambd eta) - eta g; the average ax
    follows p with weight 1 / max(1, t - t0) (Polyak and Juditsky 1992, as PyTorch's ASGD)."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = _check_range("ASGD", "lambd", lambd, 0.0)
        self.alpha = _check_range("ASGD", "alpha", alpha, 0.0)
        self.t0 = _check_range("ASGD", "t0", t0, 0.0)
        self.ax = self._make_state("ax")

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        # The rates PyTorch keeps as state follow from the step count: before step t (from 1), eta and mu are
        # those set after step t - 1.
        t = step + 1
        eta = lr / (1 + self.lambd * lr * (t - 1)) ** self.alpha
        since_t0 = t - 1 - self.t0
        mu = 1 / (max(1.0, since_t0) if isinstance(since_t0, (int, float)) else ops.maximum(since_t0, 1.0))
        new_p = p * (1 - self.lambd * eta) - eta * g
        ops.assign(p, new_p)
        ops.assign(self.ax[i], self.ax[i] + (new_p - self.ax[i]) * mu)
