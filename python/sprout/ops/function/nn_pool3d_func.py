"""3-d max pooling (``ops.max_pool3d``, MindSpore 2.x arguments) of (N, C, D, H, W) inputs."""
from sprout.ops.function._pool_windows import lowest, max_pool_windows, output_sizes
from sprout.ops.function.array_func import pad, reshape, transpose
from sprout.ops.function.nn_conv_func import _check_bool, _check_tensor, _ints
from sprout.ops.function.nn_conv_func import max_pool2d


def _triple(api, arg, value, minimum):
    values = _ints(api, arg, value, (1, 3))
    values = values * 3 if len(values) == 1 else values
    if min(values) < minimum:
        raise ValueError(f"{api}: '{arg}' must be >= {minimum}, but got {value!r}")
    return values


def _separable_max(x, kernel, stride):
    """Max pooling of an explicitly padded x without dilation: height and width by the MaxPool primitive
    (the depth folded into the channels), then the depth (height and width folded into the channels),
    as Note [Separable 3-D pooling] says; faster than gathering every window."""
    n, c, depth, height, width = x.shape
    y = max_pool2d(reshape(x, (n, c * depth, height, width)), kernel[1:], stride[1:])
    h, w = y.shape[-2:]
    y = reshape(transpose(reshape(y, (n, c, depth, h * w)), (0, 1, 3, 2)), (n, c * h * w, 1, depth))
    y = max_pool2d(y, (1, kernel[0]), (1, stride[0]))
    return transpose(reshape(y, (n, c, h, w, y.shape[-1])), (0, 1, 4, 2, 3))


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """3-d max pooling of an (N, C, D, H, W) `x`; `kernel_size`, `stride` (default: `kernel_size`),
    `padding` (with -inf) and `dilation` are ints or (d, h, w); `ceil_mode` keeps a last partial window.
    With `return_indices`, also each maximum's flat index in its D * H * W input volume (int64, the
    first maximum on ties). Note MindSpore's order here: ceil_mode before return_indices."""
    api = "max_pool3d"
    _check_tensor(api, "x", x)
    if x.ndim != 5:
        raise ValueError(f"{api}: 'x' must be 5-d (N, C, D, H, W), but got shape {x.shape}")
    _check_bool(api, "ceil_mode", ceil_mode)
    _check_bool(api, "return_indices", return_indices)
    kernel = _triple(api, "kernel_size", kernel_size, 1)
    strides = kernel if stride is None else _triple(api, "stride", stride, 1)
    pads = _triple(api, "padding", padding, 0)
    dilations = _triple(api, "dilation", dilation, 1)
    if return_indices or dilations != (1, 1, 1):
        y, indices = max_pool_windows(api, x, kernel, strides, pads, dilations, ceil_mode)
        return (y, indices) if return_indices else y
    sizes = output_sizes(api, x.shape[2:], kernel, strides, pads, dilations, ceil_mode)
    widths = []
    for p, (_, after) in reversed(list(zip(pads, sizes))):  # ops.pad lists the last axis first
        widths += [p, after]
    if any(widths):
        x = pad(x, tuple(widths), value=lowest(x.dtype))
    return _separable_max(x, kernel, strides)


__all__ = ["max_pool3d"]
