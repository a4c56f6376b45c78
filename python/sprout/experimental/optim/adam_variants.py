"""Adamax, NAdam and RAdam: Adam's moments with another step (PyTorch's update rules)."""
from sprout import ops
from sprout.experimental.optim.optimizer import (Optimizer, check_betas, check_bool, check_number, coefficient,
                                                 greater, power, sqrt, where)

__all__ = ["Adamax", "NAdam", "RAdam"]


def _check_common(api, lr, eps, weight_decay, betas):
    """MindSpore's checks of these three: lr > 0, eps > 0, weight_decay >= 0, betas in [0, 1)."""
    if not hasattr(lr, "asnumpy"):
        check_number(api, "lr", lr, 0.0, low_inclusive=False)
    check_number(api, "eps", eps, 0.0, low_inclusive=False)
    check_number(api, "weight_decay", weight_decay, 0.0)
    check_betas(api, betas)


class Adamax(Optimizer):
    r"""Adamax, Adam with the infinity norm (PyTorch's form): with g the gradient plus weight_decay * p,

    .. math::
        m_t = \beta_1 m_{t-1} + (1 - \beta_1) g, \quad u_t = \max(\beta_2 u_{t-1}, |g| + \epsilon), \quad
        p_t = p_{t-1} - \frac{lr}{1 - \beta_1^t} \frac{m_t}{u_t}

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``2e-3``.
        betas (Tuple[float, float], optional): decay rates of the moment and of the norm. Default: ``(0.9, 0.999)``.
        eps (float, optional): added to |g|. Default: ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *, maximize=False):
        _check_common("Adamax", lr, eps, weight_decay, betas)
        check_bool("Adamax", "maximize", maximize)
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)
        self.step_t = self._make_counter("step_t")
        self._make_state("exp_avg", "exp_avg")
        self._make_state("exp_inf", "exp_inf")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        for group_id, group in enumerate(self.param_groups):
            lr, wd, eps = self._lr(group), group["weight_decay"], group["eps"]
            beta1, beta2 = group["betas"]
            clr = lr / (1.0 - power(beta1, step))
            for i, p, g in self._group_items(group_id, gradients):
                if group["maximize"]:
                    g = -g
                if wd:
                    g = g + wd * p
                m, u = self.exp_avg[i], self.exp_inf[i]
                new_m = m * beta1 + g * (1.0 - beta1)
                new_u = ops.maximum(u * beta2, ops.abs(g) + eps)
                ops.assign(m, new_m)
                ops.assign(u, new_u)
                ops.assign(p, p - coefficient(clr, p.dtype) * new_m / new_u)
        ops.assign_add(self.step_t, 1)
        return True


class NAdam(Optimizer):
    r"""Adam with Nesterov momentum (NAdam, PyTorch's form): with g the gradient plus weight_decay * p,
    :math:`\mu_t = \beta_1 (1 - 0.5 \cdot 0.96^{t \psi})` (:math:`\psi` the momentum decay) and their running
    product :math:`\Pi_t`,

    .. math::
        p_t = p_{t-1} - lr \frac{1 - \mu_t}{1 - \Pi_t} \frac{g}{d} - lr \frac{\mu_{t+1}}{1 - \Pi_t \mu_{t+1}}
        \frac{m_t}{d}, \quad d = \sqrt{v_t / (1 - \beta_2^t)} + \epsilon

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``2e-3``.
        betas (Tuple[float, float], optional): decay rates of the moments. Default: ``(0.9, 0.999)``.
        eps (float, optional): added to the denominator. Default: ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        momentum_decay (float, optional): :math:`\psi`. Default: ``4e-3``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3):
        _check_common("NAdam", lr, eps, weight_decay, betas)
        check_number("NAdam", "momentum_decay", momentum_decay, 0.0)
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay)
        super().__init__(params, defaults)
        self.step_t = self._make_counter("step_t")
        self._make_state("exp_avg", "exp_avg")
        self._make_state("exp_avg_sq", "exp_avg_sq")
        self._make_state("mu_product", "mu_product", 1.0, scalar=True)

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        for group_id, group in enumerate(self.param_groups):
            lr, wd, eps, decay = self._lr(group), group["weight_decay"], group["eps"], group["momentum_decay"]
            beta1, beta2 = group["betas"]
            bias_correction2 = 1.0 - power(beta2, step)
            mu = beta1 * (1.0 - 0.5 * power(0.96, step * decay))
            mu_next = beta1 * (1.0 - 0.5 * power(0.96, (step + 1) * decay))
            for i, p, g in self._group_items(group_id, gradients):
                if wd:
                    g = g + wd * p
                m, v = self.exp_avg[i], self.exp_avg_sq[i]
                mu_product = self._scalar(self.mu_product[i]) * mu
                ops.assign(self.mu_product[i], mu_product)
                new_m = m * beta1 + g * (1.0 - beta1)
                new_v = v * beta2 + g * g * (1.0 - beta2)
                ops.assign(m, new_m)
                ops.assign(v, new_v)
                denom = ops.sqrt(new_v * coefficient(1.0 / bias_correction2, p.dtype)) + eps
                grad_coef = coefficient(lr * (1.0 - mu) / (1.0 - mu_product), p.dtype)
                moment_coef = coefficient(lr * mu_next / (1.0 - mu_product * mu_next), p.dtype)
                ops.assign(p, p - grad_coef * g / denom - moment_coef * new_m / denom)
        ops.assign_add(self.step_t, 1)
        return True


