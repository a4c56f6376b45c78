"""LazyAdam (``mindspore.nn.LazyAdam``). Its laziness is for sparse gradients (only the rows a gradient
touches are updated); Sprout's gradients are dense, and for dense gradients MindSpore's LazyAdam runs Adam
itself, which is what this does. The bias corrections are the Parameters beta1_power and beta2_power, as
MindSpore keeps them, so a checkpoint of a training step resumes exactly."""
import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.sgd import _check_range


def _power_parameter(name):
    return Parameter(Tensor(np.ones(1, np.float32), mstype.float32), name=name, requires_grad=False)


class LazyAdam(Optimizer):
    """m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2; w -= lr sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps)
    (use_nesterov: (b1 m + (1 - b1) g) in place of m)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check_range("LazyAdam", "beta1", beta1, 0.0, 1.0, low_inclusive=False)
        self.beta2 = _check_range("LazyAdam", "beta2", beta2, 0.0, 1.0, low_inclusive=False)
        if self.beta1 == 1.0 or self.beta2 == 1.0:
            raise ValueError(f"LazyAdam: 'beta1' and 'beta2' must be in (0, 1), but got {beta1!r} and {beta2!r}")
        self.eps = _check_range("LazyAdam", "eps", eps, 0.0, low_inclusive=False)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(value, bool):
                raise TypeError(f"LazyAdam: '{name}' must be a bool, but got {type(value).__name__}")
        self.use_locking, self.use_nesterov = use_locking, use_nesterov
        self.beta1_power = _power_parameter("beta1_power")
        self.beta2_power = _power_parameter("beta2_power")
        self.moment1 = self._make_state("moment1")
        self.moment2 = self._make_state("moment2")
        self._apply_adam = ops.Adam(use_nesterov=use_nesterov)
        self._powers = {}  # this step's beta powers, read by _update (a dict: not a Cell attribute)

    def construct(self, gradients):
        beta1_power = self.beta1_power * self.beta1
        beta2_power = self.beta2_power * self.beta2
        ops.assign(self.beta1_power, beta1_power)
        ops.assign(self.beta2_power, beta2_power)
        self._powers["beta"] = (beta1_power.reshape(()), beta2_power.reshape(()))
        return super().construct(gradients)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        beta1_power, beta2_power = self._powers["beta"]
        # m, v and p in place, in one fused pass (MindSpore's Adam primitive, which LazyAdam runs on dense
        # gradients).
        self._apply_adam(p, self.moment1[i], self.moment2[i], beta1_power, beta2_power, lr, self.beta1, self.beta2,
                         self.eps, g)
