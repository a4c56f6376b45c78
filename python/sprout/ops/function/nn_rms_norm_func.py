"""RMS normalization, MindSpore 2.x's ops.rms_norm: x / sqrt(mean(x^2) + eps) * gamma over gamma's trailing
axes, with the reciprocal root (rstd) it divides by. A composition of Sprout ops (gradients, graph mode)."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor

__all__ = ["rms_norm"]


def rms_norm(x, gamma, epsilon=1e-6):
    """(y, rstd): y = x * rstd * gamma with rstd = 1 / sqrt(mean(x**2 over gamma's axes) + epsilon), of shape
    x.shape[:-gamma.ndim] + (1,) * gamma.ndim (Float32 for half inputs)."""
    for arg, t in (("x", x), ("gamma", gamma)):
        if not isinstance(t, Tensor):
            raise TypeError(f"rms_norm: '{arg}' must be a Tensor, but got {type(t).__name__}")
        if t.dtype not in (mstype.float16, mstype.bfloat16, mstype.float32):
            raise TypeError(f"rms_norm: '{arg}' must be float16, bfloat16 or float32, but got {t.dtype}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 < epsilon <= 1:
        raise ValueError(f"rms_norm: 'epsilon' must be a float in (0, 1], but got {epsilon!r}")
    if gamma.ndim == 0 or gamma.ndim > x.ndim or x.shape[x.ndim - gamma.ndim:] != gamma.shape:
        raise ValueError(f"rms_norm: 'gamma' must have the trailing shape of 'x' {x.shape}, but got {gamma.shape}")
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    wide = x.astype(mstype.float32)
    rstd = ((wide * wide).mean(axes, keep_dims=True) + epsilon).rsqrt()
    return (wide * rstd).astype(x.dtype) * gamma, rstd
