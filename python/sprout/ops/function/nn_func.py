"""Neural-network functions: activations, softmax, losses, dropout, embedding, attention (MindSpore 2.x names)."""
import math
import numbers

import numpy as np

from sprout import _C

from sprout.common import dtype as mstype
from sprout.common import seed as _seed
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_relu, _relu6, _silu, _mish = prim("ReLU"), prim("ReLU6"), prim("SiLU"), prim("Mish")
_hswish, _hsigmoid, _sigmoid, _softplus = prim("HSwish"), prim("HSigmoid"), prim("Sigmoid"), prim("Softplus")
_mul, _sub, _greater, _cast, _minimum = prim("Mul"), prim("Sub"), prim("Greater"), prim("Cast"), prim("Minimum")
_neg, _maximum, _add, _not_equal = prim("Neg"), prim("Maximum"), prim("Add"), prim("NotEqual")


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _check_float_tensor(api, arg, x):
    _check_tensor(api, arg, x)
    if x.dtype not in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {x.dtype}")
    return x


def _check_axis(api, axis):
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{api}: 'axis' must be an int, but got {type(axis).__name__}")
    return int(axis)


def _check_float_arg(api, arg, value):
    """A float hyperparameter (eps, momentum, alpha ...): any real number but a bool, NumPy's included."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
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


def prelu(x, weight):
    """x where x > 0, else weight * x, with one learned slope per channel (axis 1) or one for all."""
    x, weight = _check_tensor("prelu", "x", x), _check_tensor("prelu", "weight", weight)
    channels = x.shape[1] if x.ndim >= 2 else 1
    if weight.ndim > 1 or weight.size not in (1, channels):
        raise ValueError(f"prelu: 'weight' must be 1-d with 1 or {channels} (the channels of 'x') elements, "
                         f"but got shape {weight.shape}")
    slope = prim("Reshape")(weight, (-1,) + (1,) * (x.ndim - 2)) if x.ndim >= 2 else weight
    return prim("Select")(prim("Greater")(x, Tensor(0, x.dtype)), x, prim("Mul")(slope, x))


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
    if beta == 1 and threshold >= 16 and input.dtype != mstype.float64:
        # Above 16, log1p(exp(-x)) < 1.2e-7 x is below half an ulp of x in float32 (and coarser types):
        # the primitive already returns x itself there, so the threshold changes nothing.
        return _softplus(input)
    scaled = input if beta == 1 else _mul(input, beta)
    out = _softplus(scaled) if beta == 1 else _mul(_softplus(scaled), 1.0 / beta)
    # Above the threshold the result is `input` itself: out - input = softplus(-scaled) / beta. That gap
    # is subtracted under a mask, capped (it is at most softplus(-threshold) where the mask is 1) so
    # that -inf inputs give 0 * cap, not 0 * inf.
    cap = max(math.log(2.0), math.log1p(math.exp(-threshold)) if threshold > -700 else -threshold)
    gap = _minimum(_softplus(_neg(scaled)), cap)
    above = _cast(_greater(scaled, threshold), input.dtype)
    return _sub(out, _mul(above, gap if beta == 1 else _mul(gap, 1.0 / beta)))


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x), without overflow."""
    _check_float_tensor("logsigmoid", "x", x)
    return _neg(_softplus(_neg(x)))


def softsign(x):
    """x / (1 + |x|)."""
    _check_float_tensor("softsign", "x", x)
    return prim("RealDiv")(x, _add(_maximum(x, _neg(x)), 1.0))


def hardtanh(input, min_val=-1.0, max_val=1.0):
    """input clamped to [min_val, max_val]."""
    _check_float_tensor("hardtanh", "input", input)
    min_val, max_val = _check_float_arg("hardtanh", "min_val", min_val), _check_float_arg("hardtanh", "max_val", max_val)
    if min_val > max_val:
        raise ValueError(f"hardtanh: 'min_val' must not exceed 'max_val', but got {min_val} and {max_val}")
    return _minimum(_maximum(input, min_val), max_val)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input_x):
    """scale * elu(x, alpha) with the self-normalizing constants (alpha 1.6733, scale 1.0507)."""
    _check_float_tensor("selu", "input_x", input_x)
    return _mul(prim("Elu", alpha=_SELU_ALPHA)(input_x), _SELU_SCALE)


