"""Neural-network functions: activations, softmax, losses, dropout, embedding, attention (MindSpore 2.x names)."""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_relu, _relu6, _silu, _mish = prim("ReLU"), prim("ReLU6"), prim("SiLU"), prim("Mish")
_hswish, _hsigmoid, _sigmoid, _softplus = prim("HSwish"), prim("HSigmoid"), prim("Sigmoid"), prim("Softplus")
_mul, _sub, _greater, _cast, _minimum = prim("Mul"), prim("Sub"), prim("Greater"), prim("Cast"), prim("Minimum")
_neg = prim("Neg")


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _check_float_tensor(api, arg, x):
    _check_tensor(api, arg, x)
    if x.dtype not in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {x.dtype}")
    return x


def _check_float_arg(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{api}: '{arg}' must be a float, but got {type(value).__name__}")
    return float(value)


def relu(input):
    """max(input, 0), elementwise."""
    return _relu(_check_tensor("relu", "input", input))


def relu6(x):
    """min(max(x, 0), 6), elementwise."""
    return _relu6(_check_tensor("relu6", "x", x))


def leaky_relu(input, alpha=0.2):
    """input where input > 0, else alpha * input."""
    return prim("LeakyReLU", alpha=_check_float_arg("leaky_relu", "alpha", alpha))(_check_tensor("leaky_relu", "input", input))


def elu(input_x, alpha=1.0):
    """input_x where input_x > 0, else alpha * (exp(input_x) - 1)."""
    return prim("Elu", alpha=_check_float_arg("elu", "alpha", alpha))(_check_tensor("elu", "input_x", input_x))


def gelu(input_x, approximate='none'):
    """Gaussian error linear unit: x * Phi(x) ('none') or its tanh approximation ('tanh')."""
    if approximate not in ('none', 'tanh'):
        raise ValueError(f"gelu: 'approximate' must be 'none' or 'tanh', but got {approximate!r}")
    return prim("GeLU", approximate=approximate)(_check_tensor("gelu", "input_x", input_x))


def silu(input):
    """input * sigmoid(input)."""
    return _silu(_check_tensor("silu", "input", input))


def mish(x):
    """x * tanh(softplus(x))."""
    return _mish(_check_tensor("mish", "x", x))


def hardswish(x):
    """x * relu6(x + 3) / 6."""
    return _hswish(_check_tensor("hardswish", "x", x))


def hardsigmoid(input):
    """relu6(input + 3) / 6."""
    return _hsigmoid(_check_tensor("hardsigmoid", "input", input))


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return _sigmoid(_check_tensor("sigmoid", "input", input))


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * input)) / beta; where beta * input > threshold, input itself (as MindSpore)."""
    _check_float_tensor("softplus", "input", input)
    beta = _check_float_arg("softplus", "beta", beta)
    threshold = _check_float_arg("softplus", "threshold", threshold)
    if beta == 0:
        raise ValueError("softplus: 'beta' must not be 0")
    scaled = input if beta == 1 else _mul(input, beta)
    out = _softplus(scaled) if beta == 1 else _mul(_softplus(scaled), 1.0 / beta)
    # Above the threshold the result is `input` itself: out - input = softplus(-scaled) / beta. That gap
    # is subtracted under a mask, capped (it is at most softplus(-threshold) where the mask is 1) so
    # that -inf inputs give 0 * cap, not 0 * inf.
    cap = max(math.log(2.0), math.log1p(math.exp(-threshold)) if threshold > -700 else -threshold)
    gap = _minimum(_softplus(_neg(scaled)), cap)
    above = _cast(_greater(scaled, threshold), input.dtype)
    return _sub(out, _mul(above, gap if beta == 1 else _mul(gap, 1.0 / beta)))


def softmax(input, axis=-1, *, dtype=None):
    """exp(input) / sum(exp(input)) along `axis`; `dtype` casts the input first."""
    _check_tensor("softmax", "input", input)
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"softmax: 'axis' must be an int, but got {type(axis).__name__}")
    if dtype is not None:
        input = _cast(input, dtype)
    return prim("Softmax", axis=(axis,))(input)


def log_softmax(logits, axis=-1):
    """logits - log(sum(exp(logits))) along `axis`, computed by log-sum-exp."""
    _check_tensor("log_softmax", "logits", logits)
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"log_softmax: 'axis' must be an int, but got {type(axis).__name__}")
    return prim("LogSoftmax", axis=axis)(logits)


__all__ = ["relu", "relu6", "leaky_relu", "elu", "gelu", "silu", "mish", "hardswish", "hardsigmoid", "sigmoid",
           "softplus", "softmax", "log_softmax"]

# Also Tensor methods (x.sigmoid(), x.softmax(axis) ...).
TENSOR_METHODS = ["relu", "sigmoid", "softmax", "log_softmax", "softplus"]
