"""``ops.bias_add`` and the random activations ``ops.rrelu`` and ``ops.gumbel_softmax`` (MindSpore 2.x
arguments)."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import one_hot, reshape, stop_gradient
from sprout.ops.function.nn_func import _check_axis, _check_float_arg, _check_float_tensor, _check_tensor, softmax
from sprout.ops.function.random_func import uniform


def _bias_add(api, input_x, bias, channel_axis):
    _check_tensor(api, "input_x", input_x)
    _check_tensor(api, "bias", bias)
    if not 2 <= input_x.ndim <= 5:
        raise ValueError(f"{api}: 'input_x' must have 2 to 5 dimensions, but got shape {input_x.shape}")
    axis = channel_axis % input_x.ndim
    if bias.ndim != 1 or bias.shape[0] != input_x.shape[axis]:
        raise ValueError(f"{api}: 'bias' must have shape ({input_x.shape[axis]},) (the channels of 'input_x' of "
                         f"shape {input_x.shape}), but got {bias.shape}")
    if bias.dtype != input_x.dtype:
        raise TypeError(f"{api}: 'bias' must have the dtype of 'input_x' ({input_x.dtype}), but got {bias.dtype}")
    shape = [1] * input_x.ndim
    shape[axis] = bias.shape[0]
    return input_x + reshape(bias, tuple(shape))


def bias_add(input_x, bias):
    """`input_x` (N, C, ...) plus the (C,) `bias` on its channel axis 1."""
    return _bias_add("bias_add", input_x, bias, 1)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: x where x >= 0, else x times a slope drawn uniformly from [lower, upper) per
    element (drawn on every call, as MindSpore's functional does)."""
    _check_float_tensor("rrelu", "input", input)
    lower = _check_float_arg("rrelu", "lower", lower)
    upper = _check_float_arg("rrelu", "upper", upper)
    if lower > upper:
        raise ValueError(f"rrelu: 'lower' must be <= 'upper', but got lower={lower} and upper={upper}")
    slope = uniform(input.shape, Tensor(lower, mstype.float32), Tensor(upper, mstype.float32)).astype(input.dtype)
    return prim("Select")(input >= 0, input, input * slope)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """softmax((logits + g) / tau) along `dim`, g standard Gumbel noise; with `hard`, the one-hot of each
    maximum in the forward pass with the soft sample's gradient (straight-through)."""
    api = "gumbel_softmax"
    _check_float_tensor(api, "logits", logits)
    tau = _check_float_arg(api, "tau", tau)
    if tau <= 0:
        raise ValueError(f"{api}: 'tau' must be positive, but got {tau}")
    if not isinstance(hard, bool):
        raise TypeError(f"{api}: 'hard' must be a bool, but got {hard!r}")
    dim = _check_axis(api, dim)
    if not -logits.ndim <= dim < logits.ndim:
        raise ValueError(f"{api}: 'dim' must be in [{-logits.ndim}, {logits.ndim}), but got {dim}")
    tiny = float(np.finfo(np.float32).tiny)
    u = uniform(logits.shape, Tensor(tiny, mstype.float32), Tensor(1.0, mstype.float32)).astype(logits.dtype)
    gumbel = -prim("Log")(-prim("Log")(u))
    y = softmax((logits + gumbel) / tau, dim)
    if not hard:
        return y
    index = prim("Argmax", axis=dim % logits.ndim, output_type=mstype.int64)(y)
    y_hard = one_hot(index, logits.shape[dim], Tensor(1, logits.dtype), Tensor(0, logits.dtype), dim)
    return y_hard - stop_gradient(y) + y


__all__ = ["bias_add", "rrelu", "gumbel_softmax"]