def celu(x, alpha=1.0):
    """x where x > 0, else alpha * (exp(x / alpha) - 1): alpha * elu(x / alpha)."""
    _check_float_tensor("celu", "x", x)
    alpha = _check_float_arg("celu", "alpha", alpha)
    if alpha == 0:
        raise ValueError("celu: 'alpha' must not be 0")
    return _mul(prim("Elu", alpha=1.0)(_mul(x, 1.0 / alpha)), alpha)


def glu(x, axis=-1):
    """a * sigmoid(b), where a and b are the two halves of `x` along `axis`."""
    _check_float_tensor("glu", "x", x)
    axis = _check_axis("glu", axis)
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"glu: 'axis' must be in [{-x.ndim}, {x.ndim}), but got {axis}")
    axis %= x.ndim
    size = x.shape[axis]
    if size % 2:
        raise ValueError(f"glu: dimension {axis} of 'x' must be even to split in halves, but is {size}")
    lead = (slice(None),) * axis
    return _mul(x[lead + (slice(0, size // 2),)], _sigmoid(x[lead + (slice(size // 2, size),)]))


def softmax(input, axis=-1, *, dtype=None):
    """exp(input) / sum(exp(input)) along `axis`; `dtype` casts the input first."""
    _check_tensor("softmax", "input", input)
    axis = _check_axis("softmax", axis)
    if dtype is not None:
        input = _cast(input, dtype)
    return prim("Softmax", axis=(axis,))(input)


def log_softmax(logits, axis=-1):
    """logits - log(sum(exp(logits))) along `axis`, computed by log-sum-exp."""
    _check_tensor("log_softmax", "logits", logits)
    axis = _check_axis("log_softmax", axis)
    return prim("LogSoftmax", axis=axis)(logits)


_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(api, reduction, allowed=_REDUCTIONS):
    if reduction not in allowed:
        raise ValueError(f"{api}: 'reduction' must be one of {', '.join(map(repr, allowed))}, but got {reduction!r}")
    return reduction


def _reduce(api, loss, reduction):
    if _check_reduction(api, reduction) == "none":
        return loss
    return prim("ReduceMean" if reduction == "mean" else "ReduceSum")(loss, ())


def _ones_like_classes(x, classes):
    return prim("Ones")((classes,), x.dtype)  # not through NumPy: 3.6 -> 0.7 us, once per loss call


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction='mean'):
    """Binary cross entropy of sigmoid(input) against target, computed from the logits without overflow."""
    _check_float_tensor("binary_cross_entropy_with_logits", "input", input)
    one = Tensor(1.0, input.dtype)
    return prim("BCEWithLogitsLoss", reduction=_check_reduction("binary_cross_entropy_with_logits", reduction))(
        input, target, one if weight is None else weight, one if pos_weight is None else pos_weight)


def binary_cross_entropy(logits, labels, weight=None, reduction='mean'):
    """Binary cross entropy of probabilities `logits` against `labels` (each log clamped at -100)."""
    _check_float_tensor("binary_cross_entropy", "logits", logits)
    return prim("BinaryCrossEntropy", reduction=_check_reduction("binary_cross_entropy", reduction))(
        logits, labels, Tensor(1.0, logits.dtype) if weight is None else weight)


def _classes_last(api, inputs, target):
    """(N, C, d1, ...) log-probabilities and (N, d1, ...) targets as (M, C) and (M,)."""
    if inputs.ndim < 1:
        raise ValueError(f"{api}: 'inputs' must have a class dimension, but got a 0-d tensor")
    if inputs.ndim == 1:
        return inputs.reshape(1, -1), target.reshape(1)
    if inputs.ndim > 2:
        perm = (0,) + tuple(range(2, inputs.ndim)) + (1,)
        inputs = prim("Transpose")(inputs, perm)
    return inputs.reshape(-1, inputs.shape[-1]), target.reshape(-1)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
    """Negative log-likelihood of class indices `target` under log-probabilities `inputs` (N, C, d1, ...)."""
    _check_float_tensor("nll_loss", "inputs", inputs)
    _check_tensor("nll_loss", "target", target)
    _check_reduction("nll_loss", reduction)
    label_smoothing = _check_float_arg("nll_loss", "label_smoothing", label_smoothing)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"nll_loss: 'label_smoothing' must be in [0, 1], but got {label_smoothing}")
    out_shape = (inputs.shape[0],) + tuple(inputs.shape[2:]) if inputs.ndim > 1 else ()
    x, t = _classes_last("nll_loss", inputs, target)
    classes = x.shape[1]
    w = _ones_like_classes(x, classes) if weight is None else weight
    loss, total_weight = prim("NLLLoss", reduction=reduction, ignore_index=int(ignore_index))(x, t, w)
    if label_smoothing > 0:
        # The smoothed part spreads label_smoothing over all classes: -sum_c w_c x[n, c] / C per kept row.
        kept = _cast(_not_equal(t, Tensor(int(ignore_index), t.dtype)), x.dtype)
        smooth = _mul(_neg(prim("ReduceSum")(_mul(x, w), (1,))), kept)
        if reduction == "sum":
            smooth = prim("ReduceSum")(smooth, ())
        elif reduction == "mean":
            smooth = prim("RealDiv")(prim("ReduceSum")(smooth, ()), total_weight)
        loss = _add(_mul(loss, 1.0 - label_smoothing), _mul(smooth, label_smoothing / classes))
    return loss.reshape(out_shape) if reduction == "none" else loss


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
    """Cross entropy of softmax(input) (N, C, d1, ...) against class indices or class probabilities."""
    _check_float_tensor("cross_entropy", "input", input)
    _check_tensor("cross_entropy", "target", target)
    _check_reduction("cross_entropy", reduction)
    if input.ndim == 0:
        raise ValueError("cross_entropy: 'input' must have a class dimension, but got a 0-d tensor")
    if target.dtype not in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        return _cross_entropy_of_indices(input, target, weight, ignore_index, reduction, label_smoothing)
    class_axis = 1 if input.ndim > 1 else 0
    log_probs = prim("LogSoftmax", axis=class_axis)(input)
    # Class probabilities: -sum_c w_c target_c log p_c per sample, the batch mean for 'mean'.
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"cross_entropy: class-probability 'target' must have the shape of 'input' {input.shape}, "
                         f"but got {target.shape}")
    label_smoothing = _check_float_arg("cross_entropy", "label_smoothing", label_smoothing)
    classes = input.shape[class_axis]
    if label_smoothing > 0:
        target = _add(_mul(target, 1.0 - label_smoothing), label_smoothing / classes)
    weighted = _mul(log_probs, target)
    if weight is not None:
        weighted = _mul(weighted, weight.reshape((classes,) + (1,) * (input.ndim - class_axis - 1)))
    loss = _neg(prim("ReduceSum")(weighted, (class_axis,)))
    if reduction == "mean":
        batch = input.shape[0] if input.ndim > 1 else 1
        return prim("RealDiv")(prim("ReduceSum")(loss, ()), float(batch))
    return _reduce("cross_entropy", loss, reduction)


def _cross_entropy_of_indices(input, target, weight, ignore_index, reduction, label_smoothing):
    """cross_entropy against class indices: the CrossEntropy primitive over (M, C) rows (Note [Cross
    entropy in one op])."""
    label_smoothing = _check_float_arg("cross_entropy", "label_smoothing", label_smoothing)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"cross_entropy: 'label_smoothing' must be in [0, 1], but got {label_smoothing}")
    if input.ndim > 1 and tuple(target.shape) != (input.shape[0],) + tuple(input.shape[2:]):
        raise ValueError(f"cross_entropy: class-index 'target' must have shape "
                         f"{(input.shape[0],) + tuple(input.shape[2:])} for 'input' of shape {input.shape}, "
                         f"but got {target.shape}")
    out_shape = (input.shape[0],) + tuple(input.shape[2:]) if input.ndim > 1 else ()
    x, t = _classes_last("cross_entropy", input, target)
    w = _ones_like_classes(x, x.shape[1]) if weight is None else weight
    loss = prim("CrossEntropy", reduction=reduction, ignore_index=int(ignore_index),
                label_smoothing=label_smoothing)(x, t, w)[0]
    return loss.reshape(out_shape) if reduction == "none" else loss


