"""LRN (``mindspore.nn.LRN``): local response normalization across channels, as in AlexNet."""
from sprout import ops
from sprout.nn.cell import Cell
from sprout.ops.function.nn_func import _check_float_arg
from sprout.ops.function.nn_loss_more_func import _check_int


class LRN(Cell):
    """x / (bias + alpha * sum of x^2 over the 2 * depth_radius + 1 nearest channels) ** beta, on (N, C, H, W).

    Arguments are checked here, when the cell is built, as MindSpore's LRN primitive does."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        self.depth_radius = _check_int("LRN", "depth_radius", depth_radius)
        if depth_radius < 0:
            raise ValueError(f"LRN: 'depth_radius' must be a non-negative int, but got {depth_radius}")
        self.bias = _check_float_arg("LRN", "bias", bias)
        self.alpha = _check_float_arg("LRN", "alpha", alpha)
        self.beta = _check_float_arg("LRN", "beta", beta)
        if norm_region != "ACROSS_CHANNELS":
            raise ValueError(f"LRN: 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}")
        self.norm_region = norm_region

    def construct(self, input_x):
        return ops.lrn(input_x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)

    def extend_repr(self):
        return f"depth_radius={self.depth_radius}, bias={self.bias}, alpha={self.alpha}, beta={self.beta}"
