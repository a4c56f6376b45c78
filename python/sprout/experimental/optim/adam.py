"""Adam and AdamW (decoupled weight decay), PyTorch's update rules, AMSGrad included."""
from sprout import ops
from sprout.experimental.optim.optimizer import (Optimizer, check_betas, check_bool, check_number, coefficient,
                                                 power, sqrt)

__all__ = ["Adam", "AdamW"]

_fused_adam = ops.Adam(use_nesterov=False)


def _check_adam_args(api, eps, betas, amsgrad, maximize):
    check_number(api, "eps", eps, 0.0)
    check_betas(api, betas)
    check_bool(api, "amsgrad", amsgrad)
    check_bool(api, "maximize", maximize)


def adam_update(p, g, m, v, v_max, lr, beta1, beta2, eps, step, amsgrad):
    """p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps) after the moments' update (with
    AMSGrad, v's running maximum instead of v); m, v, v_max and p written in place."""
    beta1_power, beta2_power = power(beta1, step), power(beta2, step)
    bias_correction1, bias_correction2 = 1.0 - beta1_power, 1.0 - beta2_power
    dtype = p.dtype
    if not amsgrad:
        # One fused pass: the op computes lr sqrt(1 - beta2^t) / (1 - beta1^t) m / (sqrt(v) + eps'), which
        # is PyTorch's step once eps' = eps sqrt(1 - beta2^t).
        _fused_adam(p, m, v, coefficient(beta1_power, dtype), coefficient(beta2_power, dtype),
                    coefficient(lr, dtype), beta1, beta2, coefficient(eps * sqrt(bias_correction2), dtype), g)
        return
    new_m = m * beta1 + g * (1.0 - beta1)
    new_v = v * beta2 + g * g * (1.0 - beta2)
    new_v_max = ops.maximum(v_max, new_v)
    ops.assign(m, new_m)
    ops.assign(v, new_v)
    ops.assign(v_max, new_v_max)
    denom = ops.sqrt(new_v_max) * coefficient(1.0 / sqrt(bias_correction2), dtype) + eps
    ops.assign(p, p - coefficient(lr / bias_correction1, dtype) * new_m / denom)


class Adam(Optimizer):
    r"""Adam (PyTorch's form): with g the gradient plus weight_decay * p (L2 penalty; negated first with
    maximize),

    .. math::
        m_t = \beta_1 m_{t-1} + (1 - \beta_1) g, \quad v_t = \beta_2 v_{t-1} + (1 - \beta_2) g^2, \quad
        p_t = p_{t-1} - lr \frac{m_t / (1 - \beta_1^t)}{\sqrt{v_t / (1 - \beta_2^t)} + \epsilon}

    With amsgrad, the running maximum of :math:`v_t` takes its place in the denominator.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float], optional): decay rates of the moments. Default: ``(0.9, 0.999)``.
        eps (float, optional): added to the denominator. Default: ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        amsgrad (bool, optional): AMSGrad. Default: ``False``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        _check_adam_args(self._api, eps, betas, amsgrad, maximize)
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize)
        super().__init__(params, defaults)
        for group in self.param_groups:
            check_betas(self._api, group["betas"])
        self._make_state("exp_avg", "exp_avg")
        self._make_state("exp_avg_sq", "exp_avg_sq")
        self._make_state("max_exp_avg_sq", "max_exp_avg_sq")
        self.state_step = self._make_counter("state_step")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.state_step) + 1
        for group_id, group in enumerate(self.param_groups):
            lr, wd = self._lr(group), group["weight_decay"]
            beta1, beta2 = group["betas"]
            for i, p, g in self._group_items(group_id, gradients):
                if group["maximize"]:
                    g = -g
                if self._decoupled:
                    if wd:
                        ops.assign(p, p * coefficient(1.0 - lr * wd, p.dtype))
                elif wd:
                    g = g + wd * p
                adam_update(p, g, self.exp_avg[i], self.exp_avg_sq[i], self.max_exp_avg_sq[i], lr, beta1, beta2,
                            group["eps"], step, group["amsgrad"])
        ops.assign_add(self.state_step, 1)
        return True


class AdamW(Adam):
    r"""Adam with decoupled weight decay (PyTorch's AdamW): each step first
    :math:`p \leftarrow p (1 - lr \cdot weight\_decay)`, then Adam's update without an L2 term.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-3``.
        betas (Tuple[float, float], optional): decay rates of the moments. Default: ``(0.9, 0.999)``.
        eps (float, optional): added to the denominator. Default: ``1e-8``.
        weight_decay (float, optional): decoupled weight decay. Default: ``1e-2``.
        amsgrad (bool, optional): AMSGrad. Default: ``False``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
