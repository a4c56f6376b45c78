"""The resizing and sampling behind MindSpore's ResizeNearestNeighborV2, ResizeBicubic, UpsampleNearest3D,
UpsampleTrilinear3D and GridSampler3D primitives (none has a functional form in MindSpore 2.x).

Resizing is separable: each spatial axis is a Gather with a constant index table (nearest) or a product with a
constant (out, in) weight matrix (linear, cubic), the tables from _resize_tables.py. So 3-d resizing is three
1-d ones, and the gradient of each step is its own transpose. 3-d grid sampling reads the eight corners of
each point by Gather, as 2-d ops.grid_sample reads four.
"""
import numpy as np

from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function import _resize_tables as tables
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, reshape
from sprout.ops.function.nn_sampling_func import _source_coordinate

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _float_images(api, arg, x, ndim, layout):
    x = _tensor(x, api, arg)
    if x.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be {ndim}-d {layout}, but got shape {x.shape}")
    if x.dtype not in _FLOATS:
        raise TypeError(f"{api}: '{arg}' must be float16, float32 or float64, but got {x.dtype}")
    return x


def _gather_axis(x, axis, index):
    return prim("Gather")(x, Tensor(index.astype(np.int64)), axis)


def _matrix_axis(x, axis, matrix):
    """x with `axis` replaced by matrix (out, in) applied along it."""
    last = x.ndim - 1
    if axis != last:
        perm = tuple(a for a in range(x.ndim) if a != axis) + (axis,)
        x = prim("Transpose")(x, perm)
    shape = x.shape
    flat = reshape(x, (-1, shape[-1]))
    out = prim("MatMul", transpose_b=True)(flat, Tensor(matrix, x.dtype))
    out = reshape(out, shape[:-1] + (matrix.shape[0],))
    if axis != last:
        inverse = tuple(int(i) for i in np.argsort(perm))
        out = prim("Transpose")(out, inverse)
    return out


def _size_pair(api, size):
    """(new_height, new_width) from a tuple or a 1-d tensor of 2 ints (read once, eagerly: it sets the
    output's shape; a graph takes a tuple)."""
    if isinstance(size, Tensor):
        if size.ndim != 1 or size.shape[0] != 2:
            raise ValueError(f"{api}: 'size' must be 1-d with 2 elements, but got shape {size.shape}")
        if size.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"{api}: 'size' must be an int32 tensor, but got {size.dtype}")
        if is_building_graph():
            raise TypeError(f"{api}: in graph mode 'size' sets the output's shape and must be a tuple of two ints, "
                            f"not a tensor")
        size = tuple(int(v) for v in size.asnumpy())
    if not (isinstance(size, (tuple, list)) and len(size) == 2):
        raise ValueError(f"{api}: 'size' must have 2 elements (new_height, new_width), but got {size!r}")
    size = tuple(_int(v, api, "size") for v in size)
    if min(size) <= 0:
        raise ValueError(f"{api}: 'size' must be positive, but got {size}")
    return size


def _corner_flags(api, align_corners, half_pixel_centers):
    for name, value in (("align_corners", align_corners), ("half_pixel_centers", half_pixel_centers)):
        if not isinstance(value, bool):
            raise TypeError(f"{api}: '{name}' must be a bool, but got {value!r}")
    if align_corners and half_pixel_centers:
        raise ValueError(f"{api}: 'align_corners' and 'half_pixel_centers' cannot both be True")


def resize_nearest_neighbor_v2(x, size, align_corners=False, half_pixel_centers=False):
    """(N, C, H, W) -> (N, C, new_height, new_width), each output cell the input cell TensorFlow's
    ResizeNearestNeighborV2 picks."""
    api = "ResizeNearestNeighborV2"
    _corner_flags(api, align_corners, half_pixel_centers)
    x = _tensor(x, api, "x")
    if x.ndim != 4:
        raise ValueError(f"{api}: 'x' must be 4-d (batch, channels, height, width), but got shape {x.shape}")
    (oh, ow), (h, w) = _size_pair(api, size), x.shape[2:]
    y = _gather_axis(x, 2, tables.tf_nearest_indices(h, oh, align_corners, half_pixel_centers))
    return _gather_axis(y, 3, tables.tf_nearest_indices(w, ow, align_corners, half_pixel_centers))


def resize_bicubic(images, size, align_corners=False, half_pixel_centers=False):
    """(N, C, H, W) -> (N, C, new_height, new_width) by TensorFlow's bicubic interpolation (MindSpore's CPU
    kernel): Keys' kernel, a = -0.75 with edge taps repeated, or a = -0.5 with half-pixel centers."""
    api = "ResizeBicubic"
    _corner_flags(api, align_corners, half_pixel_centers)
    x = _float_images(api, "images", images, 4, "(batch, channels, height, width)")
    (oh, ow), (h, w) = _size_pair(api, size), x.shape[2:]
    y = _matrix_axis(x, 2, tables.tf_cubic_matrix(h, oh, align_corners, half_pixel_centers))
    return _matrix_axis(y, 3, tables.tf_cubic_matrix(w, ow, align_corners, half_pixel_centers))


