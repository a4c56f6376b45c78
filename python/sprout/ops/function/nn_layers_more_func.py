"""The functions behind more ``mindspore.nn`` layers and losses, MindSpore 2.x names and arguments: local
response normalization (lrn), the bilinear layer (bidense), channel_shuffle, max_unpool1d/2d/3d, fast_gelu,
hinge_embedding_loss and multilabel_margin_loss.

Each is a composition of existing sprout functions, so gradients and graph mode (ms.jit) come for free.
Checks read only shapes, dtypes and Python arguments, never tensor values, so they run the same in a graph.
"""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function import array_func as _array
from sprout.ops.function import math_func as _math
from sprout.ops.function._prims import prim
from sprout.ops.function.array_view_func import scatter as _scatter
from sprout.ops.function.nn_func import (_check_float_arg, _check_float_tensor, _check_reduction, _check_tensor,
                                         _reduce, relu, sigmoid)
from sprout.ops.function.nn_loss_more_func import _INT_TYPES, _check_int, _like


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalization across channels of an (N, C, H, W) input:
    x / (bias + alpha * sum of x^2 over channels c - depth_radius .. c + depth_radius) ** beta.

    As MindSpore (TensorFlow's definition), alpha multiplies the plain sum, not its mean."""
    api = "lrn"
    _check_float_tensor(api, "x", x)
    if x.ndim != 4:
        raise ValueError(f"{api}: 'x' must be 4-d (N, C, H, W), but got shape {tuple(x.shape)}")
    radius = _check_int(api, "depth_radius", depth_radius)
    if radius < 0:
        raise ValueError(f"{api}: 'depth_radius' must be a non-negative int, but got {radius}")
    bias, alpha, beta = (_check_float_arg(api, n, v) for n, v in (("bias", bias), ("alpha", alpha), ("beta", beta)))
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"{api}: 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}")
    n, c, h, w = x.shape
    squares = _math.square(x)
    padded = _array.pad(squares, (0, 0, 0, 0, radius, radius)) if radius else squares
    # The window sum as 2r + 1 shifted slices: exact, and r is small (5 by default).
    total = None
    for k in range(2 * radius + 1):
        part = prim("Slice")(padded, (0, k, 0, 0), (n, c, h, w))
        total = part if total is None else total + part
    return x / _math.pow(total * alpha + bias, beta)


def bidense(input1, input2, weight, bias=None):
    """The bilinear form y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] (+ bias[o])."""
    api = "bidense"
    _check_float_tensor(api, "input1", input1)
    _check_tensor(api, "input2", input2)
    _check_tensor(api, "weight", weight)
    if weight.ndim != 3:
        raise ValueError(f"{api}: 'weight' must be 3-d (out, in1, in2), but got shape {tuple(weight.shape)}")
    out_c, in1, in2 = weight.shape
    if input1.ndim < 1 or input1.shape[-1] != in1:
        raise ValueError(f"{api}: the last dimension of 'input1' must be {in1} (weight.shape[1]), but got shape "
                         f"{tuple(input1.shape)}")
    if input2.ndim < 1 or input2.shape[-1] != in2:
        raise ValueError(f"{api}: the last dimension of 'input2' must be {in2} (weight.shape[2]), but got shape "
                         f"{tuple(input2.shape)}")
    if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
        raise ValueError(f"{api}: 'input1' and 'input2' must agree on all but the last dimension, but got shapes "
                         f"{tuple(input1.shape)} and {tuple(input2.shape)}")
    if bias is not None:
        _check_tensor(api, "bias", bias)
        if tuple(bias.shape) != (out_c,):
            raise ValueError(f"{api}: 'bias' must have shape ({out_c},), but got {tuple(bias.shape)}")
    lead = tuple(input1.shape[:-1])
    x1 = _array.reshape(input1, (-1, in1))
    x2 = _array.reshape(_like(input2, input1), (-1, in2))
    # One product with weight laid out (in1, in2 * out), then the in2 contraction as a broadcast sum.
    w = _array.reshape(_array.transpose(_like(weight, input1), (1, 2, 0)), (in1, in2 * out_c))
    inner = _array.reshape(_math.matmul(x1, w), (-1, in2, out_c))
    out = _math.sum(inner * _array.expand_dims(x2, -1), 1)
    if bias is not None:
        out = out + _like(bias, input1)
    return _array.reshape(out, lead + (out_c,))


