"""Dropout (``mindspore.nn.Dropout``, ``Dropout1d/2d/3d``): active only in training mode."""
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


class _ChannelDropout(Cell):
    """Zeroes whole channels with probability p (ops.dropout1d/2d/3d), scaling the rest by 1 / (1 - p)."""

    _function = None

    def __init__(self, p=0.5):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"{type(self).__name__}: 'p' must be a number in [0, 1], but got {p!r}")
        self.p = p

    def construct(self, x):
        return type(self)._function(x, self.p, self.training)

    def extend_repr(self):
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    _function = staticmethod(ops.dropout1d)


class Dropout2d(_ChannelDropout):
    _function = staticmethod(ops.dropout2d)


class Dropout3d(_ChannelDropout):
    _function = staticmethod(ops.dropout3d)
