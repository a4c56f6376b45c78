"""Adadelta, Adagrad and RMSprop: steps scaled by running sums of squared gradients (PyTorch's rules)."""
from sprout import ops
from sprout.experimental.optim.optimizer import Optimizer, check_bool, check_number, coefficient

__all__ = ["Adadelta", "Adagrad", "RMSprop"]


def _signed_decayed(group, p, g):
    """The gradient negated with maximize, plus weight_decay * p (L2 penalty)."""
    if group.get("maximize", False):
        g = -g
    if group["weight_decay"]:
        g = g + group["weight_decay"] * p
    return g


class Adadelta(Optimizer):
    r"""Adadelta (PyTorch's form): with g the gradient plus weight_decay * p,

    .. math::
        v_t = \rho v_{t-1} + (1 - \rho) g^2, \quad \Delta_t = \frac{\sqrt{u_{t-1} + \epsilon}}{\sqrt{v_t + \epsilon}} g,
        \quad u_t = \rho u_{t-1} + (1 - \rho) \Delta_t^2, \quad p_t = p_{t-1} - lr\, \Delta_t

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1.0``.
        rho (float, optional): decay rate of the running averages. Default: ``0.9``.
        eps (float, optional): added inside the roots. Default: ``1e-6``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        if not hasattr(lr, "asnumpy"):
            check_number("Adadelta", "lr", lr, 0.0, low_inclusive=False)
        check_number("Adadelta", "eps", eps, 0.0, low_inclusive=False)
        check_number("Adadelta", "weight_decay", weight_decay, 0.0)
        check_number("Adadelta", "rho", rho, 0.0, 1.0)
        check_bool("Adadelta", "maximize", maximize)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)
        self._make_state("accum", "accum")
        self._make_state("accum_update", "accum_update")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        for group_id, group in enumerate(self.param_groups):
            lr, rho, eps = self._lr(group), group["rho"], group["eps"]
            for i, p, g in self._group_items(group_id, gradients):
                g = _signed_decayed(group, p, g)
                v, u = self.accum[i], self.accum_update[i]
                new_v = v * rho + g * g * (1.0 - rho)
                delta = ops.sqrt(u + eps) / ops.sqrt(new_v + eps) * g
                ops.assign(v, new_v)
                ops.assign(u, u * rho + delta * delta * (1.0 - rho))
                ops.assign(p, p - coefficient(lr, p.dtype) * delta)
        return True


class Adagrad(Optimizer):
    r"""Adagrad (PyTorch's form): with g the gradient plus weight_decay * p,

    .. math::
        s_t = s_{t-1} + g^2, \quad p_t = p_{t-1} - \frac{lr}{1 + (t - 1)\eta} \frac{g}{\sqrt{s_t} + \epsilon}

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-2``.
        lr_decay (float, optional): :math:`\eta`, the learning rate's decay. Default: ``0.``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        initial_accumulator_value (float, optional): :math:`s_0`. Default: ``0.``.
        eps (float, optional): added to the denominator. Default: ``1e-10``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, *,
                 maximize=False):
        if not hasattr(lr, "asnumpy"):
            check_number("Adagrad", "lr", lr, 0.0, low_inclusive=False)
        check_number("Adagrad", "lr_decay", lr_decay, 0.0)
        check_number("Adagrad", "weight_decay", weight_decay, 0.0)
        initial = check_number("Adagrad", "initial_accumulator_value", initial_accumulator_value, 0.0)
        check_number("Adagrad", "eps", eps, 0.0, low_inclusive=False)
        check_bool("Adagrad", "maximize", maximize)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial, maximize=maximize)
        super().__init__(params, defaults)
        self._make_state("accum", "accum", initial)
        self.step_t = self._make_counter("step_t")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        for group_id, group in enumerate(self.param_groups):
            clr = self._lr(group) / (1.0 + (step - 1) * group["lr_decay"])
            for i, p, g in self._group_items(group_id, gradients):
                g = _signed_decayed(group, p, g)
                s = self.accum[i]
                new_s = s + g * g
                ops.assign(s, new_s)
                ops.assign(p, p - coefficient(clr, p.dtype) * g / (ops.sqrt(new_s) + group["eps"]))
        ops.assign_add(self.step_t, 1)
        return True


class RMSprop(Optimizer):
    r"""RMSprop (PyTorch's form): with g the gradient plus weight_decay * p (negated first with maximize),

    .. math::
        v_t = \alpha v_{t-1} + (1 - \alpha) g^2, \quad d = \sqrt{v_t} + \epsilon, \quad p_t = p_{t-1} - lr\, g / d

    centered subtracts the squared running mean of g under the root; with momentum > 0 the step is
    :math:`b_t = \mu b_{t-1} + g / d`, :math:`p_t = p_{t-1} - lr\, b_t`.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-2``.
        alpha (float, optional): smoothing constant. Default: ``0.99``.
        eps (float, optional): added to the denominator. Default: ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        momentum (float, optional): momentum factor. Default: ``0.``.
        centered (bool, optional): normalize by an estimate of the gradient's variance. Default: ``False``.
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                 maximize=False):
        if not hasattr(lr, "asnumpy"):
            check_number("RMSprop", "lr", lr, 0.0, low_inclusive=False)
        check_number("RMSprop", "alpha", alpha, 0.0)
        check_number("RMSprop", "eps", eps, 0.0, low_inclusive=False)
        check_number("RMSprop", "momentum", momentum, 0.0)
        check_number("RMSprop", "weight_decay", weight_decay, 0.0)
        check_bool("RMSprop", "centered", centered)
        check_bool("RMSprop", "maximize", maximize)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)
        self._make_state("mean_grad", "mean_grad")
        self._make_state("mean_square", "mean_square")
        self._make_state("moment", "moment")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        for group_id, group in enumerate(self.param_groups):
            lr, alpha, eps, momentum = self._lr(group), group["alpha"], group["eps"], group["momentum"]
            for i, p, g in self._group_items(group_id, gradients):
                g = _signed_decayed(group, p, g)
                v = self.mean_square[i]
                new_v = v * alpha + g * g * (1.0 - alpha)
                ops.assign(v, new_v)
                if group["centered"]:
                    mg = self.mean_grad[i]
                    new_mg = mg * alpha + g * (1.0 - alpha)
                    ops.assign(mg, new_mg)
                    denom = ops.sqrt(new_v - new_mg * new_mg) + eps
                else:
                    denom = ops.sqrt(new_v) + eps
                step_lr = coefficient(lr, p.dtype)
                if momentum > 0:
                    b = self.moment[i]
                    new_b = b * momentum + g / denom
                    ops.assign(b, new_b)
                    ops.assign(p, p - step_lr * new_b)
                else:
                    ops.assign(p, p - step_lr * g / denom)
        return True
