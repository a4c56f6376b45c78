"""Rearrangements between channels and space: pixel_shuffle (sub-pixel upsampling) and pixel_unshuffle (a
reshape, a transpose and a reshape each), and upsample. MindSpore 2.x names and arguments."""
from sprout.ops.function.array_func import _int, _tensor, reshape, transpose
from sprout.ops.function.nn_conv_func import interpolate


def _factor(api, arg, value):
    value = _int(value, api, arg)
    if value < 1:
        raise ValueError(f"{api}: '{arg}' must be >= 1, but got {value}")
    return value


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): each group of r^2 channels becomes an r x r block of pixels."""
    x, r = _tensor(input, "pixel_shuffle", "input"), _factor("pixel_shuffle", "upscale_factor", upscale_factor)
    if x.ndim < 3 or x.shape[-3] % (r * r):
        raise ValueError(f"pixel_shuffle: 'input' must be (*, C, H, W) with C divisible by upscale_factor^2 = {r * r}, "
                         f"but got shape {x.shape}")
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    n = len(lead)
    blocks = reshape(x, lead + (c // (r * r), r, r, h, w))
    moved = transpose(blocks, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))  # (*, C, H, r, W, r)
    return reshape(moved, lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of pixel_shuffle."""
    x, r = _tensor(input, "pixel_unshuffle", "input"), _factor("pixel_unshuffle", "downscale_factor", downscale_factor)
    if x.ndim < 3 or x.shape[-2] % r or x.shape[-1] % r:
        raise ValueError(f"pixel_unshuffle: 'input' must be (*, C, H, W) with H and W divisible by "
                         f"downscale_factor = {r}, but got shape {x.shape}")
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    n = len(lead)
    blocks = reshape(x, lead + (c, h // r, r, w // r, r))
    moved = transpose(blocks, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))  # (*, C, r, r, H, W)
    return reshape(moved, lead + (c * r * r, h // r, w // r))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
    """Same as interpolate (MindSpore keeps the older name)."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


__all__ = ["pixel_shuffle", "pixel_unshuffle", "upsample"]
