"""ops.conv3d_transpose (MindSpore 2.x): the transposed 3-d convolution, as the registry's Conv3DBackpropInput
(the gradient of Conv3D with respect to its input) given the output's size, which the arguments fix."""
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor


def _triple(api, arg, value, minimum):
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    if not (isinstance(value, (tuple, list)) and len(value) == 3 and
            all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{api}: '{arg}' must be an int or a tuple of 3 ints, but got {value!r}")
    if min(value) < minimum:
        raise ValueError(f"{api}: '{arg}' must be at least {minimum}, but got {value!r}")
    return tuple(value)


def _pads(api, pad_mode, padding):
    """The six paddings (before and after along depth, height, width); non-zero only with pad_mode 'pad'."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads = (padding,) * 6
    elif isinstance(padding, (tuple, list)) and len(padding) in (3, 6) and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in padding):
        pads = tuple(padding) if len(padding) == 6 else tuple(p for p in padding for _ in range(2))
    else:
        raise TypeError(f"{api}: 'padding' must be an int or a tuple of 3 or 6 ints, but got {padding!r}")
    if min(pads) < 0:
        raise ValueError(f"{api}: 'padding' must be >= 0, but got {padding!r}")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"{api}: 'padding' must be 0 unless pad_mode is 'pad', but got {padding!r} with pad_mode "
                         f"{pad_mode!r}")
    return pads


def transposed_conv3d(api, x, weight, pad_mode, pads, stride, dilation, group, output_padding):
    """The shared body of ops.conv3d_transpose and ops.Conv3DTranspose (arguments already checked)."""
    if x.ndim != 5 or weight.ndim != 5:
        raise ValueError(f"{api}: the input and the weight must be 5-d, but got shapes {x.shape} and {weight.shape}")
    if x.shape[1] != weight.shape[0]:
        raise ValueError(f"{api}: the weight's first axis ({weight.shape[0]}) must be the input's channels "
                         f"({x.shape[1]})")
    if x.dtype != weight.dtype:
        raise TypeError(f"{api}: the input and the weight must share a dtype, but got {x.dtype} and {weight.dtype}")
    kernel = tuple(weight.shape[2:])
    sizes = []
    for a in range(3):
        if pad_mode == "same":
            sizes.append(x.shape[2 + a] * stride[a] + output_padding[a])
        else:
            sizes.append((x.shape[2 + a] - 1) * stride[a] + dilation[a] * (kernel[a] - 1) + 1 -
                         pads[2 * a] - pads[2 * a + 1] + output_padding[a])
    if min(sizes) < 1:
        raise ValueError(f"{api}: the paddings {pads} leave an empty output for the input {x.shape}")
    out_channels = weight.shape[1] * group
    backprop = prim("Conv3DBackpropInput", out_channel=x.shape[1], kernel_size=kernel, pad_mode=pad_mode, pad=pads,
                    stride=stride, dilation=dilation, group=group)
    return backprop(weight, x, (x.shape[0], out_channels) + tuple(sizes))


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0):
    """Transposed 3-d convolution of inputs (N, C_in, D, H, W) with weight (C_in, C_out / group, kd, kh, kw):
    (N, C_out, D_out, H_out, W_out), D_out = (D - 1) * stride - pads + dilation * (kd - 1) + output_padding + 1
    ('valid', 'pad') or D * stride ('same')."""
    api = "conv3d_transpose"
    x, w = _tensor(inputs, api, "inputs"), _tensor(weight, api, "weight")
    if pad_mode not in ("same", "valid", "pad"):
        raise ValueError(f"{api}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")
    pads = _pads(api, pad_mode, padding)
    stride, dilation = _triple(api, "stride", stride, 1), _triple(api, "dilation", dilation, 1)
    output_padding = _triple(api, "output_padding", output_padding, 0)
    group = _int(group, api, "group")
    if group < 1 or x.ndim == 5 and x.shape[1] % group:
        raise ValueError(f"{api}: 'group' must be a positive divisor of the input's channels, but got {group}")
    if any(p >= max(s, d) for p, s, d in zip(output_padding, stride, dilation)):
        raise ValueError(f"{api}: 'output_padding' {output_padding} must be smaller than the stride or the dilation")
    return transposed_conv3d(api, x, w, pad_mode, pads, stride, dilation, group, output_padding)


__all__ = ["conv3d_transpose"]
