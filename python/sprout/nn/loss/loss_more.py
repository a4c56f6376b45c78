"""More ``mindspore.nn`` loss cells: thin wrappers of the functional losses in sprout.ops, with MindSpore 2.x
constructor and input names. Arguments are checked when the cell is built, as MindSpore does."""
import math

from sprout import ops
from sprout.common.tensor import Tensor
from sprout.nn.loss.loss import LossBase
from sprout.ops.function.nn_func import _check_float_arg, _check_tensor
from sprout.ops.function.nn_loss_more_func import _check_bool, _check_int, _check_positive


class HuberLoss(LossBase):
    """0.5 (logits - labels)^2 where |logits - labels| < delta, else delta (|logits - labels| - 0.5 delta)."""

    def __init__(self, reduction='mean', delta=1.0):
        super().__init__(reduction)
        self.delta = _check_positive("HuberLoss", "delta", delta)

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class SoftMarginLoss(LossBase):
    """log(1 + exp(-labels * logits)), labels in {1, -1}."""

    def construct(self, logits, labels):
        return ops.soft_margin_loss(logits, labels, self.reduction)


class MarginRankingLoss(LossBase):
    """max(0, -target * (input1 - input2) + margin)."""

    def __init__(self, margin=0.0, reduction='mean'):
        super().__init__(reduction)
        self.margin = _check_float_arg("MarginRankingLoss", "margin", margin)

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """1 - cos(x1, x2) where labels is 1, max(0, cos(x1, x2) - margin) where it is -1 (cosine along axis 1)."""

    def __init__(self, margin=0.0, reduction='mean'):
        super().__init__(reduction)
        margin = _check_float_arg("CosineEmbeddingLoss", "margin", margin)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"CosineEmbeddingLoss: 'margin' must be in [-1, 1], but got {margin}")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        return ops.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin, self.reduction)


class TripletMarginLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0), d the p-norm distance over the last axis.

    As in MindSpore, a `margin` given to the constructor (other than 1.0) wins over the one given to the call.
    """

    def __init__(self, p=2, swap=False, eps=1e-06, reduction='mean', margin=1.0):
        super().__init__(reduction)
        api = "TripletMarginLoss"
        self.p = _check_int(api, "p", p)
        if p < 1:
            raise ValueError(f"{api}: 'p' must be a positive int, but got {p}")
        self.swap = _check_bool(api, "swap", swap)
        self.eps = _check_float_arg(api, "eps", eps)
        self.margin = margin if isinstance(margin, Tensor) else _check_float_arg(api, "margin", margin)

    def construct(self, x, positive, negative, margin=1.0):
        if isinstance(self.margin, Tensor) or self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps, self.swap, self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss of (N, C) scores `x` and (N,) class indices `target`; a `weight` given to the
    constructor wins over the one given to the call, as in MindSpore."""

    def __init__(self, p=1, margin=1.0, reduction='mean', weight=None):
        super().__init__(reduction)
        if _check_int("MultiMarginLoss", "p", p) not in (1, 2):
            raise ValueError(f"MultiMarginLoss: 'p' must be 1 or 2, but got {p}")
        self.p, self.margin = p, _check_float_arg("MultiMarginLoss", "margin", margin)
        if weight is not None:
            _check_tensor("MultiMarginLoss", "weight", weight)
        self.weight = weight

    def construct(self, x, target, weight=None):
        if self.weight is not None:
            weight = self.weight
        return ops.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """Per sample, the class mean of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)), times `weight` if given."""

    def __init__(self, weight=None, reduction='mean'):
        super().__init__(reduction)
        if weight is not None and not isinstance(weight, Tensor):
            _check_float_arg("MultiLabelSoftMarginLoss", "weight", weight)
        self.weight = weight

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log likelihood of `target` counts with rate exp(input) (`log_input`) or `input`:
    exp(input) - target * input, or input - target * log(input + eps); `full` adds Stirling's approximation
    of log(target!), target log(target) - target + 0.5 log(2 pi target), where target > 1."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction='mean'):
        super().__init__(reduction)
        self.log_input = _check_bool("PoissonNLLLoss", "log_input", log_input)
        self.full = _check_bool("PoissonNLLLoss", "full", full)
        self.eps = _check_positive("PoissonNLLLoss", "eps", eps)

    def construct(self, input, target):
        _check_tensor("PoissonNLLLoss", "input", input)
        _check_tensor("PoissonNLLLoss", "target", target)
        if input.ndim == 0 or target.ndim == 0:
            raise ValueError(f"PoissonNLLLoss: 'input' and 'target' must not be 0-d, but got shapes "
                             f"{tuple(input.shape)} and {tuple(target.shape)}")
        if target.dtype != input.dtype:
            target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = ops.exp(input) - target * input
        else:
            loss = input - target * ops.log(input + self.eps)
        if self.full:
            # Clamped so that log() stays finite where the term is masked out (target <= 1).
            t = ops.maximum(target, self.eps)
            stirling = t * ops.log(t) - t + 0.5 * ops.log(2 * math.pi * t)
            loss = loss + ops.where(target > 1, stirling, 0.0)
        return self.get_loss(loss)


class GaussianNLLLoss(LossBase):
    """0.5 (log(max(var, eps)) + (logits - labels)^2 / max(var, eps)), plus 0.5 log(2 pi) when `full`."""

    def __init__(self, *, full=False, eps=1e-6, reduction='mean'):
        super().__init__(reduction)
        self.full = _check_bool("GaussianNLLLoss", "full", full)
        self.eps = _check_positive("GaussianNLLLoss", "eps", eps)

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class RMSELoss(LossBase):
    """sqrt(mean((logits - label)^2)): always a scalar (MindSpore's RMSELoss takes no reduction)."""

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        return ops.sqrt(ops.mse_loss(logits, label))


class MAELoss(LossBase):
    """|logits - label|, reduced."""

    def construct(self, logits, label):
        _check_tensor("MAELoss", "logits", logits)
        _check_tensor("MAELoss", "label", label)
        return self.get_loss(ops.abs(logits - label))


class CTCLoss(LossBase):
    """The connectionist temporal classification loss (ops.ctc_loss) of log_probs (T, N, C) or unbatched
    (T, C) against padded targets (N, S) (or (S,) / (1, S) unbatched)."""

    def __init__(self, blank=0, reduction='mean', zero_infinity=False):
        super().__init__(reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        unbatched = log_probs.ndim == 2
        if unbatched:  # one sequence: a batch of one, whose loss comes back as a scalar (MindSpore)
            log_probs = ops.expand_dims(log_probs, 1)
            targets = ops.reshape(targets, (1, -1))
            input_lengths, target_lengths = (ops.reshape(Tensor(v) if not isinstance(v, Tensor) else v, (1,))
                                             for v in (input_lengths, target_lengths))
        loss = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                            self.zero_infinity)[0]
        return ops.reshape(loss, ()) if unbatched and self.reduction == "none" else loss
