"""mint.nn.functional's layer functions: linear, convolutions, pooling, normalization, dropout, embedding,
padding and resampling, with PyTorch's arguments (`padding` as numbers or 'same'/'valid', `stride` defaulting
to the kernel size, batch_norm's `momentum` weighting the new statistics)."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor_inplace import _write
from sprout.mint._checks import check_bool, check_int, check_number, is_int, tensor
from sprout.mint._checks import tensor as _as_tensor
from sprout.ops import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, fold, grid_sample,  # noqa
                        pixel_shuffle, unfold)

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_norm", "conv1d", "conv2d",
           "conv3d", "conv_transpose2d", "dropout", "dropout2d", "embedding", "flatten", "fold", "grid_sample",
           "group_norm", "interpolate", "layer_norm", "linear", "max_pool2d", "max_unpool2d", "normalize",
           "one_hot", "pad", "pixel_shuffle", "unfold", "upsample"]

_F = "mint.nn.functional."


def _tuple(api, arg, value, n):
    if is_int(value):
        return (int(value),) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(is_int(v) for v in value):
        return tuple(int(v) for v in value)
    raise TypeError(f"{api}: '{arg}' must be an int or a tuple of {n} ints, but got {value!r}")


def linear(input, weight, bias=None):
    """input @ weight^T + bias; weight (out_features, in_features)."""
    x, w = tensor(input, _F + "linear"), tensor(weight, _F + "linear", "weight")
    if w.ndim not in (1, 2) or x.shape[-1:] != w.shape[-1:]:
        raise ValueError(f"{_F}linear: 'weight' must be (out_features, in_features) with in_features = "
                         f"input.shape[-1], but got input {x.shape} and weight {w.shape}")
    return ops.dense(x, w, bias)


def _conv(op, n, api, input, weight, bias, stride, padding, dilation, groups):
    x, w = tensor(input, api), tensor(weight, api, "weight")
    if x.ndim not in (n + 1, n + 2):
        raise ValueError(f"{api}: 'input' must be {n + 2}-d (N, C, ...) or {n + 1}-d (C, ...), but got {x.shape}")
    unbatched = x.ndim == n + 1
    if unbatched:
        x = ops.unsqueeze(x, 0)
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"{api}: 'padding' must be 'same', 'valid', an int or a tuple, but got {padding!r}")
        pad_mode, pad = padding, 0
    else:
        pad_mode, pad = "pad", _tuple(api, "padding", padding, n)
        pad = pad if n == 1 else tuple(p for p in pad for _ in (0, 1))  # (before, after) per dimension
    out = op(x, w, None, _tuple(api, "stride", stride, n), pad_mode, pad if n > 1 else pad[0],
             _tuple(api, "dilation", dilation, n), check_int(groups, api, "groups"))
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, (1, -1) + (1,) * n))
    return ops.squeeze(out, 0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution of (N, C_in, L) input with (C_out, C_in / groups, K) weights."""
    return _conv(lambda x, w, b, s, m, p, d, g: ops.conv1d(x, w, b, s[0], m, p, d[0], g), 1, _F + "conv1d",
                 input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution of (N, C_in, H, W) input with (C_out, C_in / groups, kH, kW) weights."""
    return _conv(ops.conv2d, 2, _F + "conv2d", input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d convolution of (N, C_in, D, H, W) input with (C_out, C_in / groups, kD, kH, kW) weights."""
    return _conv(ops.conv3d, 3, _F + "conv3d", input, weight, bias, stride, padding, dilation, groups)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 2-d convolution (the gradient of conv2d with respect to its input); weight
    (C_in, C_out / groups, kH, kW); output (H - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1."""
    api = _F + "conv_transpose2d"
    x, w = tensor(input, api), tensor(weight, api, "weight")
    unbatched = x.ndim == 3
    if unbatched:
        x = ops.unsqueeze(x, 0)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"{api}: 'input' must be (N, C_in, H, W) and 'weight' (C_in, C_out / groups, kH, kW), "
                         f"but got {x.shape} and {w.shape}")
    s, p = _tuple(api, "stride", stride, 2), _tuple(api, "padding", padding, 2)
    op_, d = _tuple(api, "output_padding", output_padding, 2), _tuple(api, "dilation", dilation, 2)
    g = check_int(groups, api, "groups")
    k = w.shape[2:]
    size = tuple((x.shape[2 + i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op_[i] + 1 for i in range(2))
    prim = ops.Conv2DTranspose(out_channel=w.shape[0], kernel_size=k, pad_mode="pad",
                               pad=(p[0], p[0], p[1], p[1]), stride=s, dilation=d, group=g)
    out = prim(x, w, (x.shape[0], w.shape[1] * g) + size)
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, (1, -1, 1, 1)))
    return ops.squeeze(out, 0) if unbatched else out


def _stride(api, stride, kernel_size, n):
    return _tuple(api, "kernel_size", kernel_size, n) if stride is None or stride == () or stride == [] else \
        _tuple(api, "stride", stride, n)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Averages over windows of `kernel_size` along the last dimension of (N, C, L) input."""
    api = _F + "avg_pool1d"
    return ops.avg_pool1d(tensor(input, api), _tuple(api, "kernel_size", kernel_size, 1)[0],
                          _stride(api, stride, kernel_size, 1)[0], _tuple(api, "padding", padding, 1)[0],
                          ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Averages over kH x kW windows of (N, C, H, W) input."""
    api = _F + "avg_pool2d"
    return ops.avg_pool2d(tensor(input, api), _tuple(api, "kernel_size", kernel_size, 2),
                          _stride(api, stride, kernel_size, 2), _tuple(api, "padding", padding, 2), ceil_mode,
                          count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Averages over kD x kH x kW windows of (N, C, D, H, W) input."""
    api = _F + "avg_pool3d"
    return ops.avg_pool3d(tensor(input, api), _tuple(api, "kernel_size", kernel_size, 3),
                          _stride(api, stride, kernel_size, 3), _tuple(api, "padding", padding, 3), ceil_mode,
                          count_include_pad, 0 if divisor_override is None else divisor_override)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Maxima over kH x kW windows of (N, C, H, W) input; with `return_indices` also their flat int64 positions
    within each plane."""
    api = _F + "max_pool2d"
    out = ops.max_pool2d(tensor(input, api), _tuple(api, "kernel_size", kernel_size, 2),
                         _stride(api, stride, kernel_size, 2), _tuple(api, "padding", padding, 2),
                         _tuple(api, "dilation", dilation, 2), return_indices, ceil_mode)
    return (out[0], ops.cast(out[1], mstype.int64)) if return_indices \
        else out


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d: each value placed at its index, zeros elsewhere."""
    api = _F + "max_unpool2d"
    return ops.max_unpool2d(tensor(input, api), tensor(indices, api, "indices"),
                            _tuple(api, "kernel_size", kernel_size, 2), _stride(api, stride, kernel_size, 2),
                            _tuple(api, "padding", padding, 2), output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Maxima over `output_size` adaptive windows of the last dimension; with `return_indices` their positions."""
    api = _F + "adaptive_max_pool1d"
    x = tensor(input, api)
    out = ops.adaptive_max_pool2d(ops.unsqueeze(x, -2), (1, check_int(output_size, api, "output_size")), True)
    values, indices = ops.squeeze(out[0], -2), ops.squeeze(out[1], -2)
    return (values, indices) if check_bool(return_indices, api, "return_indices") else values


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maxima over adaptive windows giving an `output_size` (oH, oW) plane; with `return_indices` positions."""
    return ops.adaptive_max_pool2d(tensor(input, _F + "adaptive_max_pool2d"), output_size, return_indices)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """Normalizes each channel (dimension 1) by the batch's statistics (training) or by the running ones.
    Training updates running_mean and running_var (when given) in place as (1 - momentum) * running +
    momentum * batch, with the batch's unbiased variance (PyTorch's rule; ops.batch_norm keeps the biased one)."""
    api = _F + "batch_norm"
    x = tensor(input, api)
    if x.ndim < 2:
        raise ValueError(f"{api}: 'input' must be (N, C, ...), but got shape {x.shape}")
    c = x.shape[1]
    momentum = float(check_number(momentum, api, "momentum"))
    eps = float(check_number(eps, api, "eps"))
    if not check_bool(training, api, "training"):
        return ops.batch_norm(x, running_mean, running_var, ops.ones((c,), x.dtype) if weight is None else weight,
                              ops.zeros((c,), x.dtype) if bias is None else bias, False, momentum, eps)
    from sprout.mint._products import batch_norm_elemt
    axes = (0,) + tuple(range(2, x.ndim))
    mean = ops.mean(x, axes)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    var = ops.mean(ops.square(ops.sub(x, ops.reshape(mean, shape))), axes)
    count = x.size // c
    if count <= 1:
        raise ValueError(f"{api}: training needs more than one value per channel, but got input shape {x.shape}")
    if running_mean is not None:
        _write(api, running_mean, ops.add(ops.mul(running_mean, 1 - momentum), ops.mul(mean, momentum)))
    if running_var is not None:
        unbiased = ops.mul(var, count / (count - 1))
        _write(api, running_var, ops.add(ops.mul(running_var, 1 - momentum), ops.mul(unbiased, momentum)))
    return batch_norm_elemt(x, weight, bias, mean, ops.rsqrt(ops.add(var, eps)))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """Normalizes over the last dimensions (`normalized_shape`), then scales and shifts."""
    return ops.layer_norm(tensor(input, _F + "layer_norm"), normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalizes each of `num_groups` groups of channels, then scales and shifts per channel."""
    return ops.group_norm(tensor(input, _F + "group_norm"), num_groups, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(||input||_p along dim, eps)."""
    from sprout.mint.linalg import vector_norm
    x = tensor(input, _F + "normalize")
    return ops.div(x, ops.clamp(vector_norm(x, p, dim, True), min=eps))


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeros each element with probability p and scales the others by 1 / (1 - p), when training."""
    api = _F + "dropout"
    x = tensor(input, api)
    if not 0 <= p <= 1:
        raise ValueError(f"{api}: 'p' must be in [0, 1], but got {p}")
    out = ops.dropout(x, float(p), check_bool(training, api, "training")) if training and p > 0 else x
    return _write(api, x, out) if check_bool(inplace, api, "inplace") and out is not x else out


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeros whole channels of (N, C, H, W) input with probability p and scales the others, when training."""
    api = _F + "dropout2d"
    x = tensor(input, api)
    if not 0 <= p <= 1:
        raise ValueError(f"{api}: 'p' must be in [0, 1], but got {p}")
    out = ops.dropout2d(x, float(p), training) if training and p > 0 else x
    return _write(api, x, out) if check_bool(inplace, api, "inplace") and out is not x else out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """The rows of `weight` at the indices of `input`."""
    return ops.embedding(tensor(input, _F + "embedding"), weight, padding_idx, max_norm, norm_type,
                         scale_grad_by_freq)


def one_hot(tensor, num_classes=-1):  # noqa: F811 (PyTorch name)
    """(..., num_classes) int64 rows with a one at each index (num_classes -1: the largest index + 1)."""
    api = _F + "one_hot"
    x = _as_tensor(tensor, api, "tensor")
    n = check_int(num_classes, api, "num_classes")
    if n == -1:
        n = int(ops.amax(x).item()) + 1 if x.size else 0  # PyTorch reads the data for the default too
    return ops.one_hot(ops.cast(x, mstype.int64), n, 1, 0)


def pad(input, pad, mode="constant", value=None):
    """input padded by `pad` ((before, after) pairs from the last dimension): 'constant' (with `value`),
    'reflect', 'replicate' or 'circular'."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"{_F}pad: 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', but got "
                         f"{mode!r}")
    return ops.pad(tensor(input, _F + "pad"), tuple(pad), mode, value)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """input resized to `size` (or by `scale_factor`) by 'nearest', 'linear', 'bilinear', 'bicubic',
    'trilinear' or 'area' sampling."""
    return ops.interpolate(tensor(input, _F + "interpolate"), size, scale_factor, mode, align_corners,
                           recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Alias of interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def flatten(input, start_dim=0, end_dim=-1):
    """The dimensions start_dim .. end_dim merged into one."""
    from sprout.mint._shape import flatten as _flatten
    return _flatten(input, start_dim, end_dim)