class RAdam(Optimizer):
    r"""Rectified Adam (RAdam, PyTorch's form): with g the gradient plus weight_decay * p,
    :math:`\rho_\infty = 2 / (1 - \beta_2) - 1` and :math:`\rho_t = \rho_\infty - 2 t \beta_2^t / (1 - \beta_2^t)`,
    the step is Adam's times the rectification
    :math:`r_t = \sqrt{(\rho_t - 4)(\rho_t - 2)\rho_\infty / ((\rho_\infty - 4)(\rho_\infty - 2)\rho_t)}` when
    :math:`\rho_t > 5`, and the bias-corrected momentum alone, :math:`lr\, m_t / (1 - \beta_1^t)`, before.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float], optional): decay rates of the moments. Default: ``(0.9, 0.999)``.
        eps (float, optional): added to the denominator. Default: ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        _check_common("RAdam", lr, eps, weight_decay, betas)
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay)
        super().__init__(params, defaults)
        self.step_t = self._make_counter("step_t")
        self._make_state("exp_avg", "exp_avg")
        self._make_state("exp_avg_sq", "exp_avg_sq")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        for group_id, group in enumerate(self.param_groups):
            lr, wd, eps = self._lr(group), group["weight_decay"], group["eps"]
            beta1, beta2 = group["betas"]
            beta2_power = power(beta2, step)
            bias_correction1, bias_correction2 = 1.0 - power(beta1, step), 1.0 - beta2_power
            rho_inf = 2.0 / (1.0 - beta2) - 1.0
            rho_t = rho_inf - 2.0 * step * beta2_power / bias_correction2
            rectified = greater(rho_t, 5.0)
            # where rho_t <= 5 the product under the root may be negative: clamp it, that branch is not taken
            rect = sqrt(where(rectified, (rho_t - 4.0) * (rho_t - 2.0) * rho_inf
                              / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t), 1.0))
            # the adaptive factor sqrt(1 - beta2^t) / (sqrt(v) + eps) applies only once rectified
            adaptive_scale = where(rectified, rect * sqrt(bias_correction2), 0.0)
            for i, p, g in self._group_items(group_id, gradients):
                if wd:
                    g = g + wd * p
                m, v = self.exp_avg[i], self.exp_avg_sq[i]
                new_m = m * beta1 + g * (1.0 - beta1)
                new_v = v * beta2 + g * g * (1.0 - beta2)
                ops.assign(m, new_m)
                ops.assign(v, new_v)
                step_m = new_m * coefficient(lr / bias_correction1, p.dtype)
                if isinstance(rectified, bool):
                    if rectified:
                        step_m = step_m * coefficient(adaptive_scale, p.dtype) / (ops.sqrt(new_v) + eps)
                else:
                    scale = ops.where(rectified, coefficient(adaptive_scale, p.dtype) / (ops.sqrt(new_v) + eps),
                                      ops.ones_like(new_v))
                    step_m = step_m * scale
                ops.assign(p, p - step_m)
        ops.assign_add(self.step_t, 1)
        return True
