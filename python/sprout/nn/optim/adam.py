"""Adam, AdamWeightDecay (AdamW)."""
from sprout import ops
from sprout.nn.optim.optimizer import Optimizer, _sqrt
from sprout.nn.optim.sgd import _check_range


class Adam(Optimizer):
    """Adam with bias correction; weight decay is added to the gradient (L2), as MindSpore's nn.Adam. With
    use_amsgrad, the step divides by the largest second moment so far (AMSGrad), kept in `vhat`."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check_range("Adam", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("Adam", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        self.eps = _check_range("Adam", "eps", eps, 0.0, low_inclusive=False)
        self.use_nesterov, self.use_amsgrad = bool(use_nesterov), bool(use_amsgrad)
        if self.use_nesterov and self.use_amsgrad:
            raise ValueError("Adam: 'use_nesterov' and 'use_amsgrad' cannot both be True")
        self.moment1 = self._make_state("moment1")
        self.moment2 = self._make_state("moment2")
        if self.use_amsgrad:
            self.vhat = self._make_state("vhat")
        self._apply_adam = ops.Adam(use_nesterov=self.use_nesterov)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        t = step + 1
        if self.use_amsgrad:
            return self._amsgrad_update(i, p, g, lr, t)
        # m, v and p updated in place by one fused op (one pass instead of a dozen elementwise ops and
        # three assignments); the bias corrections come in as beta1^t and beta2^t.
        self._apply_adam(p, self.moment1[i], self.moment2[i], self.beta1 ** t, self.beta2 ** t, lr, self.beta1,
                         self.beta2, self.eps, g)

    def _amsgrad_update(self, i, p, g, lr, t):
        """MindSpore's ApplyAdamWithAmsgrad, composed of ops: the moments, their running maximum, the step."""
        m, v, vhat = self.moment1[i], self.moment2[i], self.vhat[i]
        ops.assign(m, m * self.beta1 + g * (1 - self.beta1))
        ops.assign(v, v * self.beta2 + g * g * (1 - self.beta2))
        ops.assign(vhat, ops.maximum(vhat, v))
        step_size = lr * _sqrt(1 - self.beta2 ** t) / (1 - self.beta1 ** t)
        ops.assign(p, p - step_size * m / (ops.sqrt(vhat) + self.eps))


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay (MindSpore's AdamWeightDecay; no bias correction, as there)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = _check_range("AdamWeightDecay", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("AdamWeightDecay", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        self.eps = _check_range("AdamWeightDecay", "eps", eps, 0.0, low_inclusive=False)
        self.moments1 = self._make_state("adam_m")
        self.moments2 = self._make_state("adam_v")
        self._apply = ops.AdamWeightDecay()

    def _update(self, i, p, g, lr, wd, step):
        # m, v and p in place, in one fused pass: p -= lr * (m / (sqrt(v) + eps) + wd * p).
        self._apply(p, self.moments1[i], self.moments2[i], lr, self.beta1, self.beta2, self.eps, wd, g)


class AdamW(AdamWeightDecay):
    """MindSpore 2.x's AdamW name for decoupled weight decay Adam (with bias correction), as PyTorch's
    AdamW: p *= 1 - lr * weight_decay, then p -= lr * m_hat / (sqrt(v_hat) + eps) with
    m_hat = m / (1 - beta1^t) and v_hat = v / (1 - beta2^t)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=1e-2):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay)
        self._decay = ops.ApplyGradientDescent()
        self._apply_adam = ops.Adam()

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            self._decay(p, lr * wd, p)  # p -= lr * wd * p, in place: one pass
        # The bias-corrected step is Adam's fused one, lr sqrt(1 - beta2^t) / (1 - beta1^t) m / (sqrt(v) + eps'),
        # once eps' = eps sqrt(1 - beta2^t): the same value, in one pass instead of a dozen ops.
        t = step + 1
        beta2_power = self.beta2 ** t
        self._apply_adam(p, self.moments1[i], self.moments2[i], self.beta1 ** t, beta2_power, lr, self.beta1,
                         self.beta2, self.eps * _sqrt(1 - beta2_power), g)
