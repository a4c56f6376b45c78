"""Fractional max pooling (``ops.fractional_max_pool2d``, ``ops.fractional_max_pool3d``, MindSpore 2.x
arguments, Graham's "Fractional Max-Pooling").

Note [Fractional pooling windows]
Along an axis of n cells pooled by windows of k into o outputs, a sample u in [0, 1) of each (sample,
channel) places window i at floor((i + u) * alpha) - floor(u * alpha) with alpha = (n - k) / (o - 1), the
last one at n - k (MindSpore's and PyTorch's rule, computed in the input's float type as their kernels do).
The starts depend on u, a tensor, so they are tensor arithmetic; the windows' flat positions in each
(sample, channel) plane are then gathered (GatherElements) and Argmax picks the first maximum, whose flat
position is the index returned; the gradient reaches that cell through GatherElements. The samples are
ordered as the kernels read them: (width, height) in 2-d, (depth, height, width) in 3-d.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import expand_dims, gather_elements, reshape, squeeze
from sprout.ops.function.nn_conv_func import _check_bool, _check_tensor, _ints
from sprout.ops.function.random_func import rand

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _sizes(api, arg, value, nd):
    values = _ints(api, arg, value, (1, nd))
    values = values * nd if len(values) == 1 else values
    if min(values) < 1:
        raise ValueError(f"{api}: '{arg}' must be positive, but got {value!r}")
    return values


def _output_sizes(api, spatial, kernel, output_size, output_ratio):
    nd = len(spatial)
    if (output_size is None) == (output_ratio is None):
        raise ValueError(f"{api}: exactly one of 'output_size' and 'output_ratio' must be given, but got "
                         f"output_size={output_size!r} and output_ratio={output_ratio!r}")
    if output_size is not None:
        outs = _sizes(api, "output_size", output_size, nd)
    else:
        ratios = (output_ratio,) * nd if isinstance(output_ratio, (int, float)) else output_ratio
        if (not isinstance(ratios, (tuple, list)) or len(ratios) not in (1, nd) or
                not all(isinstance(r, (int, float)) and not isinstance(r, bool) and 0 < r < 1 for r in ratios)):
            raise ValueError(f"{api}: 'output_ratio' must be a number in (0, 1) or a tuple of {nd} of them, but "
                             f"got {output_ratio!r}")
        ratios = tuple(ratios) * nd if len(ratios) == 1 else tuple(ratios)
        outs = tuple(int(n * r) for n, r in zip(spatial, ratios))
    for n, k, o in zip(spatial, kernel, outs):
        if o < 1 or o + k - 1 > n:
            raise ValueError(f"{api}: an output of {outs} with windows of {kernel} needs an input of at least "
                             f"output + kernel - 1 cells per axis, but got spatial size {spatial}")
    return outs


def _starts(u, n, k, o, dtype):
    """(N, C, o) int64: the window starts of Note [Fractional pooling windows] for samples u of shape (N, C)."""
    last = Tensor(np.full(tuple(u.shape) + (1,), n - k, np.int64))
    if o == 1:
        return last
    alpha = float(np.array(n - k, dtype) / np.array(o - 1, dtype))
    steps = Tensor(np.arange(o - 1, dtype=dtype).reshape(1, 1, -1))
    u = expand_dims(u, 2)
    floor = prim("Floor")
    first = (floor((u + steps) * alpha) - floor(u * alpha)).astype(mstype.int64)
    return prim("Concat", axis=2)((first, last))


def _fractional_max_pool(api, nd, input, kernel_size, output_size, output_ratio, return_indices, samples):
    _check_tensor(api, "input", input)
    _check_bool(api, "return_indices", return_indices)
    if input.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"{api}: 'input' must be {nd + 2}-d (N, C, *spatial) or {nd + 1}-d (C, *spatial), but got "
                         f"shape {input.shape}")
    if input.dtype not in _FLOATS:
        raise TypeError(f"{api}: 'input' must be float16, float32 or float64, but got {input.dtype}")
    added = input.ndim == nd + 1
    x = expand_dims(input, 0) if added else input
    n, c = x.shape[:2]
    spatial = tuple(x.shape[2:])
    kernel = _sizes(api, "kernel_size", kernel_size, nd)
    outs = _output_sizes(api, spatial, kernel, output_size, output_ratio)
    if samples is None:
        samples = rand(n, c, nd, dtype=x.dtype)
    else:
        _check_tensor(api, "_random_samples", samples)
        if tuple(samples.shape) != (n, c, nd):
            raise ValueError(f"{api}: '_random_samples' must have shape (N, C, {nd}) = {(n, c, nd)}, but got "
                             f"{samples.shape}")
    np_dtype = np.float64 if x.dtype == mstype.float64 else np.float32
    samples = samples.astype(mstype.float64 if x.dtype == mstype.float64 else mstype.float32)
    order = (1, 0) if nd == 2 else (0, 1, 2)  # which sample each spatial axis reads (the kernels' order)
    flat = None
    for axis in range(nd):
        pos = expand_dims(_starts(samples[:, :, order[axis]], spatial[axis], kernel[axis], outs[axis], np_dtype), 3)
        pos = pos + Tensor(np.arange(kernel[axis], dtype=np.int64).reshape(1, 1, 1, -1))  # (N, C, o, k)
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + axis], shape[2 + nd + axis] = outs[axis], kernel[axis]
        term = reshape(pos * int(np.prod(spatial[axis + 1:], dtype=np.int64)), tuple(shape))
        flat = term if flat is None else flat + term
    cells, places = int(np.prod(outs)), int(np.prod(kernel))
    flat = reshape(flat, (n, c, cells * places))
    windows = reshape(gather_elements(reshape(x, (n, c, -1)), 2, flat), (n, c, cells, places))
    place = expand_dims(prim("Argmax", axis=3, output_type=mstype.int64)(windows), 3)
    values = reshape(squeeze(gather_elements(windows, 3, place), 3), (n, c) + outs)
    if not return_indices:
        return squeeze(values, 0) if added else values
    indices = reshape(squeeze(gather_elements(reshape(flat, (n, c, cells, places)), 3, place), 3), (n, c) + outs)
    return (squeeze(values, 0), squeeze(indices, 0)) if added else (values, indices)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Fractional max pooling of an (N, C, H, W) or (C, H, W) `input` by windows of `kernel_size` (an int or
    (kH, kW)) to `output_size` (an int or (oH, oW)) or `output_ratio` (of the input size, in (0, 1)), the
    windows placed pseudo-randomly by `_random_samples` ((N, C, 2) in [0, 1), drawn when None; Note
    [Fractional pooling windows]). With `return_indices`, also each maximum's flat index in its H * W plane
    (int64)."""
    return _fractional_max_pool("fractional_max_pool2d", 2, input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) `input`: as fractional_max_pool2d over
    three axes, `_random_samples` of shape (N, C, 3); indices flat in each D * H * W volume."""
    return _fractional_max_pool("fractional_max_pool3d", 3, input, kernel_size, output_size, output_ratio,
                                return_indices, _random_samples)


__all__ = ["fractional_max_pool2d", "fractional_max_pool3d"]