def mse_loss(input, target, reduction='mean'):
    """(input - target)^2, reduced."""
    _check_float_tensor("mse_loss", "input", input)
    diff = _sub(input, target)
    return _reduce("mse_loss", _mul(diff, diff), reduction)


def l1_loss(input, target, reduction='mean'):
    """|input - target|, reduced."""
    _check_float_tensor("l1_loss", "input", input)
    diff = _sub(input, target)
    return _reduce("l1_loss", _maximum(diff, _neg(diff)), reduction)


def smooth_l1_loss(input, target, beta=1.0, reduction='none'):
    """0.5 (input - target)^2 / beta where |input - target| < beta, else |input - target| - 0.5 beta."""
    _check_float_tensor("smooth_l1_loss", "input", input)
    return prim("SmoothL1Loss", beta=_check_float_arg("smooth_l1_loss", "beta", beta),
                reduction=_check_reduction("smooth_l1_loss", reduction))(input, target)


def kl_div(logits, labels, reduction='mean'):
    """labels * (log(labels) - logits), logits being log-probabilities; 'batchmean' divides the sum by the batch."""
    _check_float_tensor("kl_div", "logits", logits)
    return prim("KLDivLoss", reduction=_check_reduction("kl_div", reduction, _REDUCTIONS + ("batchmean",)))(
        logits, labels)


