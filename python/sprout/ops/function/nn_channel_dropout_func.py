"""Channel dropout (MindSpore 2.x ops.dropout1d/2d/3d): whole channels zeroed, the rest scaled."""
from sprout.ops.function.array_func import _tensor
from sprout.ops.function.random_func import uniform


def _channel_dropout(api, spatial, input, p, training):
    x = _tensor(input, api, "input")
    if x.ndim not in (spatial + 1, spatial + 2):
        raise ValueError(f"{api}: 'input' must have {spatial + 1} or {spatial + 2} dimensions (channels first, "
                         f"then {spatial} spatial), but got shape {x.shape}")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"{api}: 'p' must be a number in [0, 1], but got {p!r}")
    if not training or p == 0:
        return x
    # One draw per channel (per sample), broadcast over its positions; kept channels scaled by 1 / (1 - p).
    shape = x.shape[:x.ndim - spatial] + (1,) * spatial
    keep = uniform(shape, 0.0, 1.0) >= p  # seeds drawn from the global generator (ms.set_seed)
    return x * keep.astype(x.dtype) * (1.0 / (1.0 - p)) if p < 1 else x * 0.0


def dropout1d(input, p=0.5, training=True):
    """Zeroes whole channels of an (N, C, L) or (C, L) input with probability `p`, scaling the rest."""
    return _channel_dropout("dropout1d", 1, input, p, training)


def dropout2d(input, p=0.5, training=True):
    """Zeroes whole channels of an (N, C, H, W) or (C, H, W) input with probability `p`, scaling the rest."""
    return _channel_dropout("dropout2d", 2, input, p, training)


def dropout3d(input, p=0.5, training=True):
    """Zeroes whole channels of an (N, C, D, H, W) or (C, D, H, W) input with probability `p`, scaling the rest."""
    return _channel_dropout("dropout3d", 3, input, p, training)


__all__ = ["dropout1d", "dropout2d", "dropout3d"]
