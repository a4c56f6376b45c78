"""Single recurrent steps as cells (``mindspore.nn.RNNCell``/``LSTMCell``/``GRUCell``): the caller runs the
loop. Parameters weight_ih, weight_hh, bias_ih, bias_hh, initialized uniformly in +-1/sqrt(hidden_size) as
in nn.LSTM; LSTMCell and GRUCell step through ops.lstm_cell / ops.gru_cell (two MatMuls and a fused op)."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell

_ACTIVATIONS = {"tanh": ops.tanh, "relu": ops.relu}


class _CellBase(Cell):
    _gates = 1

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__()
        api = type(self).__name__
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        init, rows = Uniform(1 / math.sqrt(hidden_size)), self._gates * hidden_size
        self.weight_ih = Parameter(initializer(init, (rows, input_size), dtype), name="weight_ih")
        self.weight_hh = Parameter(initializer(init, (rows, hidden_size), dtype), name="weight_hh")
        self.bias_ih = Parameter(initializer(init, (rows,), dtype), name="bias_ih") if has_bias else None
        self.bias_hh = Parameter(initializer(init, (rows,), dtype), name="bias_hh") if has_bias else None

    def _check_input(self, x):
        if x.ndim not in (1, 2) or x.shape[-1] != self.input_size:
            raise ValueError(f"{type(self).__name__}: 'x' must be (batch, {self.input_size}) or ({self.input_size},), "
                             f"but got shape {x.shape}")

    def _zeros(self, x):
        return ops.zeros((x.shape[0], self.hidden_size), x.dtype)

    def extend_repr(self):
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, has_bias={self.has_bias}"


def _batched(cell, x, step):
    """Runs step on a 2-d x; a 1-d x (one sample) as a batch of one, the result without the batch axis."""
    cell._check_input(x)
    if x.ndim == 2:
        return step(x)
    out = step(ops.expand_dims(x, 0))
    return tuple(ops.squeeze(t, 0) for t in out) if isinstance(out, tuple) else ops.squeeze(out, 0)


class RNNCell(_CellBase):
    """h' = nonlinearity(x w_ih^T + b_ih + h w_hh^T + b_hh), nonlinearity 'tanh' or 'relu'."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        if nonlinearity not in _ACTIVATIONS:
            raise ValueError(f"RNNCell: 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}")
        super().__init__(input_size, hidden_size, has_bias, dtype)
        self.nonlinearity = nonlinearity

    def construct(self, x, hx=None):
        def step(x2):
            h = self._zeros(x2) if hx is None else (hx if hx.ndim == 2 else ops.expand_dims(hx, 0))
            pre = ops.matmul(x2, self.weight_ih.T) + ops.matmul(h, self.weight_hh.T)
            if self.has_bias:
                pre = pre + (self.bias_ih + self.bias_hh)
            return _ACTIVATIONS[self.nonlinearity](pre)
        return _batched(self, x, step)


class LSTMCell(_CellBase):
    """One LSTM step: construct(x, (h, c)) returns (h', c'); zero state when hx is None."""

    _gates = 4

    def construct(self, x, hx=None):
        def step(x2):
            if hx is None:
                h = c = self._zeros(x2)
            else:
                h, c = (t if t.ndim == 2 else ops.expand_dims(t, 0) for t in hx)
            return ops.lstm_cell(x2, h, c, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return _batched(self, x, step)


class GRUCell(_CellBase):
    """One GRU step: construct(x, h) returns h'; zero state when hx is None."""

    _gates = 3

    def construct(self, x, hx=None):
        def step(x2):
            h = self._zeros(x2) if hx is None else (hx if hx.ndim == 2 else ops.expand_dims(hx, 0))
            return ops.gru_cell(x2, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return _batched(self, x, step)
