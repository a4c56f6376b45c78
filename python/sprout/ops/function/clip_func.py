"""Gradient clipping: ops.clip_by_global_norm."""
import math

from sprout.common.tensor import Tensor


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
        use_norm = math.sqrt(sum(float((t.astype(t.dtype) * t).sum().item()) for t in x))
    scale = clip_norm / max(float(use_norm), clip_norm)
    return tuple(t * scale for t in x)


__all__ = ["clip_by_global_norm"]
