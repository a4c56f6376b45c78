"""Dropout (``mindspore.nn.Dropout``): active only in training mode."""
from sprout import ops
from sprout.nn.cell import Cell


class Dropout(Cell):
    """Zeroes elements with probability p (MindSpore 2.x: give p; keep_prob = 1 - p is the older spelling)."""

    def __init__(self, keep_prob=None, p=None, dtype=None):
        super().__init__()
        if p is None:
            p = 0.5 if keep_prob is None else 1.0 - keep_prob
        if not 0 <= p < 1:
            raise ValueError(f"Dropout: 'p' must be in [0, 1), but got {p!r}")
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        return ops.dropout(x, p=self.p, training=True)

    def extend_repr(self):
        return f"p={self.p}"
