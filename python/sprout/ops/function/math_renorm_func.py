"""renorm (MindSpore 2.x name and arguments): slices along an axis scaled down to a largest p-norm, as
weight-norm constraints use it. The norm is ops.norm's LpNorm, so it differentiates and compiles."""
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _axis, _tensor
from sprout.ops.function.math_reduce_func import _vector_norm


def renorm(input, p, axis, maxnorm):
    """`input` with each slice along `axis` whose p-norm (over the slice's elements) exceeds `maxnorm` scaled
    by maxnorm / norm, so its norm becomes maxnorm; the other slices unchanged. `p` is a positive int."""
    x = _tensor(input, "renorm", "input")
    if x.dtype not in mstype.float_type:
        raise TypeError(f"renorm: 'input' must be a floating-point tensor, but got {x.dtype}")
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"renorm: 'p' must be an int, but got {p!r}")
    if p <= 0:
        raise ValueError(f"renorm: 'p' must be positive, but got {p}")
    if isinstance(maxnorm, bool) or not isinstance(maxnorm, numbers.Real):
        raise TypeError(f"renorm: 'maxnorm' must be a float, but got {maxnorm!r}")
    if maxnorm < 0:
        raise ValueError(f"renorm: 'maxnorm' must be >= 0, but got {maxnorm}")
    if x.ndim == 0:
        raise ValueError("renorm: 'input' must have at least one dimension, but got a 0-d tensor")
    axis = _axis("renorm", "axis", axis, x.ndim)
    others = tuple(i for i in range(x.ndim) if i != axis)
    norms = _vector_norm(x, p, others, True)
    limit = Tensor(float(maxnorm), x.dtype)
    over = prim("Greater")(norms, limit)
    # maxnorm / norm only where the norm is over the limit (and so positive): no division by zero anywhere.
    safe = prim("Select")(over, norms, prim("OnesLike")(norms))
    factor = prim("Select")(over, prim("Div")(limit, safe), prim("OnesLike")(norms))
    return x * factor


__all__ = ["renorm"]
TENSOR_METHODS = ["renorm"]
