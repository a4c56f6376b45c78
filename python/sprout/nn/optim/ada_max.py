"""AdaMax (``mindspore.nn.AdaMax``): MindSpore's own class for Adam with the infinity norm. The update is
Sprout's Adamax; AdaMax keeps the bias correction as the Parameter beta1_power, as MindSpore does, so a
checkpoint of a training step has MindSpore's names and resumes exactly."""
from sprout import ops
from sprout.nn.optim.adaptive import Adamax
from sprout.nn.optim.lazy_adam import _power_parameter


class AdaMax(Adamax):
    """m = b1 m + (1 - b1) g; v = max(b2 v, |g|); w -= lr / (1 - b1^t) * m / (v + eps)."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)
        if self.beta1 == 1.0 or self.beta2 == 1.0:
            raise ValueError(f"AdaMax: 'beta1' and 'beta2' must be in (0, 1), but got {beta1!r} and {beta2!r}")
        self.beta1_power = _power_parameter("beta1_power")
        self._powers = {}

    def construct(self, gradients):
        beta1_power = self.beta1_power * self.beta1
        ops.assign(self.beta1_power, beta1_power)
        self._powers["beta1"] = beta1_power.reshape(())
        return super().construct(gradients)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        self._apply(p, self.moment1[i], self.moment2[i], self._powers["beta1"], lr, self.beta1, self.beta2,
                    self.eps, g)
