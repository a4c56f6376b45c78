"""Spatial sampling (MindSpore 2.x ops.affine_grid and ops.grid_sample, 2-d): an affine map's sampling grid,
and sampling images at grid points, bilinear or nearest, with zeros, border or reflection padding. Built from
registry ops (gathers, floors, arithmetic), so the gradients with respect to the input and the grid come from
those ops' rules."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor, reshape

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _base_coordinates(n, align_corners):
    """Normalized pixel positions in [-1, 1]: the corner pixels' centers at +-1 (align_corners), else the
    image's edges."""
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2 + 1) / n - 1


def affine_grid(theta, size, align_corners=False):
    """The (N, H, W, 2) grid of (x, y) sample points theta (N, 2, 3) maps the output pixels of
    size = (N, C, H, W) to, in normalized coordinates."""
    t = _tensor(theta, "affine_grid", "theta")
    if not (isinstance(size, (tuple, list)) and len(size) == 4):
        raise ValueError(f"affine_grid: 'size' must be (N, C, H, W) (2-d grids), but got {size!r}")
    n, _, h, w = (int(v) for v in size)
    if t.dtype not in _FLOATS or t.shape != (n, 2, 3):
        raise ValueError(f"affine_grid: 'theta' must be a floating-point ({n}, 2, 3) tensor, but got {t.dtype} of "
                         f"shape {t.shape}")
    ys, xs = np.meshgrid(_base_coordinates(h, align_corners), _base_coordinates(w, align_corners), indexing="ij")
    base = Tensor(np.stack([xs.ravel(), ys.ravel(), np.ones(h * w)], axis=1), t.dtype)  # (H W, 3)
    grid = prim("BatchMatMul", transpose_b=True)(prim("BroadcastTo", shape=(n, h * w, 3))(base), t)  # (N, H W, 2)
    return reshape(grid, (n, h, w, 2))


def _unnormalize(coordinate, size, align_corners):
    if align_corners:
        return (coordinate + 1) * ((size - 1) / 2)
    return ((coordinate + 1) * size - 1) / 2


def _reflect(x, low, high):
    """x folded back into [low, high] by reflections at its ends (PyTorch's reflect_coordinates)."""
    span = high - low
    if span <= 0:
        return prim("ZerosLike")(x) + low
    distance = prim("Abs")(x - low)
    flips = prim("Floor")(distance / span)
    extra = distance - flips * span  # in [0, span)
    even = prim("Equal")(prim("FloorMod")(flips, Tensor(2.0, x.dtype)), Tensor(0.0, x.dtype))
    return prim("Select")(even, extra + low, span - extra + low)


def _source_coordinate(coordinate, size, padding_mode, align_corners):
    x = _unnormalize(coordinate, size, align_corners)
    if padding_mode == "reflection":
        x = _reflect(x, 0.0, size - 1.0) if align_corners else _reflect(x, -0.5, size - 0.5)
    if padding_mode in ("border", "reflection"):
        x = prim("ClipByValue")(x, Tensor(0.0, x.dtype), Tensor(size - 1.0, x.dtype))
    return x


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """Samples the images of `input` (N, C, H, W) at the normalized (x, y) points of `grid` (N, Ho, Wo, 2):
    (N, C, Ho, Wo) (volumes (N, C, D, H, W) at (x, y, z) points (N, Do, Ho, Wo, 3) likewise). mode 'bilinear' or 'nearest'; points outside read zeros ('zeros'), the nearest edge
    pixel ('border') or the image mirrored ('reflection')."""
    x, g = _tensor(input, "grid_sample", "input"), _tensor(grid, "grid_sample", "grid")
    if x.ndim == 5:  # volumes (N, C, D, H, W) at (N, Do, Ho, Wo, 3) points
        from sprout.ops.function.nn_resize_more_func import grid_sample_3d
        return grid_sample_3d(x, g, mode, padding_mode, align_corners)
    if x.ndim != 4 or g.ndim != 4 or g.shape[0] != x.shape[0] or g.shape[3] != 2:
        raise ValueError(f"grid_sample: 'input' must be (N, C, H, W) and 'grid' (N, Ho, Wo, 2) (2-d sampling), but "
                         f"got shapes {x.shape} and {g.shape}")
    if x.dtype not in _FLOATS or g.dtype != x.dtype:
        raise TypeError(f"grid_sample: 'input' and 'grid' must share a floating-point dtype, but got {x.dtype} and "
                        f"{g.dtype}")
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"grid_sample: 'mode' must be 'bilinear' or 'nearest', but got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"grid_sample: 'padding_mode' must be 'zeros', 'border' or 'reflection', but got "
                         f"{padding_mode!r}")
    n, c, h, w = x.shape
    ho, wo = g.shape[1:3]
    gx = reshape(prim("Slice")(g, (0, 0, 0, 0), (n, ho, wo, 1)), (n, ho * wo))
    gy = reshape(prim("Slice")(g, (0, 0, 0, 1), (n, ho, wo, 1)), (n, ho * wo))
    px = _source_coordinate(gx, w, padding_mode, align_corners)
    py = _source_coordinate(gy, h, padding_mode, align_corners)
    flat = reshape(x, (n, c, h * w))

    def read(ix, iy):
        """input at integer positions (ix, iy) (N, P), zero outside the image: (N, C, P)."""
        inside = prim("LogicalAnd")(prim("LogicalAnd")(ix >= 0, ix <= w - 1), prim("LogicalAnd")(iy >= 0, iy <= h - 1))
        cx = prim("ClipByValue")(ix, Tensor(0.0, ix.dtype), Tensor(w - 1.0, ix.dtype))
        cy = prim("ClipByValue")(iy, Tensor(0.0, iy.dtype), Tensor(h - 1.0, iy.dtype))
        index = prim("Cast")(cy * w + cx, mstype.int64)
        index = prim("BroadcastTo", shape=(n, c, ho * wo))(prim("ExpandDims")(index, 1))
        values = prim("GatherElements")(flat, index, 2)
        return values * prim("Cast")(prim("ExpandDims")(inside, 1), x.dtype)

    if mode == "nearest":
        out = read(prim("Round")(px), prim("Round")(py))
    else:
        x0, y0 = prim("Floor")(px), prim("Floor")(py)
        wx, wy = px - x0, py - y0
        x1, y1 = x0 + 1, y0 + 1
        weight = lambda a: prim("ExpandDims")(a, 1)  # noqa: E731  (N, P) -> (N, 1, P)
        out = (read(x0, y0) * weight((1 - wx) * (1 - wy)) + read(x1, y0) * weight(wx * (1 - wy)) +
               read(x0, y1) * weight((1 - wx) * wy) + read(x1, y1) * weight(wx * wy))
    return reshape(out, (n, c, ho, wo))


__all__ = ["affine_grid", "grid_sample"]
