"""Compile-time tables of the resizing ops (ResizeNearestNeighborV2, ResizeBicubic, UpsampleNearest3D,
UpsampleTrilinear3D): for one axis, which input cells each output cell reads and with what weights. They
depend only on the sizes and flags, so they are NumPy constants; the ops apply them to tensors with a
Gather (nearest) or a product with an (out, in) matrix (linear, cubic), and the gradients follow from those.

Two conventions meet here, as in MindSpore, whose CPU kernels come from them:
- TensorFlow's (ResizeNearestNeighborV2, ResizeBicubic): scales and positions in float32; the cubic weights read
  from a 1024-step table of the kernel, so they are quantized exactly as the kernel's are.
- PyTorch's (UpsampleNearest3D, UpsampleTrilinear3D): a scale given by the caller replaces in/out.
"""
import numpy as np

_F32 = np.float32


# ---- TensorFlow's convention ------------------------------------------------------------------------

def _tf_scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return _F32(in_size - 1) / _F32(out_size - 1)
    return _F32(in_size) / _F32(out_size)


def tf_nearest_indices(in_size, out_size, align_corners, half_pixel_centers):
    """Input index of each output cell: round(x * scale) when aligning corners, else floor of x * scale or,
    with half-pixel centers, of (x + 0.5) * scale."""
    scale = _tf_scale(in_size, out_size, align_corners)
    x = np.arange(out_size, dtype=_F32)
    position = (x + _F32(0.5)) * scale if half_pixel_centers else x * scale
    # roundf rounds halves away from zero (positions are >= 0 here).
    index = np.floor(position + _F32(0.5)) if align_corners else np.floor(position)
    return np.clip(index.astype(np.int64), 0, in_size - 1)


_CUBIC_TABLE_SIZE = 1024


def _cubic_table(a):
    """TensorFlow's table: entry 2 i holds the kernel at i / 1024, entry 2 i + 1 at 1 + i / 1024."""
    x = np.arange(_CUBIC_TABLE_SIZE + 1, dtype=np.float64) / _CUBIC_TABLE_SIZE
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    x = x + 1.0
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.stack([near, far], axis=1).astype(_F32)


def tf_cubic_matrix(in_size, out_size, align_corners, half_pixel_centers):
    """(out, in) bicubic weights. Without half-pixel centers: Keys' kernel with a = -0.75 and the four taps
    clamped into the image (edge cells repeated); with them: a = -0.5, taps outside get weight 0 and the rest
    are renormalized to sum to 1."""
    scale = _tf_scale(in_size, out_size, align_corners)
    table = _cubic_table(-0.5 if half_pixel_centers else -0.75)
    matrix = np.zeros((out_size, in_size), np.float64)
    for x in range(out_size):
        position = (_F32(x) + _F32(0.5)) * scale - _F32(0.5) if half_pixel_centers else _F32(x) * scale
        start = int(np.floor(position))
        offset = int(np.rint((position - _F32(start)) * _CUBIC_TABLE_SIZE))
        weights = [table[offset, 1], table[offset, 0], table[_CUBIC_TABLE_SIZE - offset, 0],
                   table[_CUBIC_TABLE_SIZE - offset, 1]]
        taps = [start - 1, start, start + 1, start + 2]
        if half_pixel_centers:
            weights = [wt if 0 <= t < in_size else 0.0 for wt, t in zip(weights, taps)]
            total = sum(weights)
            if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
                weights = [wt / total for wt in weights]
        for wt, t in zip(weights, taps):
            matrix[x, min(max(t, 0), in_size - 1)] += wt
    return matrix


# ---- PyTorch's convention ---------------------------------------------------------------------------

def torch_output_size(api, in_sizes, output_size, scales):
    """The output sizes from exactly one of output_size (3 positive ints) or scales (3 positive floats):
    floor(in * scale)."""
    if (output_size is None) == (scales is None):
        raise ValueError(f"{api}: exactly one of 'output_size' and 'scales' must be given, but got output_size="
                         f"{output_size!r} and scales={scales!r}")
    n = len(in_sizes)
    if output_size is not None:
        if not isinstance(output_size, (tuple, list)) or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in output_size):
            raise TypeError(f"{api}: 'output_size' must be a tuple or list of ints, but got {output_size!r}")
        if len(output_size) != n or min(output_size) <= 0:
            raise ValueError(f"{api}: 'output_size' must be {n} positive ints, but got {output_size!r}")
        return tuple(int(v) for v in output_size)
    if not isinstance(scales, (tuple, list)) or not all(
            isinstance(v, (int, float, np.floating)) and not isinstance(v, bool) for v in scales):
        raise TypeError(f"{api}: 'scales' must be a tuple or list of floats, but got {scales!r}")
    if len(scales) != n or min(scales) <= 0:
        raise ValueError(f"{api}: 'scales' must be {n} positive floats, but got {scales!r}")
    sizes = tuple(int(np.floor(size * float(s))) for size, s in zip(in_sizes, scales))
    if min(sizes) <= 0:
        raise ValueError(f"{api}: 'scales' {tuple(scales)} shrink the input sizes {tuple(in_sizes)} to {sizes}")
    return sizes


def _torch_scale(in_size, out_size, align_corners, scale):
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else in_size / out_size


def torch_nearest_indices(in_size, out_size, scale=None):
    """PyTorch's 'nearest': floor(x * in / out) (or x / scale), at most in - 1."""
    step = _F32(1.0 / scale if scale is not None else in_size / out_size)
    index = np.floor(np.arange(out_size, dtype=_F32) * step).astype(np.int64)
    return np.minimum(index, in_size - 1)


def torch_linear_matrix(in_size, out_size, align_corners, scale=None):
    """(out, in) linear weights: source x * step when aligning corners, else (x + 0.5) * step - 0.5 clamped
    at 0; the neighbour on the right is the same cell at the last one."""
    step = _torch_scale(in_size, out_size, align_corners, scale)
    x = np.arange(out_size, dtype=np.float64)
    source = x * step if align_corners else np.maximum((x + 0.5) * step - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(np.int64), in_size - 1)
    frac = np.clip(source - low, 0.0, 1.0)
    high = np.where(low < in_size - 1, low + 1, low)
    matrix = np.zeros((out_size, in_size), np.float64)
    np.add.at(matrix, (np.arange(out_size), low), 1.0 - frac)
    np.add.at(matrix, (np.arange(out_size), high), frac)
    return matrix
