"""SGD and Momentum."""
import numbers

from sprout import ops
from sprout.nn.optim.optimizer import Optimizer

_apply_gradient_descent = ops.ApplyGradientDescent()


def _check_range(api, name, value, low, high=None, low_inclusive=True):
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    ok = ok and (value >= low if low_inclusive else value > low) and (high is None or value <= high)
    if not ok:
        bound = f"{'>=' if low_inclusive else '>'} {low}" + (f" and <= {high}" if high is not None else "")
        raise ValueError(f"{api}: '{name}' must be a number {bound}, but got {value!r}")
    return float(value)


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening and Nesterov (MindSpore nn.SGD)."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _check_range("SGD", "momentum", momentum, 0.0)
        self.dampening = _check_range("SGD", "dampening", dampening, 0.0)
        if nesterov and (self.momentum <= 0 or self.dampening != 0):
            raise ValueError("SGD: nesterov=True needs momentum > 0 and dampening == 0")
        self.nesterov = bool(nesterov)
        self.accum = self._make_state("accum")
        self.stat = self._make_state("stat", 1.0)  # 1 until an element's first step, as MindSpore's
        # One fused op per weight decay in use (the op takes it as an attribute): 0 for the parameters the
        # decay filter leaves out, and each group's.
        self._sgd_ops = {wd: ops.SGD(dampening=self.dampening, weight_decay=wd, nesterov=self.nesterov)
                         for wd in {0.0, *(group["weight_decay"] for group in self._groups)}}

    def _update(self, i, p, g, lr, wd, step):
        if self.momentum == 0 and not wd:
            # p -= lr * g, in place; the op a compiled step folds into a MatMul gradient's product (Note
            # [Updates folded into their gradient's product]).
            _apply_gradient_descent(p, lr, g)
            return
        # The decayed gradient, the momentum buffer (the gradient itself on the first step), stat and p in
        # one in-place pass.
        self._sgd_ops[wd](p, g, lr, self.accum[i], self.momentum, self.stat[i])


class Momentum(Optimizer):
    """Momentum SGD: v = momentum * v + grad; p -= lr * v (or the Nesterov form)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _check_range("Momentum", "momentum", momentum, 0.0)
        self.use_nesterov = bool(use_nesterov)
        self.moments = self._make_state("moments")
        self._apply_momentum = ops.ApplyMomentum(use_nesterov=self.use_nesterov)

    def _update(self, i, p, g, lr, wd, step):
        if wd:
            g = g + wd * p
        # v = momentum * v + g; p -= lr * v (Nesterov: p -= lr * (g + momentum * v)): one fused in-place op
        self._apply_momentum(p, self.moments[i], lr, g, self.momentum)
