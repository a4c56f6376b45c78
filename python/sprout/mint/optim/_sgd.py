"""mint.optim.SGD: PyTorch's stochastic gradient descent (momentum with dampening, Nesterov, L2 weight decay,
maximize); the momentum buffer starts as the first gradient."""
from sprout import ops
from sprout.mint.optim._optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """SGD with optional momentum."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False):
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize})
        self.momentum_buffer = self._make_state("momentum_buffer")

    def _check_group(self, api, group):
        self._number(api, "lr", group["lr"])
        self._number(api, "momentum", group["momentum"])
        self._number(api, "weight_decay", group["weight_decay"])
        if isinstance(group["dampening"], bool) or not isinstance(group["dampening"], (int, float)):
            raise ValueError(f"{api}: 'dampening' must be a number, but got {group['dampening']!r}")
        for flag in ("nesterov", "maximize"):
            if not isinstance(group[flag], bool):
                raise ValueError(f"{api}: '{flag}' must be a bool, but got {group[flag]!r}")
        if group["nesterov"] and (group["momentum"] <= 0 or group["dampening"] != 0):
            raise ValueError(f"{api}: 'nesterov' needs a positive 'momentum' and zero 'dampening', but got "
                             f"momentum={group['momentum']}, dampening={group['dampening']}")

    def _update(self, index, param, grad, group, step):
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        if wd:
            grad = ops.add(grad, ops.mul(param, wd))
        if momentum:
            buf = self.momentum_buffer[index]
            later = ops.add(ops.mul(buf, momentum), ops.mul(grad, 1 - group["dampening"]))
            buf_new = ops.where(ops.equal(step, 1.0), grad, later)
            ops.assign(buf, buf_new)
            grad = ops.add(grad, ops.mul(buf_new, momentum)) if group["nesterov"] else buf_new
        ops.assign(param, ops.sub(param, ops.mul(grad, lr)))