def upsample_nearest3d(x, output_size=None, scales=None):
    """(N, C, D, H, W) resized by PyTorch's 'nearest' to output_size, or to floor(size * scale)."""
    api = "UpsampleNearest3D"
    x = _float_images(api, "x", x, 5, "(N, C, D, H, W)")
    sizes = tables.torch_output_size(api, x.shape[2:], output_size, scales)
    for axis in range(3):
        scale = None if scales is None else float(scales[axis])
        x = _gather_axis(x, 2 + axis, tables.torch_nearest_indices(x.shape[2 + axis], sizes[axis], scale))
    return x


def upsample_trilinear3d(x, output_size=None, scales=None, align_corners=False):
    """(N, C, D, H, W) resized by PyTorch's 'trilinear' to output_size, or to floor(size * scale): three
    linear resizes, one per axis."""
    api = "UpsampleTrilinear3D"
    x = _float_images(api, "x", x, 5, "(N, C, D, H, W)")
    if not isinstance(align_corners, bool):
        raise TypeError(f"{api}: 'align_corners' must be a bool, but got {align_corners!r}")
    sizes = tables.torch_output_size(api, x.shape[2:], output_size, scales)
    for axis in range(3):
        scale = None if scales is None else float(scales[axis])
        x = _matrix_axis(x, 2 + axis, tables.torch_linear_matrix(x.shape[2 + axis], sizes[axis], align_corners, scale))
    return x


def _round_half_away(x):
    """std::round, as MindSpore's 3-d kernel rounds (halves away from zero, not to even)."""
    return prim("Sign")(x) * prim("Floor")(prim("Abs")(x) + 0.5)


def grid_sample_3d(input_x, grid, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
    """Samples the volumes of `input_x` (N, C, D, H, W) at the normalized (x, y, z) points of `grid`
    (N, Do, Ho, Wo, 3): (N, C, Do, Ho, Wo). 'bilinear' weighs the eight cells around each point; 'nearest'
    reads the closest (halves away from zero); padding as ops.grid_sample's."""
    api = "GridSampler3D"
    x = _float_images(api, "input_x", input_x, 5, "(N, C, D, H, W)")
    g = _tensor(grid, api, "grid")
    if g.ndim != 5 or g.shape[0] != x.shape[0] or g.shape[4] != 3:
        raise ValueError(f"{api}: 'grid' must be (N, D_out, H_out, W_out, 3) with N = {x.shape[0]}, but got shape "
                         f"{g.shape}")
    if g.dtype != x.dtype:
        raise TypeError(f"{api}: 'grid' must have the dtype of 'input_x' ({x.dtype}), but got {g.dtype}")
    if interpolation_mode not in ("bilinear", "nearest"):
        raise ValueError(f"{api}: 'interpolation_mode' must be 'bilinear' or 'nearest', but got "
                         f"{interpolation_mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"{api}: 'padding_mode' must be 'zeros', 'border' or 'reflection', but got {padding_mode!r}")
    if not isinstance(align_corners, bool):
        raise TypeError(f"{api}: 'align_corners' must be a bool, but got {align_corners!r}")
    n, c, d, h, w = x.shape
    points = g.shape[1] * g.shape[2] * g.shape[3]
    coordinate = lambda j: reshape(prim("Slice")(g, (0, 0, 0, 0, j), g.shape[:4] + (1,)), (n, points))  # noqa: E731
    px = _source_coordinate(coordinate(0), w, padding_mode, align_corners)
    py = _source_coordinate(coordinate(1), h, padding_mode, align_corners)
    pz = _source_coordinate(coordinate(2), d, padding_mode, align_corners)
    flat = reshape(x, (n, c, d * h * w))

    def read(ix, iy, iz):
        """input at integer positions (N, P), zero outside the volume: (N, C, P)."""
        both = prim("LogicalAnd")
        inside = both(both(both(ix >= 0, ix <= w - 1), both(iy >= 0, iy <= h - 1)), both(iz >= 0, iz <= d - 1))
        clip = lambda v, size: prim("ClipByValue")(v, Tensor(0.0, v.dtype), Tensor(size - 1.0, v.dtype))  # noqa
        index = prim("Cast")((clip(iz, d) * h + clip(iy, h)) * w + clip(ix, w), mstype.int64)
        index = prim("BroadcastTo", shape=(n, c, points))(prim("ExpandDims")(index, 1))
        values = prim("GatherElements")(flat, index, 2)
        return values * prim("Cast")(prim("ExpandDims")(inside, 1), x.dtype)

    if interpolation_mode == "nearest":
        out = read(_round_half_away(px), _round_half_away(py), _round_half_away(pz))
    else:
        x0, y0, z0 = prim("Floor")(px), prim("Floor")(py), prim("Floor")(pz)
        fx, fy, fz = px - x0, py - y0, pz - z0
        out = None
        for dz, wz in ((0.0, 1 - fz), (1.0, fz)):
            for dy, wy in ((0.0, 1 - fy), (1.0, fy)):
                for dx, wx in ((0.0, 1 - fx), (1.0, fx)):
                    term = read(x0 + dx, y0 + dy, z0 + dz) * prim("ExpandDims")(wx * wy * wz, 1)
                    out = term if out is None else out + term
    return reshape(out, (n, c) + tuple(g.shape[1:4]))


__all__ = []
