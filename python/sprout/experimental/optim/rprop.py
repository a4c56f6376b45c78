"""Rprop: resilient backpropagation, a per-element step size driven by the gradient's sign (PyTorch's rule)."""
from sprout import ops
from sprout.experimental.optim.optimizer import Optimizer, check_bool, check_number, check_pair, coefficient, equal

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Rprop (PyTorch's form). Each element's step size starts at lr; every step it is multiplied by
    etaplus where the gradient kept its sign, by etaminus where it flipped, and clipped to `step_sizes`.
    Where the sign flipped the gradient counts as 0 (no step, and no sign to compare next time); elsewhere
    :math:`p \leftarrow p - \mathrm{sign}(g) \cdot step\_size`.

    Args:
        params (Union[list(Parameter), list(dict)]): the Parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): the initial step size. Default: ``1e-2``.
        etas (Tuple[float, float], optional): (etaminus, etaplus), the decrease and increase factors.
            Default: ``(0.5, 1.2)``.
        step_sizes (Tuple[float, float], optional): the smallest and largest step sizes. Default: ``(1e-6, 50)``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead of minimizing it. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`, in their order.
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False):
        if not hasattr(lr, "asnumpy"):
            check_number("Rprop", "lr", lr, 0.0, low_inclusive=False)
        etaminus, etaplus = check_pair("Rprop", "etas", etas)
        check_number("Rprop", "etas[0]", etaminus, 0.0, 1.0, low_inclusive=False, high_inclusive=False)
        check_number("Rprop", "etas[1]", etaplus, 1.0, low_inclusive=False)
        low, high = check_pair("Rprop", "step_sizes", step_sizes)
        if low > high:
            raise ValueError(f"Rprop: 'step_sizes' must be (min, max) with min <= max, but got {step_sizes}")
        check_bool("Rprop", "maximize", maximize)
        defaults = dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), maximize=maximize)
        super().__init__(params, defaults)
        self._make_state("prev", "prev")
        self._make_state("step_size", "step_size")
        self.step_t = self._make_counter("step_t")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        step = self._count(self.step_t) + 1
        first = equal(step, 1)
        for group_id, group in enumerate(self.param_groups):
            lr = self._lr(group)
            etaminus, etaplus = (float(e) for e in group["etas"])
            low, high = (float(s) for s in group["step_sizes"])
            for i, p, g in self._group_items(group_id, gradients):
                if group["maximize"]:
                    g = -g
                prev, step_size = self.prev[i], self.step_size[i]
                if isinstance(first, bool):
                    size = ops.full_like(step_size, lr) if first else step_size
                else:  # compiled: every element's size is lr on the first step
                    size = ops.where(first, ops.zeros_like(step_size) + coefficient(lr, p.dtype), step_size)
                direction = ops.sign(g * prev)
                factor = ops.where(direction > 0, ops.full_like(g, etaplus),
                                   ops.where(direction < 0, ops.full_like(g, etaminus), ops.ones_like(g)))
                new_size = ops.clamp(size * factor, low, high)
                kept = ops.where(direction < 0, ops.zeros_like(g), g)  # a flipped sign: no step this time
                ops.assign(step_size, new_size)
                ops.assign(prev, kept)
                ops.assign(p, p - ops.sign(kept) * new_size)
        ops.assign_add(self.step_t, 1)
        return True