def dropout(input, p=0.5, training=True, seed=None):
    """Zeroes each element with probability `p` and scales the rest by 1 / (1 - p); identity unless training.

    The mask's seeds come from the global generator (ms.set_seed), so a seeded script is reproducible
    while successive calls draw different masks; `seed` fixes the first of the two.
    """
    _check_float_tensor("dropout", "input", input)
    p = _check_float_arg("dropout", "p", p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout: 'p' must be in [0, 1], but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return _mul(input, 0.0)
    rng = _seed._global_rng()
    seed0 = int(seed) if seed is not None else int(rng.integers(1, 2**31))
    seed1 = int(rng.integers(1, 2**31))
    # A fresh primitive, not the cached one: the seeds change every call and must not fill the cache.
    return _C.Primitive("Dropout", {"keep_prob": 1.0 - p, "Seed0": seed0, "Seed1": seed1})(input)[0]


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """Rows of `weight` (num_embeddings, dim) at the integer indices `input`; shape input.shape + (dim,).

    `padding_idx` names a row whose gradient stays zero (negative counts from the end);
    `scale_grad_by_freq` divides each row's gradient by its index's count in `input`. `max_norm`
    (renormalizing `weight` in place) is not supported: renormalize the table before the call.
    """
    _check_tensor("embedding", "input", input)
    _check_float_tensor("embedding", "weight", weight)
    if max_norm is not None:
        raise ValueError("embedding: 'max_norm' is not supported (it rewrites 'weight' in place); renormalize the "
                         "table explicitly before the lookup")
    rows = weight.shape[0] if weight.ndim else 0
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise ValueError(f"embedding: 'padding_idx' must be in [{-rows}, {rows}), but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += rows
    return prim("Embedding")(input, weight, int(padding_idx), bool(scale_grad_by_freq))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    """softmax(query key^T * scale + mask) value over (..., L, E) queries and (..., S, E) keys.

    `attn_mask` is a Bool tensor (True = attend) or a float tensor added to the scores, broadcasting to
    (..., L, S); `is_causal` masks keys after each query's position; `scale` defaults to 1 / sqrt(E).
    A query row with every key masked gives NaN, as exp(-inf) has nothing to normalize by.
    """
    api = "scaled_dot_product_attention"
    for arg, t in (("query", query), ("key", key), ("value", value)):
        _check_float_tensor(api, arg, t)
        if t.ndim < 2:
            raise ValueError(f"{api}: '{arg}' must have rank >= 2 (..., length, features), but got shape {t.shape}")
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(f"{api}: 'query' and 'key' must have the same feature size, but got {query.shape[-1]} "
                         f"and {key.shape[-1]}")
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(f"{api}: 'key' and 'value' must have the same length, but got {key.shape[-2]} and "
                         f"{value.shape[-2]}")
    if is_causal and attn_mask is not None:
        raise ValueError(f"{api}: give either 'attn_mask' or 'is_causal', not both")
    if scale is not None:
        scale = _check_float_arg(api, "scale", scale)
    else:  # 1 / sqrt(0) is inf for features of size 0, as in PyTorch: its products are 0 or NaN
        scale = 1.0 / math.sqrt(query.shape[-1]) if query.shape[-1] else math.inf
    scores = _mul(prim("BatchMatMul", transpose_b=True)(query, key), scale)
    length, keys = query.shape[-2], key.shape[-2]
    if is_causal:
        bias = np.triu(np.full((length, keys), -np.inf), 1)
        scores = _add(scores, Tensor(bias, scores.dtype))
    elif attn_mask is not None:
        _check_tensor(api, "attn_mask", attn_mask)
        if attn_mask.dtype == mstype.bool_:
            attn_mask = prim("Log")(_cast(attn_mask, scores.dtype))  # True -> 0, False -> -inf
        scores = _add(scores, attn_mask)
    weights = prim("Softmax", axis=(-1,))(scores)
    if _check_float_arg(api, "dropout_p", dropout_p) > 0.0:
        weights = dropout(weights, dropout_p)
    return prim("BatchMatMul")(weights, value)


def _check_cell(api, input, hx, w_ih, w_hh, b_ih, b_hh, gates):
    for arg, t in (("input", input), ("hx", hx), ("w_ih", w_ih), ("w_hh", w_hh)):
        _check_float_tensor(api, arg, t)
        if t.ndim != 2:
            raise ValueError(f"{api}: '{arg}' must be 2-d, but got shape {t.shape}")
    hidden = hx.shape[1]
    if tuple(w_ih.shape) != (gates * hidden, input.shape[1]):
        raise ValueError(f"{api}: 'w_ih' must have shape {(gates * hidden, input.shape[1])} for input features "
                         f"{input.shape[1]} and hidden size {hidden}, but got {w_ih.shape}")
    if tuple(w_hh.shape) != (gates * hidden, hidden):
        raise ValueError(f"{api}: 'w_hh' must have shape {(gates * hidden, hidden)}, but got {w_hh.shape}")
    for arg, b in (("b_ih", b_ih), ("b_hh", b_hh)):
        if b is not None:
            _check_float_tensor(api, arg, b)
            if tuple(b.shape) != (gates * hidden,):
                raise ValueError(f"{api}: '{arg}' must have shape {(gates * hidden,)}, but got {b.shape}")
    return hidden


def _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh):
    """The two matmuls of a cell step, and its biases (zeros where not given: the fused ops take both)."""
    matmul = prim("MatMul", transpose_b=True)
    zeros = None
    if b_ih is None or b_hh is None:
        zeros = Tensor(np.zeros(w_ih.shape[0]), w_ih.dtype)
    return (matmul(input, w_ih), matmul(hx, w_hh), zeros if b_ih is None else b_ih, zeros if b_hh is None else b_hh)


def lstm_cell(input, hx, cx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: gates = input w_ih^T + b_ih + hx w_hh^T + b_hh split as (i, f, g, o); returns (h, c).

    Two MatMuls, then the fused LSTMCellPointwise op for the gates' activations and the new state.
    """
    _check_cell("lstm_cell", input, hx, w_ih, w_hh, b_ih, b_hh, 4)
    _check_float_tensor("lstm_cell", "cx", cx)
    if cx.shape != hx.shape:
        raise ValueError(f"lstm_cell: 'cx' must have the shape of 'hx' {hx.shape}, but got {cx.shape}")
    input_gates, hidden_gates, b_ih, b_hh = _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    return prim("LSTMCellPointwise")(input_gates, hidden_gates, cx, b_ih, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step with gates (r, z, n): n = tanh(x_n + r * h_n); returns (1 - z) * n + z * hx.

    x = input w_ih^T + b_ih and h = hx w_hh^T + b_hh: two MatMuls, then the fused GRUCellPointwise op.
    """
    _check_cell("gru_cell", input, hx, w_ih, w_hh, b_ih, b_hh, 3)
    input_gates, hidden_gates, b_ih, b_hh = _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    return prim("GRUCellPointwise")(input_gates, hidden_gates, hx, b_ih, b_hh)


__all__ = ["relu", "relu6", "leaky_relu", "prelu", "elu", "gelu", "silu", "mish", "hardswish", "hardsigmoid",
           "sigmoid", "softplus", "logsigmoid", "softsign", "hardtanh", "selu", "celu", "glu", "softmax",
           "log_softmax", "binary_cross_entropy_with_logits", "binary_cross_entropy", "nll_loss", "cross_entropy",
           "mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "dropout", "embedding", "scaled_dot_product_attention",
           "lstm_cell", "gru_cell"]

# Also Tensor methods (x.sigmoid(), x.softmax(axis) ...).
TENSOR_METHODS = ["relu", "sigmoid", "softmax", "log_softmax", "softplus"]
