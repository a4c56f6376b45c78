"""Activation cells MindSpore 2.x keeps under a second spelling or a fast form: SeLU (nn.SeLU, the name
MindSpore 2.10 has, next to Sprout's SELU) and FastGelu (x * sigmoid(1.702 x))."""
from sprout import ops
from sprout.nn.cell import Cell


class SeLU(Cell):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))), scale = 1.0507..., alpha = 1.6732... (ops.selu)."""

    def construct(self, input_x):
        return ops.selu(input_x)


class FastGelu(Cell):
    """x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)) (ops.fast_gelu): GELU's sigmoid approximation."""

    def construct(self, x):
        return ops.fast_gelu(x)
