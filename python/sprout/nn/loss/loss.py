"""Losses (``mindspore.nn`` loss cells). LossBase handles the reduction and per-element weights."""
from sprout.nn.cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Base of custom losses: compute the elementwise loss in construct, then ``self.get_loss(x)``."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{type(self).__name__}: 'reduction' must be one of {_REDUCTIONS}, but got {reduction!r}")
        self.reduction = reduction
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
    """mean((logits - labels)^2) (or sum / none)."""

    def construct(self, logits, labels):
        diff = logits - labels
        return self.get_loss(diff * diff)
