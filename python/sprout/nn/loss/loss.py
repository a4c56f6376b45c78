"""Losses (``mindspore.nn`` loss cells). LossBase handles the reduction and per-element weights; the
others wrap the functional losses of sprout.ops."""
from sprout import ops
from sprout.nn.cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(api, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{api}: 'reduction' must be one of {_REDUCTIONS}, but got {reduction!r}")
    return reduction


class LossBase(Cell):
    """Base of custom losses: compute the elementwise loss in construct, then ``self.get_loss(x)``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = _check_reduction(type(self).__name__, reduction)
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        input_dtype = x.dtype
        x = x.astype(self._compute_dtype(input_dtype), copy=False) * weights
        if self.reduction == "mean":
            x = x.mean()
        elif self.reduction == "sum":
            x = x.sum()
        return x.astype(input_dtype, copy=False)

    @staticmethod
    def _compute_dtype(dtype):
        from sprout.common import dtype as mstype
        return mstype.float32 if dtype in (mstype.float16, mstype.bfloat16) else dtype


class MSELoss(LossBase):
    """(logits - labels)^2, reduced."""

    def construct(self, logits, labels):
        diff = logits - labels
        return self.get_loss(diff * diff)


class L1Loss(LossBase):
    def construct(self, logits, labels):
        return ops.l1_loss(logits, labels, self.reduction)


class SmoothL1Loss(LossBase):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of softmax(logits); sparse=True takes class indices, else one-hot/probabilities.
    MindSpore's default reduction here is 'none'."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = sparse

    def construct(self, logits, labels):
        if not self.sparse:
            labels = labels.astype(logits.dtype, copy=False)
        return ops.cross_entropy(logits, labels, reduction=self.reduction)


class CrossEntropyLoss(LossBase):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, logits, labels):
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(LossBase):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


class KLDivLoss(LossBase):
    """labels * (log(labels) - logits), logits being log-probabilities. reduction 'batchmean' (the sum over the
    batch's size, the mathematical KL divergence) as well as 'none', 'mean' and 'sum'."""

    def __init__(self, reduction="mean"):
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)
