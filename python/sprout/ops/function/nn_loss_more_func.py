"""More losses under their MindSpore 2.x names: huber, soft margin, margin ranking, cosine embedding, triplet
margin, multi margin, multilabel soft margin and Gaussian NLL.

Each is a composition of existing sprout functions, so gradients and graph mode (ms.jit) come for free.
Checks read only shapes, dtypes and Python arguments, never tensor values, so they run the same in a graph.
"""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function import array_func as _array
from sprout.ops.function import math_func as _math
from sprout.ops.function.math_reduce_func import norm as _norm
from sprout.ops.function.nn_func import (_check_float_arg, _check_float_tensor, _check_reduction, _check_tensor,
                                         _reduce, logsigmoid, relu)

_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)


def _check_bool(api, arg, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {type(value).__name__}")
    return value


def _check_int(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {type(value).__name__}")
    return value


def _check_positive(api, arg, value):
    value = _check_float_arg(api, arg, value)
    if not value > 0:
        raise ValueError(f"{api}: '{arg}' must be positive, but got {value}")
    return value


def _check_same_shape(api, arg, x, ref_arg, ref):
    if tuple(x.shape) != tuple(ref.shape):
        raise ValueError(f"{api}: '{arg}' must have the shape of '{ref_arg}' {tuple(ref.shape)}, but got "
                         f"{tuple(x.shape)}")


def _like(x, ref):
    """`x` in the dtype of `ref` (labels given as ints or another float type)."""
    return x if x.dtype == ref.dtype else _array.cast(x, ref.dtype)


def huber_loss(input, target, reduction='mean', delta=1.0):
    """0.5 (input - target)^2 where |input - target| < delta, else delta (|input - target| - 0.5 delta)."""
    api = "huber_loss"
    _check_float_tensor(api, "input", input)
    _check_tensor(api, "target", target)
    _check_reduction(api, reduction)
    delta = _check_positive(api, "delta", delta)
    diff = _math.abs(_math.sub(input, _like(target, input)))
    # With q = min(|d|, delta) both branches are 0.5 q^2 + delta (|d| - q): no select, one smooth formula.
    q = _math.minimum(diff, delta)
    return _reduce(api, 0.5 * q * q + delta * (diff - q), reduction)


def soft_margin_loss(input, target, reduction='mean'):
    """log(1 + exp(-target * input)) for targets in {1, -1}, computed as -logsigmoid(target * input)."""
    api = "soft_margin_loss"
    _check_float_tensor(api, "input", input)
    _check_tensor(api, "target", target)
    _check_same_shape(api, "target", target, "input", input)
    _check_reduction(api, reduction)
    return _reduce(api, _math.neg(logsigmoid(_math.mul(_like(target, input), input))), reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction='mean'):
    """max(0, -target * (input1 - input2) + margin): input1 should rank above input2 where target is 1."""
    api = "margin_ranking_loss"
    _check_float_tensor(api, "input1", input1)
    _check_tensor(api, "input2", input2)
    _check_tensor(api, "target", target)
    _check_same_shape(api, "input2", input2, "input1", input1)
    _check_same_shape(api, "target", target, "input1", input1)
    margin = _check_float_arg(api, "margin", margin)
    _check_reduction(api, reduction)
    gap = _math.mul(_like(target, input1), _math.sub(input1, _like(input2, input1)))
    return _reduce(api, relu(margin - gap), reduction)


# PyTorch's guard against zero-length vectors (MindSpore divides by the bare norms and gives NaN there).
_COSINE_EPS = 1e-12


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction='mean'):
    """1 - cos(input1, input2) where target is 1, max(0, cos(input1, input2) - margin) where it is -1, 0
    elsewhere; the cosine is taken along axis 1 of (N, D, ...) inputs, `target` being (N, ...)."""
    api = "cosine_embedding_loss"
    _check_float_tensor(api, "input1", input1)
    _check_tensor(api, "input2", input2)
    _check_tensor(api, "target", target)
    if input1.ndim < 2:
        raise ValueError(f"{api}: 'input1' must have shape (N, D, ...), but got {tuple(input1.shape)}")
    _check_same_shape(api, "input2", input2, "input1", input1)
    expected = (input1.shape[0],) + tuple(input1.shape[2:])
    if tuple(target.shape) != expected:
        raise ValueError(f"{api}: 'target' must have shape {expected} ('input1' without axis 1), but got "
                         f"{tuple(target.shape)}")
    margin = _check_float_arg(api, "margin", margin)
    if not -1.0 <= margin <= 1.0:
        raise ValueError(f"{api}: 'margin' must be in [-1, 1], but got {margin}")
    _check_reduction(api, reduction)
    x2 = _like(input2, input1)
    dot = _math.sum(_math.mul(input1, x2), 1)
    sq1, sq2 = _math.sum(_math.square(input1), 1), _math.sum(_math.square(x2), 1)
    cos = _math.div(dot, _math.sqrt(_math.mul(sq1 + _COSINE_EPS, sq2 + _COSINE_EPS)))
    loss = _array.where(target == 1, 1.0 - cos, 0.0) + _array.where(target == -1, relu(cos - margin), 0.0)
    return _reduce(api, loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction='mean'):
    """max(d(anchor, positive) - d(anchor, negative) + margin, 0), d(a, b) = ||a - b + eps||_p over the last
    axis (PyTorch's pairwise distance); `swap` uses min(d(anchor, negative), d(positive, negative))."""
    api = "triplet_margin_loss"
    for arg, t in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        _check_float_tensor(api, arg, t)
    if max(anchor.ndim, positive.ndim, negative.ndim) <= 1:
        raise ValueError(f"{api}: 'anchor', 'positive' and 'negative' must not all be 0-d or 1-d, but got shapes "
                         f"{tuple(anchor.shape)}, {tuple(positive.shape)} and {tuple(negative.shape)}")
    if isinstance(margin, Tensor):
        if margin.ndim != 0:
            raise ValueError(f"{api}: a Tensor 'margin' must be 0-d, but got shape {tuple(margin.shape)}")
    else:
        margin = _check_float_arg(api, "margin", margin)
    p = _check_int(api, "p", p)
    if p < 1:
        raise ValueError(f"{api}: 'p' must be a positive int, but got {p}")
    eps = _check_float_arg(api, "eps", eps)
    _check_bool(api, "swap", swap)
    _check_reduction(api, reduction)

    def dist(a, b):
        return _norm(_math.sub(a, b) + eps, p, dim=-1)

    d_pos, d_neg = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_neg = _math.minimum(d_neg, dist(positive, negative))
    return _reduce(api, relu(d_pos - d_neg + margin), reduction)


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction='mean'):
    """Multi-class hinge loss of (N, C) scores and (N,) class indices: per sample
    sum over i != y of w[y] max(0, margin - input[y] + input[i])^p, divided by C."""
    api = "multi_margin_loss"
    _check_float_tensor(api, "input", input)
    _check_tensor(api, "target", target)
    if input.ndim != 2:
        raise ValueError(f"{api}: 'input' must be 2-d (N, C), but got shape {tuple(input.shape)}")
    n, classes = input.shape
    if tuple(target.shape) != (n,):
        raise ValueError(f"{api}: 'target' must have shape ({n},), but got {tuple(target.shape)}")
    if target.dtype not in _INT_TYPES:
        raise TypeError(f"{api}: 'target' must be an integer tensor, but got {target.dtype}")
    if _check_int(api, "p", p) not in (1, 2):
        raise ValueError(f"{api}: 'p' must be 1 or 2, but got {p}")
    margin = _check_float_arg(api, "margin", margin)
    if weight is not None:
        _check_float_tensor(api, "weight", weight)
        if tuple(weight.shape) != (classes,):
            raise ValueError(f"{api}: 'weight' must have shape ({classes},), but got {tuple(weight.shape)}")
    _check_reduction(api, reduction)
    index = _array.reshape(target, (n, 1))
    z = relu(margin - _array.gather_elements(input, 1, index) + input)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * _array.reshape(_array.gather(_like(weight, input), target, 0), (n, 1))
    others = _array.one_hot(target, classes, Tensor(0.0, input.dtype), Tensor(1.0, input.dtype))
    return _reduce(api, _math.sum(z * others, 1) / classes, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction='mean'):
    """-(target log sigmoid(input) + (1 - target) log sigmoid(-input)), times the class `weight` if given,
    averaged over the C classes of (N, C) inputs: shape (N,) before the reduction."""
    api = "multilabel_soft_margin_loss"
    _check_float_tensor(api, "input", input)
    _check_tensor(api, "target", target)
    if input.ndim != 2:
        raise ValueError(f"{api}: 'input' must be 2-d (N, C), but got shape {tuple(input.shape)}")
    _check_same_shape(api, "target", target, "input", input)
    if weight is not None and not isinstance(weight, Tensor):
        _check_float_arg(api, "weight", weight)
    _check_reduction(api, reduction)
    y = _like(target, input)
    loss = _math.neg(y * logsigmoid(input) + (1.0 - y) * logsigmoid(_math.neg(input)))
    if weight is not None:
        loss = loss * (_like(weight, input) if isinstance(weight, Tensor) else float(weight))
    return _reduce(api, _math.mean(loss, -1), reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction='mean'):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)), plus 0.5 log(2 pi) when `full`.

    `var` has the shape of `x`, or that shape with the last dimension 1, or one dimension fewer (one
    variance per row: it gains a trailing axis), as PyTorch allows.
    """
    api = "gaussian_nll_loss"
    _check_float_tensor(api, "x", x)
    _check_tensor(api, "target", target)
    _check_tensor(api, "var", var)
    _check_bool(api, "full", full)
    eps = _check_positive(api, "eps", eps)
    _check_reduction(api, reduction)
    shape, var_shape = tuple(x.shape), tuple(var.shape)
    if var_shape != shape:
        if var_shape == shape[:-1]:
            var = _array.expand_dims(var, -1)
        elif not (var_shape[:-1] == shape[:-1] and var_shape[-1:] == (1,)):
            raise ValueError(f"{api}: 'var' must have the shape of 'x' {shape}, that shape with a last dimension "
                             f"of 1, or that shape without its last dimension, but got {var_shape}")
    var = _math.maximum(_like(var, x), eps)
    diff = _math.sub(x, _like(target, x))
    loss = 0.5 * (_math.log(var) + diff * diff / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(api, loss, reduction)


__all__ = ["huber_loss", "soft_margin_loss", "margin_ranking_loss", "cosine_embedding_loss", "triplet_margin_loss",
           "multi_margin_loss", "multilabel_soft_margin_loss", "gaussian_nll_loss"]
