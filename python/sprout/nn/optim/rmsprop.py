"""RMSProp, Adagrad and Lamb: each step one fused op per parameter (ApplyRMSProp, ApplyCenteredRMSProp,
ApplyAdagrad, Lamb), which updates the parameter and its slots in place."""
from sprout import ops
from sprout.nn.optim.optimizer import Optimizer
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
        self._apply = ops.ApplyCenteredRMSProp() if centered else ops.ApplyRMSProp()

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        if self.centered:
            self._apply(p, self.mg[i], self.ms[i], self.moment[i], g, lr, self.decay, self.momentum, self.epsilon)
        else:
            self._apply(p, self.ms[i], self.moment[i], lr, g, self.decay, self.momentum, self.epsilon)


class Adagrad(Optimizer):
    """accum += g^2; p -= lr * g / sqrt(accum)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.initial_accum = _check_range("Adagrad", "accum", accum, 0.0)
        self.update_slots = update_slots
        self.accum = self._make_state("accum", self.initial_accum)
        self._apply = ops.ApplyAdagrad(update_slots=bool(update_slots))

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        self._apply(p, self.accum[i], lr, g)


class Lamb(Optimizer):
    """Adam moments with a layer-wise trust ratio ||p|| / ||update|| (You et al. 2019)."""

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = _check_range("Lamb", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("Lamb", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        self.eps = _check_range("Lamb", "eps", eps, 0.0, low_inclusive=False)
        self.moments1 = self._make_state("lamb_m")
        self.moments2 = self._make_state("lamb_v")
        self._apply = ops.Lamb()

    def _update(self, i, p, g, lr, wd, step):
        # update = m_hat / (sqrt(v_hat) + eps) + wd * p; p -= lr * ||p|| / ||update|| * update (a ratio of 1
        # where either norm is zero), the norms summed in double inside the op.
        self._apply(p, self.moments1[i], self.moments2[i], lr, self.beta1, self.beta2, self.eps, wd, step + 1, g)
