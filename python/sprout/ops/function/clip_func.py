"""Gradient clipping: ops.clip_by_global_norm and ops.clip_by_norm."""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.math_reduce_func import _lp_norm


def _square_sum(t):
    """sum(t * t) as a Python float, from one pass of LpNorm; half-precision tensors in float32 (their norms
    overflow)."""
    if t.dtype in (mstype.float16, mstype.bfloat16):
        t = t.astype(mstype.float32)
    return float(_lp_norm(t, 2, (), False).item()) ** 2


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scales every tensor of `x` by clip_norm / max(global_norm, clip_norm), global_norm being the L2 norm
    of all of them together (so their directions are kept)."""
    if isinstance(x, Tensor):
        return clip_by_global_norm((x,), clip_norm, use_norm)[0]
    if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
        raise TypeError("clip_by_global_norm: 'x' must be a Tensor or a tuple/list of Tensors")
    if not clip_norm > 0:
        raise ValueError(f"clip_by_global_norm: 'clip_norm' must be > 0, but got {clip_norm!r}")
    if use_norm is None:
        use_norm = math.sqrt(sum(_square_sum(t) for t in x))
    scale = clip_norm / max(float(use_norm), clip_norm)
    return tuple(t * scale for t in x)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales a Tensor, or a tuple/list of them together, so that their combined `norm_type`-norm is at
    most max_norm (PyTorch's clip_grad_norm_ rule, scale max_norm / (norm + 1e-6)); computed with tensor
    ops, so it also runs in compiled code. With error_if_nonfinite, a NaN or infinite norm raises."""
    from sprout import ops  # here: this module is part of ops
    tensors = (x,) if isinstance(x, Tensor) else x
    if not isinstance(tensors, (tuple, list)) or not tensors or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError("clip_by_norm: 'x' must be a Tensor or a non-empty tuple/list of Tensors")
    if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) or max_norm < 0:
        raise ValueError(f"clip_by_norm: 'max_norm' must be a number >= 0, but got {max_norm!r}")
    p = float(norm_type)
    norms = ops.stack([ops.norm(ops.reshape(t, (-1,)).astype(mstype.float32, copy=False), p) for t in tensors])
    total = ops.norm(norms, p)
    if error_if_nonfinite and not math.isfinite(float(total.asnumpy())):
        raise RuntimeError(f"clip_by_norm: the total {p}-norm of 'x' is not finite ({float(total.asnumpy())})")
    scale = ops.clamp(max_norm / (total + 1e-6), max=1.0)
    clipped = tuple(t * scale.astype(t.dtype) for t in tensors)
    return clipped[0] if isinstance(x, Tensor) else type(x)(clipped)


__all__ = ["clip_by_global_norm", "clip_by_norm"]
