"""mint.nn.functional's losses: PyTorch's argument order (input, target, ..., reduction) over sprout.ops."""
from sprout import ops
from sprout.mint._checks import check_number, check_reduction, tensor

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss", "cross_entropy",
           "kl_div", "l1_loss", "mse_loss", "nll_loss", "smooth_l1_loss", "soft_margin_loss"]

_F = "mint.nn.functional."


def _pair(api, input, target):
    x, t = tensor(input, api), tensor(target, api, "target")
    if x.shape != t.shape:
        raise ValueError(f"{api}: 'input' and 'target' must have the same shape, but got {x.shape} and {t.shape}")
    return x, t


def _reduce(loss, reduction):
    if reduction == "mean":
        return ops.mean(loss)
    return ops.sum(loss) if reduction == "sum" else loss


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """-(target * log(input) + (1 - target) * log(1 - input)), input probabilities."""
    api = _F + "binary_cross_entropy"
    x, t = _pair(api, input, target)
    return ops.binary_cross_entropy(x, t, weight, check_reduction(reduction, api))


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    """binary_cross_entropy of sigmoid(input), computed stably; `pos_weight` weighs the positive term."""
    api = _F + "binary_cross_entropy_with_logits"
    x, t = _pair(api, input, target)
    return ops.binary_cross_entropy_with_logits(x, t, weight, pos_weight, check_reduction(reduction, api))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(input1, input2) where target is 1; max(0, cos - margin) where it is -1."""
    api = _F + "cosine_embedding_loss"
    return ops.cosine_embedding_loss(tensor(input1, api, "input1"), tensor(input2, api, "input2"),
                                     tensor(target, api, "target"), float(check_number(margin, api, "margin")),
                                     check_reduction(reduction, api))


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits (N, C, ...) against class indices (N, ...) or class probabilities (N, C, ...)."""
    api = _F + "cross_entropy"
    return ops.cross_entropy(tensor(input, api), tensor(target, api, "target"), weight, ignore_index,
                             check_reduction(reduction, api), float(label_smoothing))


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """-input[n, target[n]] (weighted), input log-probabilities (N, C, ...)."""
    api = _F + "nll_loss"
    return ops.nll_loss(tensor(input, api), tensor(target, api, "target"), weight, ignore_index,
                        check_reduction(reduction, api))


def kl_div(input, target, reduction="mean", log_target=False):
    """target * (log(target) - input), input log-probabilities (target too with `log_target`); reduction
    'none', 'mean' (over elements), 'sum' or 'batchmean' (the sum over the batch size)."""
    api = _F + "kl_div"
    x, t = tensor(input, api), tensor(target, api, "target")
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{api}: 'reduction' must be 'none', 'mean', 'sum' or 'batchmean', but got {reduction!r}")
    if log_target:
        loss = ops.mul(ops.exp(t), ops.sub(t, x))
    else:
        loss = ops.sub(ops.xlogy(t, t), ops.mul(t, x))
    if reduction == "batchmean":
        return ops.div(ops.sum(loss), x.shape[0] if x.ndim else 1)
    return _reduce(loss, reduction)


def l1_loss(input, target, reduction="mean"):
    """|input - target|."""
    api = _F + "l1_loss"
    return _reduce(ops.abs(ops.sub(*_pair(api, input, target))), check_reduction(reduction, api))


def mse_loss(input, target, reduction="mean"):
    """(input - target)^2, input and target broadcast."""
    api = _F + "mse_loss"
    return _reduce(ops.square(ops.sub(tensor(input, api), tensor(target, api, "target"))),
                   check_reduction(reduction, api))


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = input - target)."""
    api = _F + "smooth_l1_loss"
    if beta < 0:
        raise ValueError(f"{api}: 'beta' must be non-negative, but got {beta}")
    x, t = _pair(api, input, target)
    d = ops.abs(ops.sub(x, t))
    if beta == 0:
        return _reduce(d, check_reduction(reduction, api))
    loss = ops.where(ops.lt(d, beta), ops.div(ops.mul(ops.square(d), 0.5), beta), ops.sub(d, 0.5 * beta))
    return _reduce(loss, check_reduction(reduction, api))


def soft_margin_loss(input, target, reduction="mean"):
    """log(1 + exp(-target * input)), target -1 or 1."""
    api = _F + "soft_margin_loss"
    x, t = _pair(api, input, target)
    return _reduce(ops.softplus(ops.neg(ops.mul(t, x))), check_reduction(reduction, api))
