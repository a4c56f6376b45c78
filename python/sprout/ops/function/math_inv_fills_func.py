"""MindSpore's older one-line functions kept for its 1.x code: inv (the reciprocal, integer inputs kept
integral) and fills (a tensor like x filled with a value)."""
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim


def inv(x):
    """1 / x, elementwise. Floating tensors keep their dtype; integer tensors give the integer quotient of 1 by
    each element, truncated (0 beyond +-1), as MindSpore's Inv does; division by 0 follows the integer
    division's rule."""
    if not isinstance(x, Tensor):
        raise TypeError(f"inv: 'x' must be a Tensor, but got {type(x).__name__}")
    if x.dtype in mstype.float_type:
        return prim("Reciprocal")(x)
    if x.dtype == mstype.bool_:
        raise TypeError(f"inv: 'x' must be a numeric tensor, but got {x.dtype}")
    from sprout.ops.function.math_func import div
    return div(Tensor(1, x.dtype), x, rounding_mode="trunc")


def fills(x, value):
    """A tensor of x's shape and dtype whose elements all equal `value` (a number or a 0-d Tensor)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"fills: 'x' must be a Tensor, but got {type(x).__name__}")
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise ValueError(f"fills: a Tensor 'value' must be 0-d, but got shape {value.shape}")
        v = value if value.dtype == x.dtype else prim("Cast")(value, x.dtype)
        return prim("BroadcastTo", shape=x.shape)(v)  # a tensor's value: compiled code cannot read it at build time
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"fills: 'value' must be a number or a 0-d Tensor, but got {type(value).__name__}")
    return prim("Fill")(x.dtype, x.shape, value)


__all__ = ["inv", "fills"]
TENSOR_METHODS = list(__all__)
