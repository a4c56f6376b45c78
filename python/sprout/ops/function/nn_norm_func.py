"""Normalization, MindSpore 2.x functional forms (``ops.batch_norm``, ``ops.layer_norm``)."""
import numpy as np

from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim


def _check_tensor(api, arg, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(value).__name__}")


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    """Batch normalization over the channels (axis 1) of `input_x`.

    In training the batch's statistics normalize, and `running_mean`/`running_var` are updated in place:
    new = (1 - momentum) * running + momentum * batch.
    """
    for arg, value in (("input_x", input_x), ("running_mean", running_mean), ("running_var", running_var),
                       ("weight", weight), ("bias", bias)):
        _check_tensor("batch_norm", arg, value)
    op = prim("BatchNorm", is_training=bool(training), epsilon=float(eps), momentum=float(momentum))
    return op(input_x, weight, bias, running_mean, running_var)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalization over the trailing `normalized_shape` axes of `input`; weight/bias default to 1/0."""
    _check_tensor("layer_norm", "input", input)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if len(shape) == 0 or len(shape) > input.ndim or tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise ValueError(f"layer_norm: 'normalized_shape' {shape} must be the trailing dimensions of 'input' of "
                         f"shape {input.shape}")
    if weight is None:
        weight = Tensor(np.ones(shape), input.dtype)
    if bias is None:
        bias = Tensor(np.zeros(shape), input.dtype)
    axis = input.ndim - len(shape)
    return prim("LayerNorm", begin_norm_axis=axis, begin_params_axis=axis, epsilon=float(eps))(input, weight, bias)[0]


__all__ = ["batch_norm", "layer_norm"]
