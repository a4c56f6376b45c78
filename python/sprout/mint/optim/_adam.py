"""mint.optim.Adam, AdamW and FusedAdamW: PyTorch's algorithms (bias-corrected moments, AMSGrad, maximize;
Adam adds weight_decay * param to the gradient, AdamW decays the parameter by lr * weight_decay first)."""
from sprout import ops
from sprout.mint.optim._optimizer import Optimizer, float_step

__all__ = ["Adam", "AdamW", "FusedAdamW"]


class Adam(Optimizer):
    """Adam (L2 penalty added to the gradient)."""
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize})
        self.exp_avg = self._make_state("exp_avg")
        self.exp_avg_sq = self._make_state("exp_avg_sq")
        self.max_exp_avg_sq = self._make_state("max_exp_avg_sq")

    def _check_group(self, api, group):
        self._number(api, "lr", group["lr"])
        self._number(api, "eps", group["eps"])
        self._number(api, "weight_decay", group["weight_decay"])
        betas = group["betas"]
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise ValueError(f"{api}: 'betas' must be a pair of numbers, but got {betas!r}")
        for b in betas:
            self._number(api, "betas", b, 0.0, 1.0)
        for flag in ("amsgrad", "maximize"):
            if not isinstance(group[flag], bool):
                raise ValueError(f"{api}: '{flag}' must be a bool, but got {group[flag]!r}")

    def _update(self, index, param, grad, group, step):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        value = param
        if wd and self._decoupled:
            value = ops.mul(value, 1 - lr * wd)
        elif wd:
            grad = ops.add(grad, ops.mul(param, wd))
        m = ops.add(ops.mul(self.exp_avg[index], beta1), ops.mul(grad, 1 - beta1))
        v = ops.add(ops.mul(self.exp_avg_sq[index], beta2), ops.mul(ops.square(grad), 1 - beta2))
        ops.assign(self.exp_avg[index], m)
        ops.assign(self.exp_avg_sq[index], v)
        t = float_step(step, param.dtype)
        bias1 = ops.sub(1.0, ops.pow(beta1, t))
        bias2_sqrt = ops.sqrt(ops.sub(1.0, ops.pow(beta2, t)))
        if group["amsgrad"]:
            v = ops.maximum(self.max_exp_avg_sq[index], v)
            ops.assign(self.max_exp_avg_sq[index], v)
        denom = ops.add(ops.div(ops.sqrt(v), bias2_sqrt), eps)
        ops.assign(param, ops.sub(value, ops.mul(ops.div(m, denom), ops.div(lr, bias1))))


class AdamW(Adam):
    """AdamW (decoupled weight decay, 0.01 by default)."""
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-08, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """AdamW (MindSpore's fused kernel on Ascend; the same arithmetic here)."""
