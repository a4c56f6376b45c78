"""SGD and ASGD (averaged SGD), PyTorch's update rules."""
from sprout import ops
from sprout.experimental.optim.optimizer import (Optimizer, check_bool, check_number, coefficient, equal, maximum,
                                                 power, where)

__all__ = ["SGD", "ASGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, optionally with momentum (PyTorch's form):

    .. math::
        v_{t+1} = u v_t + (1 - dampening) g, \quad p_{t+1} = p_t - lr\, v_{t+1}
        \quad (\text{Nesterov: } p_{t+1} = p_t - lr\,(g + u v_{t+1}))

    with :math:`v_1 = g` on the first step and g the gradient plus weight_decay * p (negated first with
    maximize). With momentum 0 the step is p -= lr * g (dampening plays no part).

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor]): learning rate.
        momentum (Union[int, float], optional): momentum factor. Default: ``0``.
        dampening (Union[int, float], optional): dampening of the momentum. Default: ``0``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        nesterov (bool, optional): Nesterov momentum. Default: ``False``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False):
        momentum = check_number(self._api, "momentum", momentum, 0.0)
        dampening = check_number(self._api, "dampening", dampening)
        check_bool(self._api, "nesterov", nesterov)
        check_bool(self._api, "maximize", maximize)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"{self._api}: nesterov=True needs momentum > 0 and dampening == 0, but got momentum {momentum}, "
                             f"dampening {dampening}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, grad_centralization=False)
        super().__init__(params, defaults)
        for group in self.param_groups:
            group["dampening"] = check_number(self._api, "dampening", group["dampening"])
            group["momentum"] = check_number(self._api, "momentum", group["momentum"], 0.0)
        self._make_state("accum", "accum", 0.0)
        self._make_state("stat", "stat", 1.0)  # 1 until a parameter's first step: the momentum buffer starts at g
        self._sgd_ops = {}

    def _sgd_op(self, dampening, weight_decay, nesterov):
        key = (dampening, weight_decay, nesterov)
        if key not in self._sgd_ops:  # the op takes these as attributes: one per combination in use
            self._sgd_ops[key] = ops.SGD(dampening=dampening, weight_decay=weight_decay, nesterov=nesterov)
        return self._sgd_ops[key]

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        for group_id, group in enumerate(self.param_groups):
            lr, momentum, wd = self._lr(group), group["momentum"], group["weight_decay"]
            for i, p, g in self._group_items(group_id, gradients):
                if group["maximize"]:
                    g = -g
                step_lr = coefficient(lr, p.dtype)
                if momentum == 0.0:
                    if wd:
                        g = g + wd * p
                    ops.assign(p, p - step_lr * g)
                else:
                    # the decayed gradient, the momentum buffer, stat and p, in place in one fused op
                    self._sgd_op(group["dampening"], wd, bool(group["nesterov"]))(
                        p, g, step_lr, self.accum[i], momentum, self.stat[i])
        return True


class ASGD(Optimizer):
    r"""Averaged stochastic gradient descent (PyTorch's form): each step

    .. math::
        p \leftarrow p (1 - \lambda \eta) - \eta g, \quad ax \leftarrow ax + \mu (p - ax), \quad
        \eta \leftarrow lr / (1 + \lambda\, lr\, t)^{\alpha}, \quad \mu \leftarrow 1 / \max(1, t - t_0)

    with :math:`\eta = lr` and :math:`\mu = 1` at the first step; `ax` (the average) is kept in the state.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default: ``1e-2``.
        lambd (float, optional): decay term. Default: ``1e-4``.
        alpha (float, optional): power of the eta update. Default: ``0.75``.
        t0 (float, optional): the step at which averaging starts. Default: ``1e6``.
        weight_decay (float, optional): L2 penalty. Default: ``0.``.
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False):
        if not isinstance(lambd, float):
            raise TypeError(f"ASGD: 'lambd' must be a float, but got {type(lambd).__name__}")
        if not isinstance(t0, float):
            raise TypeError(f"ASGD: 't0' must be a float, but got {type(t0).__name__}")
        check_number("ASGD", "alpha", alpha)
        check_bool("ASGD", "maximize", maximize)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)
        if any(float(group["lr"].asnumpy()) <= 0 for group in self.param_groups):
            raise ValueError("ASGD: 'lr' must be > 0 (eta is lr / (1 + lambd lr t)^alpha)")
        self._make_state("eta", "eta", 0.0, scalar=True)
        self._make_state("mu", "mu", 1.0, scalar=True)
        self._make_state("ax", "ax", 0.0)
        self.step_t = self._make_counter("step_t")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        for group_id, group in enumerate(self.param_groups):
            lr, lambd, alpha, t0 = self._lr(group), group["lambd"], group["alpha"], group["t0"]
            # eta and mu for the next step, computed with this step's lr as PyTorch does
            next_eta = lr / power(1.0 + lambd * lr * step, alpha)
            next_mu = 1.0 / maximum(step - t0, 1.0)
            for i, p, g in self._group_items(group_id, gradients):
                if group["maximize"]:
                    g = -g
                if group["weight_decay"]:
                    g = g + group["weight_decay"] * p
                eta = coefficient(where(equal(step, 1), lr, self._scalar(self.eta[i])), p.dtype)
                mu = coefficient(self._scalar(self.mu[i]), p.dtype)
                new_p = p * (1.0 - lambd * eta) - eta * g
                ops.assign(p, new_p)
                ax = self.ax[i]
                ops.assign(ax, ax + mu * (new_p - ax))
                ops.assign(self.eta[i], next_eta)  # converted to the state's float32
                ops.assign(self.mu[i], next_mu)
        ops.assign_add(self.step_t, 1)
        return True
