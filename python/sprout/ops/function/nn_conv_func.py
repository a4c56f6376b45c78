"""Convolution, pooling, normalization and resizing: MindSpore 2.x functional forms (``ops.conv2d``,
``ops.max_pool2d``, ``ops.batch_norm``, ``ops.layer_norm``, ``ops.interpolate`` ...)."""
import math

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._pool_windows import lowest, max_pool_windows, output_sizes
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _ints as _shape_ints
from sprout.ops.function.nn_func import _check_float_arg


def _check_tensor(api, arg, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(value).__name__}")


def _ints(api, arg, value, lengths):
    """An int, or a tuple/list of ints of one of `lengths`, as a tuple."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError(f"{api}: '{arg}' must be an int or a tuple of ints, but got {value!r}")
    values = (value,) if isinstance(value, int) else tuple(value)
    if len(values) not in lengths or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ValueError(f"{api}: '{arg}' must be an int or a tuple of {' or '.join(map(str, lengths))} ints, "
                         f"but got {value!r}")
    return values


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """2-d convolution of an NCHW `input` with an (C_out, C_in / groups, kH, kW) `weight`, plus `bias`.

    `padding` (with pad_mode "pad") is an int, (pad_h, pad_w) or (top, bottom, left, right).
    """
    _check_tensor("conv2d", "input", input)
    _check_tensor("conv2d", "weight", weight)
    if weight.ndim != 4:
        raise ValueError(f"conv2d: 'weight' must be 4-d (C_out, C_in / groups, kH, kW), but got shape {weight.shape}")
    pad = _ints("conv2d", "padding", padding, (1, 2, 4))
    if len(pad) == 2:
        pad = (pad[0], pad[0], pad[1], pad[1])
    out = prim("Conv2D", out_channel=weight.shape[0], kernel_size=tuple(weight.shape[2:]), pad_mode=pad_mode,
               pad=pad, stride=_ints("conv2d", "stride", stride, (1, 2, 4)),
               dilation=_ints("conv2d", "dilation", dilation, (1, 2, 4)), group=groups)(input, weight)
    if bias is not None:
        _check_tensor("conv2d", "bias", bias)
        if bias.shape != (weight.shape[0],):
            raise ValueError(f"conv2d: 'bias' must have shape ({weight.shape[0]},), but got {bias.shape}")
        out = out + bias.reshape(1, -1, 1, 1)
    return out


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """1-d convolution of an (N, C_in, L) `input` with a (C_out, C_in / groups, K) `weight`: Conv2D over a
    height-1 image. `padding` (with pad_mode "pad") is added at both ends."""
    _check_tensor("conv1d", "input", input)
    _check_tensor("conv1d", "weight", weight)
    if input.ndim != 3 or weight.ndim != 3:
        raise ValueError(f"conv1d: 'input' and 'weight' must be 3-d, but got shapes {input.shape} and {weight.shape}")
    one = lambda arg, v: _ints("conv1d", arg, v, (1,))[0]  # noqa: E731
    pad = one("padding", padding)
    out = conv2d(input.reshape(input.shape[0], input.shape[1], 1, input.shape[2]),
                 weight.reshape(weight.shape[0], weight.shape[1], 1, weight.shape[2]), bias, (1, one("stride", stride)),
                 pad_mode, (0, 0, pad, pad), (1, one("dilation", dilation)), groups)
    return out.reshape(out.shape[0], out.shape[1], out.shape[3])


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """3-d convolution of an NCDHW `input` with a (C_out, C_in / groups, kD, kH, kW) `weight`, plus `bias`.

    `padding` (with pad_mode "pad") is an int, (d, h, w) or (head, tail, top, bottom, left, right).
    """
    _check_tensor("conv3d", "input", input)
    _check_tensor("conv3d", "weight", weight)
    if weight.ndim != 5:
        raise ValueError(f"conv3d: 'weight' must be 5-d (C_out, C_in / groups, kD, kH, kW), but got shape {weight.shape}")
    pad = _ints("conv3d", "padding", padding, (1, 3, 6))
    if len(pad) == 3:
        pad = (pad[0], pad[0], pad[1], pad[1], pad[2], pad[2])
    out = prim("Conv3D", out_channel=weight.shape[0], kernel_size=tuple(weight.shape[2:]), pad_mode=pad_mode, pad=pad,
               stride=_ints("conv3d", "stride", stride, (1, 3, 5)), dilation=_ints("conv3d", "dilation", dilation, (1, 3, 5)),
               group=groups)(input, weight)
    if bias is not None:
        _check_tensor("conv3d", "bias", bias)
        if bias.shape != (weight.shape[0],):
            raise ValueError(f"conv3d: 'bias' must have shape ({weight.shape[0]},), but got {bias.shape}")
        out = out + bias.reshape(1, -1, 1, 1, 1)
    return out


def _pool_window(api, arg, x, kernel_size, stride):
    """(kernel, strides) of a 2-d pool of the NCHW `x`, checked: every window and step at least 1."""
    if x.ndim != 4:
        raise ValueError(f"{api}: '{arg}' must be 4-d (N, C, H, W), but got shape {x.shape}")
    kernel = _ints(api, "kernel_size", kernel_size, (1, 2))
    strides = kernel if stride is None else _ints(api, "stride", stride, (1, 2))
    for name, values in (("kernel_size", kernel), ("stride", strides)):
        if min(values) < 1:
            raise ValueError(f"{api}: '{name}' must be positive, but got {values if len(values) > 1 else values[0]}")
    return kernel, strides


def _check_bool(api, arg, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {value!r}")


def _pool_pairs(api, padding, dilation):
    """(padding, dilation) of a 2-d max pool as pairs: padding >= 0, dilation >= 1."""
    pair = lambda v: tuple(v) * 2 if len(v) == 1 else tuple(v)  # noqa: E731
    pads, dilations = pair(_ints(api, "padding", padding, (1, 2))), pair(_ints(api, "dilation", dilation, (1, 2)))
    if min(pads) < 0:
        raise ValueError(f"{api}: 'padding' must be >= 0, but got {padding!r}")
    if min(dilations) < 1:
        raise ValueError(f"{api}: 'dilation' must be >= 1, but got {dilation!r}")
    return pads, dilations


def _pool_padding(api, x, kernel, strides, padding, ceil_mode):
    """Per spatial axis (before, after, extra): the explicit padding and, with ceil_mode, the extra cells
    after it that let a last partial window exist (PyTorch's rule: a window must start inside the input
    or its left padding)."""
    pair = lambda v: tuple(v) * 2 if len(v) == 1 else tuple(v)  # noqa: E731
    kernel, pad = pair(kernel), pair(_ints(api, "padding", padding, (1, 2)))
    for k, p in zip(kernel, pad):
        if p < 0:
            raise ValueError(f"{api}: 'padding' must be between 0 and half the kernel size ({k}), but got {p}")
    sizes = output_sizes(api, x.shape[2:4], kernel, pair(strides), pad, (1, 1), ceil_mode)
    # output_sizes pads `after` cells past the input; beyond the padding p those are the extra cells.
    return [(p, p, max(after - p, 0)) for p, (_, after) in zip(pad, sizes)]


def _pad_spatial(x, pads, value, extra_value):
    """x padded by `pads` [(before, after, extra)] on its last two axes: `value` in the padding, then
    `extra_value` in the extra cells."""
    from sprout.ops.function.array_func import pad
    (t, b, eh), (l, r, ew) = pads
    if t or b or l or r:
        x = pad(x, (l, r, t, b), value=value)
    if eh or ew:
        x = pad(x, (0, ew, 0, eh), value=extra_value)
    return x


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    """2-d max pooling of an NCHW `x`; `stride` defaults to `kernel_size`. `padding` pads with -inf;
    `dilation` spaces a window's cells; `ceil_mode` keeps a last partial window. With `return_indices`,
    also each maximum's flat index in its H * W input plane (int64, the first maximum on ties)."""
    return _max_pool2d("max_pool2d", x, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def _max_pool2d(api, x, kernel_size, stride, padding, dilation, return_indices, ceil_mode):
    """max_pool2d, its errors naming `api` (max_pool1d pools (N, C, 1, L) here)."""
    _check_tensor(api, "x", x)
    _check_bool(api, "return_indices", return_indices)
    _check_bool(api, "ceil_mode", ceil_mode)
    kernel, strides = _pool_window(api, "x", x, kernel_size, stride)
    pads, dilations = _pool_pairs(api, padding, dilation)
    if return_indices or dilations != (1, 1):  # MaxPool has neither (Note [Max pooling with argmax])
        y, indices = _max_pool2d_with_argmax(api, x, kernel, strides, pads, dilations, ceil_mode, mstype.int64)
        return (y, indices) if return_indices else y
    (t, b, eh), (l, r, ew) = _pool_padding(api, x, kernel, strides, padding, ceil_mode)
    if not (t or b or eh or l or r or ew):
        return prim("MaxPool", kernel_size=kernel, strides=strides)(x)
    return prim("MaxPool", kernel_size=kernel, strides=strides, pad_mode="pad", pad_list=(t, b + eh, l, r + ew))(x)


def _max_pool2d_with_argmax(api, x, kernel, strides, pads, dilations, ceil_mode, argmax_type):
    """(values, argmax) of a 2-d max pool: the MaxPoolWithArgmaxV2 primitive for floating-point x, the
    gathered windows of Note [Max pooling indices] for integers (which the primitive does not take)."""
    pair = lambda v: tuple(v) * 2 if len(v) == 1 else tuple(v)  # noqa: E731
    kernel, strides = pair(kernel), pair(strides)
    if not mstype.is_floating_type(x.dtype):
        y, indices = max_pool_windows(api, x, kernel, strides, pads, dilations, ceil_mode)
        return y, indices.astype(argmax_type)
    output_sizes(api, x.shape[2:4], kernel, strides, pads, dilations, ceil_mode)  # its errors name `api`
    return prim("MaxPoolWithArgmaxV2", kernel_size=kernel, strides=strides, pads=pads, dilation=dilations,
                ceil_mode=ceil_mode, argmax_type=argmax_type)(x)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """2-d average pooling of an NCHW `input_x`. Padded cells count in the divisor when
    `count_include_pad`; cells added by `ceil_mode` never do; `divisor_override` replaces the divisor."""
    _check_tensor("avg_pool2d", "input_x", input_x)
    if divisor_override is not None and (not isinstance(divisor_override, int) or divisor_override <= 0):
        raise ValueError(f"avg_pool2d: 'divisor_override' must be a positive int, but got {divisor_override!r}")
    kernel, strides = _pool_window("avg_pool2d", "input_x", input_x, kernel_size, stride)
    pads = _pool_padding("avg_pool2d", input_x, kernel, strides, padding, ceil_mode)
    avg = prim("AvgPool", kernel_size=kernel, strides=strides)
    plain = not any(p[2] for p in pads) and count_include_pad and divisor_override is None
    x = _pad_spatial(input_x, pads, 0.0, 0.0) if any(any(p) for p in pads) else input_x
    if plain:
        return avg(x)
    window = kernel[0] * kernel[-1]
    sums = avg(x) * window
    if divisor_override is not None:
        return sums / divisor_override
    h, w = input_x.shape[2], input_x.shape[3]
    ones = np.ones((1, 1, h, w), mstype.dtype_to_nptype(input_x.dtype))
    (t, _, eh), (l, _, ew) = pads
    mask = np.pad(ones, ((0, 0), (0, 0), (t, t), (l, l)), constant_values=1.0 if count_include_pad else 0.0)
    mask = np.pad(mask, ((0, 0), (0, 0), (0, eh), (0, ew)))
    counts = avg(Tensor(mask)) * window
    return sums / counts


def adaptive_avg_pool2d(input, output_size):
    """Average pooling of a (C, H, W) or (N, C, H, W) `input` to `output_size` (an int or (H, W); None keeps
    that input dimension)."""
    _check_tensor("adaptive_avg_pool2d", "input", input)
    sizes = (output_size,) * 2 if output_size is None or isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2 or not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in sizes):
        raise TypeError(f"adaptive_avg_pool2d: 'output_size' must be an int, None or a tuple of 2 ints or None, "
                        f"but got {output_size!r}")
    return prim("AdaptiveAvgPool2D", output_size=tuple(-1 if v is None else v for v in sizes))(input)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling of a (C, H, W) or (N, C, H, W) `input` to `output_size` (an int or (H, W); None keeps
    that input dimension); with `return_indices`, also each maximum's flat index within its plane."""
    _check_tensor("adaptive_max_pool2d", "input", input)
    sizes = (output_size,) * 2 if output_size is None or isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2 or not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in sizes):
        raise TypeError(f"adaptive_max_pool2d: 'output_size' must be an int, None or a tuple of 2 ints or None, "
                        f"but got {output_size!r}")
    y, argmax = prim("AdaptiveMaxPool2D", output_size=tuple(-1 if v is None else v for v in sizes))(input)
    return (y, argmax) if return_indices else y


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    """Batch normalization over the channels (axis 1) of `input_x`.

    In training the batch's statistics normalize, and `running_mean`/`running_var` are updated in place:
    new = (1 - momentum) * running + momentum * batch.
    """
    for arg, value in (("input_x", input_x), ("running_mean", running_mean), ("running_var", running_var),
                       ("weight", weight), ("bias", bias)):
        _check_tensor("batch_norm", arg, value)
    op = prim("BatchNorm", is_training=bool(training), epsilon=_check_float_arg("batch_norm", "eps", eps),
              momentum=_check_float_arg("batch_norm", "momentum", momentum))
    return op(input_x, weight, bias, running_mean, running_var)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalization over the trailing `normalized_shape` axes of `input`; weight/bias default to 1/0."""
    _check_tensor("layer_norm", "input", input)
    shape = _shape_ints(normalized_shape, "layer_norm", "normalized_shape")
    eps = _check_float_arg("layer_norm", "eps", eps)
    if len(shape) == 0 or len(shape) > input.ndim or tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise ValueError(f"layer_norm: 'normalized_shape' {shape} must be the trailing dimensions of 'input' of "
                         f"shape {input.shape}")
    if weight is None:
        weight = Tensor(np.ones(shape), input.dtype)
    if bias is None:
        bias = Tensor(np.zeros(shape), input.dtype)
    axis = input.ndim - len(shape)
    return prim("LayerNorm", begin_norm_axis=axis, begin_params_axis=axis, epsilon=eps)(input, weight, bias)[0]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Group normalization of an (N, C, *) `input`: each sample's channels in `num_groups` groups, each
    group normalized over its channels and spatial positions, then scaled and shifted per channel (the
    GroupNorm primitive; Note [GroupNorm kernels])."""
    _check_tensor("group_norm", "input", input)
    if input.ndim < 2:
        raise ValueError(f"group_norm: 'input' must be (N, C, *), but got shape {input.shape}")
    c = input.shape[1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ValueError(f"group_norm: 'num_groups' must be a positive int dividing the {c} channels, "
                         f"but got {num_groups!r}")
    eps = _check_float_arg("group_norm", "eps", eps)
    for arg, value in (("weight", weight), ("bias", bias)):
        if value is not None:
            _check_tensor("group_norm", arg, value)
    dtype = input.dtype  # mixed dtypes (float16 data, float32 parameters) compute in the promoted one
    for value in (weight, bias):
        dtype = dtype if value is None else _C.promote_types(dtype, value.dtype)
    weight = Tensor(np.ones(c), dtype) if weight is None else weight.astype(dtype, copy=False)
    bias = Tensor(np.zeros(c), dtype) if bias is None else bias.astype(dtype, copy=False)
    return prim("GroupNorm", num_groups=num_groups, epsilon=eps)(input.astype(dtype, copy=False), weight, bias)[0]


_INTERPOLATE_MODES = {3: ("nearest", "linear", "area"), 4: ("nearest", "bilinear", "area"),
                      5: ("nearest", "trilinear", "area")}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
    """Resizes the (N, C, L), (N, C, H, W) or (N, C, D, H, W) `input` to `size`, or by `scale_factor` (output =
    floor(in * factor)).

    modes 'linear' / 'bilinear' / 'trilinear' (by the input's rank): align_corners=True maps the corner pixels
    onto each other, else pixel centers are aligned (half-pixel sampling). 'nearest': the pixel at
    floor(o * in / out). 'area': adaptive average pooling. A 3-d input is resized as one-row images; a 5-d one
    through the 3-d upsampling ops (three 1-d resizes).
    """
    _check_tensor("interpolate", "input", input)
    if input.ndim not in _INTERPOLATE_MODES:
        raise ValueError(f"interpolate: 'input' must be 3-d (N, C, L), 4-d (N, C, H, W) or 5-d (N, C, D, H, W), but "
                         f"got shape {input.shape}")
    spatial = input.ndim - 2
    if mode not in _INTERPOLATE_MODES[input.ndim]:
        raise ValueError(f"interpolate: 'mode' must be one of {_INTERPOLATE_MODES[input.ndim]} for {input.ndim}-d "
                         f"input, but got {mode!r}")
    if (size is None) == (scale_factor is None):
        raise ValueError("interpolate: exactly one of 'size' and 'scale_factor' must be given")
    if mode in ("nearest", "area") and align_corners:
        raise ValueError(f"interpolate: 'align_corners' does not apply to mode {mode!r}")
    if size is not None:
        out = _ints("interpolate", "size", size, (1, spatial))
    else:
        factors = (scale_factor,) * spatial if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        if len(factors) != spatial or not all(isinstance(f, (int, float)) and f > 0 for f in factors):
            raise ValueError(f"interpolate: 'scale_factor' must be a positive number or {spatial} of them, but got "
                             f"{scale_factor!r}")
        out = tuple(int(math.floor(d * f)) for d, f in zip(input.shape[2:], factors))
        if min(out) <= 0:
            raise ValueError(f"interpolate: 'scale_factor' {scale_factor!r} turns the size {input.shape[2:]} into "
                             f"{out}; the output would be empty")
    out = out * spatial if len(out) == 1 else out
    corners = bool(align_corners)
    if spatial == 1:  # one-row images
        image = input.reshape(input.shape[:2] + (1, input.shape[2]))
        resized = interpolate(image, (1, out[0]), None, "bilinear" if mode == "linear" else mode, align_corners)
        return resized.reshape(input.shape[:2] + (out[0],))
    if spatial == 3:
        from sprout.ops.function import nn_pool3d_more_func, nn_resize_more_func
        if mode == "nearest":
            return nn_resize_more_func.upsample_nearest3d(input, out)
        if mode == "area":
            return nn_pool3d_more_func.adaptive_avg_pool3d(input, out)
        return nn_resize_more_func.upsample_trilinear3d(input, out, align_corners=corners)
    if mode == "nearest":
        return prim("ResizeNearestNeighbor", size=out)(input)
    if mode == "area":
        return prim("AdaptiveAvgPool2D", output_size=out)(input)
    return prim("ResizeBilinearV2", align_corners=corners, half_pixel_centers=not corners)(input, out)


__all__ = ["conv1d", "conv2d", "conv3d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d",
           "batch_norm", "layer_norm", "group_norm", "interpolate"]
