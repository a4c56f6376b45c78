"""mint.nn.functional's activations and softmaxes: PyTorch's names and arguments (`inplace` writes the result
into the input, as PyTorch; `dim` None picks PyTorch's legacy softmax dimension)."""
from sprout import ops
from sprout.common.tensor_inplace import _write
from sprout.mint._checks import check_bool, check_dim, check_dtype, check_number, tensor
from sprout.ops import hardsigmoid, hardswish, logsigmoid, mish, selu, sigmoid, silu as _silu, tanh  # noqa: F401

__all__ = ["elu", "elu_", "gelu", "glu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "hardtanh_",
           "leaky_relu", "log_softmax", "logsigmoid", "mish", "prelu", "relu", "relu6", "relu_", "selu", "sigmoid",
           "sigmoid_", "silu", "softmax", "softplus", "softshrink", "tanh", "threshold", "threshold_"]


def _result(api, input, value, inplace):
    return _write(api, input, value) if check_bool(inplace, api, "inplace") else value


def relu(input, inplace=False):
    """max(input, 0)."""
    return _result("mint.nn.functional.relu", input, ops.relu(tensor(input, "mint.nn.functional.relu")), inplace)


def relu_(input):
    """relu written into input."""
    return relu(input, True)


def relu6(input, inplace=False):
    """min(max(input, 0), 6)."""
    return _result("mint.nn.functional.relu6", input, ops.relu6(tensor(input, "mint.nn.functional.relu6")), inplace)


def elu(input, alpha=1.0, inplace=False):
    """input where positive, alpha * (exp(input) - 1) elsewhere."""
    x = tensor(input, "mint.nn.functional.elu")
    return _result("mint.nn.functional.elu", x, ops.elu(x, float(check_number(alpha, "mint.nn.functional.elu",
                                                                                "alpha"))), inplace)


def elu_(input, alpha=1.0):
    """elu written into input."""
    return elu(input, alpha, True)


def gelu(input, *, approximate="none"):
    """input * Phi(input) ('none'), or its tanh approximation ('tanh')."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"mint.nn.functional.gelu: 'approximate' must be 'none' or 'tanh', but got {approximate!r}")
    return ops.gelu(tensor(input, "mint.nn.functional.gelu"), approximate)


def glu(input, dim=-1):
    """a * sigmoid(b) for the two halves a, b of input along `dim` (of even size)."""
    x = tensor(input, "mint.nn.functional.glu")
    d = check_dim(dim, x.ndim, "mint.nn.functional.glu")
    if x.shape[d] % 2:
        raise ValueError(f"mint.nn.functional.glu: dimension {dim} of 'input' must have an even size, but got "
                         f"shape {x.shape}")
    a, b = ops.split(x, x.shape[d] // 2, d)
    return ops.mul(a, ops.sigmoid(b))


def hardshrink(input, lambd=0.5):
    """input where |input| > lambd, else 0."""
    return ops.hardshrink(tensor(input, "mint.nn.functional.hardshrink"), float(lambd))


def softshrink(input, lambd=0.5):
    """input - lambd above lambd, input + lambd below -lambd, else 0."""
    if lambd < 0:
        raise ValueError(f"mint.nn.functional.softshrink: 'lambd' must be non-negative, but got {lambd}")
    return ops.softshrink(tensor(input, "mint.nn.functional.softshrink"), float(lambd))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val]."""
    api = "mint.nn.functional.hardtanh"
    if min_val > max_val:
        raise ValueError(f"{api}: 'min_val' ({min_val}) must not exceed 'max_val' ({max_val})")
    return _result(api, input, ops.hardtanh(tensor(input, api), min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):
    """hardtanh written into input."""
    return hardtanh(input, min_val, max_val, True)


def leaky_relu(input, negative_slope=0.01):
    """input where positive, negative_slope * input elsewhere."""
    return ops.leaky_relu(tensor(input, "mint.nn.functional.leaky_relu"),
                          float(check_number(negative_slope, "mint.nn.functional.leaky_relu", "negative_slope")))


def prelu(input, weight):
    """input where positive, weight * input elsewhere (weight: one value, or one per channel of dimension 1)."""
    x, w = tensor(input, "mint.nn.functional.prelu"), tensor(weight, "mint.nn.functional.prelu", "weight")
    if w.size != 1 and (x.ndim < 2 or w.size != x.shape[1]):
        raise ValueError(f"mint.nn.functional.prelu: 'weight' must have 1 element or one per channel "
                         f"(dimension 1 of 'input' {x.shape}), but got shape {w.shape}")
    w = ops.reshape(w, (1, -1) + (1,) * (x.ndim - 2)) if w.size != 1 else ops.reshape(w, ())
    return ops.where(ops.gt(x, 0), x, ops.mul(w, x))


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _result("mint.nn.functional.silu", input, _silu(tensor(input, "mint.nn.functional.silu")), inplace)


def sigmoid_(input):
    """sigmoid written into input."""
    return _write("mint.nn.functional.sigmoid_", input, ops.sigmoid(input))


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * input)) / beta, input itself where beta * input > threshold."""
    return ops.softplus(tensor(input, "mint.nn.functional.softplus"), beta, threshold)


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    x = tensor(input, "mint.nn.functional.threshold")
    out = ops.where(ops.gt(x, threshold), x, ops.cast(ops.fill(x.dtype, (), value), x.dtype))
    return _result("mint.nn.functional.threshold", x, out, inplace)


def threshold_(input, threshold, value):  # noqa: F811 (PyTorch names)
    """threshold written into input."""
    return _threshold(input, threshold, value, True)


def _softmax_dim(dim, ndim):
    """PyTorch's implicit dimension when `dim` is None: 0 for 0-, 1- and 3-d input, else 1."""
    return (0 if ndim in (0, 1, 3) else 1) if dim is None else dim


def softmax(input, dim=None, dtype=None):
    """exp(input) / sum(exp(input)) along `dim`, computed in `dtype` when given."""
    api = "mint.nn.functional.softmax"
    x = tensor(input, api)
    if check_dtype(dtype, api) is not None and x.dtype != dtype:
        x = ops.cast(x, dtype)
    return ops.softmax(x, check_dim(_softmax_dim(dim, x.ndim), x.ndim, api))


def log_softmax(input, dim=None, *, dtype=None):
    """log(softmax(input)) along `dim`, computed in `dtype` when given."""
    api = "mint.nn.functional.log_softmax"
    x = tensor(input, api)
    if check_dtype(dtype, api) is not None and x.dtype != dtype:
        x = ops.cast(x, dtype)
    return ops.log_softmax(x, check_dim(_softmax_dim(dim, x.ndim), x.ndim, api))


_threshold = threshold  # threshold_'s own argument `threshold` hides the function