def channel_shuffle(x, groups):
    """(N, C, *) -> the same shape with channel g * (C / groups) + k moved to k * groups + g."""
    api = "channel_shuffle"
    _check_tensor(api, "x", x)
    groups = _check_int(api, "groups", groups)
    if groups < 1:
        raise ValueError(f"{api}: 'groups' must be a positive int, but got {groups}")
    if x.ndim < 3:
        raise ValueError(f"{api}: 'x' must be at least 3-d (N, C, ...), but got shape {tuple(x.shape)}")
    n, c = x.shape[:2]
    if c % groups:
        raise ValueError(f"{api}: the channels of 'x' ({c}) must be divisible by 'groups' ({groups})")
    out = _array.transpose(_array.reshape(x, (n, groups, c // groups, -1)), (0, 2, 1, 3))
    return _array.reshape(out, tuple(x.shape))


def fast_gelu(x):
    """x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)), which is x * sigmoid(1.702 x) on both sides of 0."""
    _check_float_tensor("fast_gelu", "x", x)
    return x * sigmoid(x * 1.702)


def _tuple(api, arg, value, nd):
    if isinstance(value, (tuple, list)):
        if len(value) != nd:
            raise ValueError(f"{api}: '{arg}' must be an int or a tuple of {nd} ints, but got {value!r}")
        return tuple(_check_int(api, arg, v) for v in value)
    value = _check_int(api, arg, value)
    return (value,) * nd


def _max_unpool(api, nd, x, indices, kernel_size, stride, padding, output_size):
    """Each x value written at its flat index (from a max pool's return_indices) into a zero plane per
    (sample, channel) of the unpooled size; gradients flow back by gathering at the same places."""
    _check_tensor(api, "x", x)
    _check_tensor(api, "indices", indices)
    if x.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"{api}: 'x' must be {nd + 1}-d or {nd + 2}-d, but got shape {tuple(x.shape)}")
    if indices.dtype not in _INT_TYPES:
        raise TypeError(f"{api}: 'indices' must be an integer tensor, but got {indices.dtype}")
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"{api}: 'indices' must have the shape of 'x' {tuple(x.shape)}, but got "
                         f"{tuple(indices.shape)}")
    kernel = _tuple(api, "kernel_size", kernel_size, nd)
    stride = kernel if stride is None else _tuple(api, "stride", stride, nd)
    pads = _tuple(api, "padding", padding, nd)
    if min(kernel + stride) < 1 or min(pads) < 0:
        raise ValueError(f"{api}: 'kernel_size' and 'stride' must be >= 1 and 'padding' >= 0, but got {kernel}, "
                         f"{stride} and {pads}")
    spatial = tuple(x.shape[-nd:])
    size = tuple((i - 1) * s - 2 * p + k for i, s, p, k in zip(spatial, stride, pads, kernel))
    if output_size is not None and output_size != ():
        if not isinstance(output_size, (tuple, list)) or len(output_size) < nd:
            raise ValueError(f"{api}: 'output_size' must be a tuple of at least {nd} ints, but got {output_size!r}")
        wanted = tuple(_check_int(api, "output_size", v) for v in output_size[-nd:])
        for got, default, s in zip(wanted, size, stride):
            if not default - s < got < default + s:
                raise ValueError(f"{api}: 'output_size' {wanted} must be within 'stride' of the default output size "
                                 f"{size} (strictly), but is not")
        size = wanted
    if min(size) < 1:
        raise ValueError(f"{api}: the output size {size} must be positive")
    lead = tuple(x.shape[:-nd])
    flat_x = _array.reshape(x, (-1, math.prod(spatial)))
    flat_i = _array.reshape(indices, (-1, math.prod(spatial)))
    out = _scatter(_array.zeros((flat_x.shape[0], math.prod(size)), x.dtype), 1, flat_i, flat_x)
    return _array.reshape(out, lead + size)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d: (N, C, L) or (C, L) values put back at their indices, zeros elsewhere;
    L_out = (L - 1) * stride - 2 * padding + kernel_size unless output_size says otherwise."""
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d on (N, C, H, W) or (C, H, W) inputs; indices are flat in each H_out x W_out
    plane."""
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool3d on (N, C, D, H, W) or (C, D, H, W) inputs; indices are flat in each
    D_out x H_out x W_out volume."""
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction='mean'):
    """inputs where targets > 0, max(0, margin - inputs) where targets < 0, 0 where targets is 0."""
    api = "hinge_embedding_loss"
    _check_float_tensor(api, "inputs", inputs)
    _check_float_tensor(api, "targets", targets)
    margin = _check_float_arg(api, "margin", margin)
    _check_reduction(api, reduction)
    t = _like(targets, inputs)
    pos = _array.where(t > 0, inputs, 0.0)
    neg = _array.where(t < 0, relu(margin - inputs), 0.0)
    return _reduce(api, pos + neg, reduction)


def multilabel_margin_loss(input, target, reduction='mean'):
    """Multi-label hinge loss of (N, C) or (C,) scores: `target` holds each sample's class indices, ended by
    the first -1; per sample sum over its classes j and the classes i not among them of
    max(0, 1 - (input[j] - input[i])), divided by C."""
    api = "multilabel_margin_loss"
    _check_float_tensor(api, "input", input)
    _check_tensor(api, "target", target)
    if input.ndim not in (1, 2):
        raise ValueError(f"{api}: 'input' must be 1-d (C,) or 2-d (N, C), but got shape {tuple(input.shape)}")
    if target.dtype not in _INT_TYPES:
        raise TypeError(f"{api}: 'target' must be an integer tensor, but got {target.dtype}")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"{api}: 'target' must have the shape of 'input' {tuple(input.shape)}, but got "
                         f"{tuple(target.shape)}")
    _check_reduction(api, reduction)
    x = input if input.ndim == 2 else _array.expand_dims(input, 0)
    y = _array.cast(target if target.ndim == 2 else _array.expand_dims(target, 0), mstype.int64)
    classes = x.shape[1]
    # valid[n, k]: target[n, k] comes before the first -1.
    valid = _array.cast(_array.cumsum(_array.cast(y == -1, mstype.int32), 1) == 0, x.dtype)
    y_safe = _math.maximum(y, 0)
    hot = _array.one_hot(y_safe, classes, Tensor(1.0, x.dtype), Tensor(0.0, x.dtype))  # (N, K, C)
    is_target = _math.amax(hot * _array.expand_dims(valid, -1), 1)  # (N, C)
    picked = _array.gather_elements(x, 1, y_safe)  # (N, K): the score of target k
    # (N, K, C): margin violation of every other class i against target k.
    hinge = relu(1.0 - _array.expand_dims(picked, -1) + _array.expand_dims(x, 1))
    hinge = hinge * _array.expand_dims(valid, -1) * _array.expand_dims(1.0 - is_target, 1)
    loss = _math.sum(_math.sum(hinge, 2), 1) / classes
    if input.ndim == 1:
        loss = _array.reshape(loss, ())
    return _reduce(api, loss, reduction)


__all__ = ["lrn", "bidense", "channel_shuffle", "fast_gelu", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "hinge_embedding_loss", "multilabel_margin_loss"]
