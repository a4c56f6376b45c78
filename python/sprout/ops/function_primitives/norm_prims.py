"""``ops.RmsNorm(epsilon)(x, gamma)``: RMS normalization carried out by ops.rms_norm."""
from sprout.ops import function as F
from sprout.ops.function_primitives._attr_checks import check_float
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["RmsNorm"]


class RmsNorm(Primitive):
    """``RmsNorm(epsilon=1e-6)(x, gamma)``: (y, rstd), see ops.rms_norm."""

    @prim_attr_register
    def __init__(self, epsilon=1e-6):
        if not 0 < check_float("RmsNorm", "epsilon", epsilon) <= 1:
            raise ValueError(f"RmsNorm: 'epsilon' must be in (0, 1], but got {epsilon}")
        self.init_prim_io_names(["x", "gamma"], ["y", "rstd"])

    def __call__(self, x, gamma):
        return F.rms_norm(x, gamma, self.epsilon)
