"""Recurrent layers: RNN, LSTM and GRU, multi-layer and bidirectional (``mindspore.nn.RNN``/``LSTM``/``GRU``).

Each layer projects the whole sequence onto its input weights in one MatMul, adding there the biases a
step would add unchanged, then runs the recurrence: for LSTM and GRU as one op, LSTMRecurrence /
GRURecurrence (per step a product of the hidden state and the fused cell of ops.lstm_cell / ops.gru_cell;
the steps and their backward in C++, Note [The recurrence as one op] in src/ops/nn_rnn_sequence.cc); for
RNN a MatMul and the activation per step.
Parameters follow the usual names per layer and direction: weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k},
bias_hh_l{k}, with a _reverse suffix for the backward direction; initialized uniformly in
+-1/sqrt(hidden_size).
"""
import math

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell

# The steps of a direction are one op (Note [The recurrence as one op] in src/ops/nn_rnn_sequence.cc): the
# input's matmul is taken out of the time loop, and the backward through time runs in C++.
_matmul_t = ops.MatMul(transpose_b=True)
_lstm_recurrence = {False: ops.LSTMRecurrence(reverse=False), True: ops.LSTMRecurrence(reverse=True)}
_gru_recurrence = {False: ops.GRURecurrence(reverse=False), True: ops.GRURecurrence(reverse=True)}


class _RNNBase(Cell):
    _gates = 1

    def __init__(self, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        api = type(self).__name__
        for name, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
        if not 0 <= dropout < 1:
            raise ValueError(f"{api}: 'dropout' must be in [0, 1), but got {dropout!r}")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first, self.dropout = has_bias, batch_first, dropout
        self.bidirectional = bidirectional
        self.num_directions = 2 if bidirectional else 1
        init = Uniform(1 / math.sqrt(hidden_size))
        gate_size = self._gates * hidden_size
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * self.num_directions
            for suffix in ("", "_reverse")[:self.num_directions]:
                self.insert_param_to_cell(f"weight_ih_l{layer}{suffix}", Parameter(
                    initializer(init, (gate_size, layer_input), dtype), name=f"weight_ih_l{layer}{suffix}"))
                self.insert_param_to_cell(f"weight_hh_l{layer}{suffix}", Parameter(
                    initializer(init, (gate_size, hidden_size), dtype), name=f"weight_hh_l{layer}{suffix}"))
                if has_bias:
                    self.insert_param_to_cell(f"bias_ih_l{layer}{suffix}", Parameter(
                        initializer(init, (gate_size,), dtype), name=f"bias_ih_l{layer}{suffix}"))
                    self.insert_param_to_cell(f"bias_hh_l{layer}{suffix}", Parameter(
                        initializer(init, (gate_size,), dtype), name=f"bias_hh_l{layer}{suffix}"))

    def _weights(self, layer, suffix):
        # Read as attributes: under mixed precision they come cast, and in a graph being staged as its values.
        names = (f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}", f"bias_ih_l{layer}{suffix}",
                 f"bias_hh_l{layer}{suffix}")
        return tuple(getattr(self, name) if name in self._params else None for name in names)

    def _initial_state(self, x, hx, batch):
        shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        if hx is None:
            zeros = Tensor(shape=shape, dtype=x.dtype, init="zeros")
            return zeros, zeros
        if not isinstance(hx, (tuple, list)) or not all(isinstance(state, Tensor) for state in hx):
            given = (f"({', '.join(type(v).__name__ for v in hx)})" if isinstance(hx, (tuple, list))
                     else type(hx).__name__)
            raise TypeError(f"{type(self).__name__}: 'hx' must be a Tensor or a tuple of Tensors, but got {given}")
        for state in hx:
            if tuple(state.shape) != shape:
                raise ValueError(f"{type(self).__name__}: 'hx' must have shape (num_layers * num_directions, batch, "
                                 f"hidden_size) = {shape}, but got {tuple(state.shape)}")
        return hx

    def construct(self, x, hx=None, seq_length=None):
        api = type(self).__name__
        if x.ndim != 3 or x.shape[2] != self.input_size:
            raise ValueError(f"{api}: expects input of shape (seq, batch, {self.input_size}) "
                             f"({'batch first' if self.batch_first else 'sequence first'}), but got {x.shape}")
        if seq_length is not None:
            raise ValueError(f"{api}: 'seq_length' (ragged batches) is not supported; pad the batch instead")
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        steps, batch = x.shape[0], x.shape[1]
        if steps == 0:
            raise ValueError(f"{api}: the input must have at least one step, but got shape {x.shape}")
        h0, c0 = self._initial_state(x, hx if not isinstance(hx, Tensor) else (hx, hx), batch)
        h_n, c_n, layer_input = [], [], x
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(("", "_reverse")[:self.num_directions]):
                k = layer * self.num_directions + d
                h, c = h0[k], c0[k]
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, suffix)
                # The input's share of the gates for every step at once: one (steps * batch) row matmul, not
                # one per step.
                gates = _matmul_t(ops.reshape(layer_input, (steps * batch, w_ih.shape[1])), w_ih)
                if b_ih is not None:
                    # Biases the step adds unchanged join the projection: their gradient becomes one
                    # sum over all steps' rows instead of a sum and an accumulation per step.
                    folded, b_hh = self._fold_biases(b_ih, b_hh)
                    gates = gates + folded
                seq, h, c = self._recurrence(ops.reshape(gates, (steps, batch, w_ih.shape[0])), h, c, w_hh, b_hh,
                                             bool(d))
                outputs.append(seq)
                h_n.append(h)
                c_n.append(c)
            layer_input = ops.concat(outputs, axis=-1) if self.num_directions == 2 else outputs[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = ops.dropout(layer_input, p=self.dropout)
        output = layer_input
        if self.batch_first:
            output = ops.transpose(output, (1, 0, 2))
        return output, self._final_state(ops.stack(h_n, axis=0), ops.stack(c_n, axis=0))

    def extend_repr(self):
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, num_layers={self.num_layers}, "
                f"batch_first={self.batch_first}, bidirectional={self.bidirectional}")


class LSTM(_RNNBase):
    """Returns (output, (h_n, c_n))."""

    _gates = 4

    def _fold_biases(self, b_ih, b_hh):
        """(bias added to the projection, b_hh left to the step): both add to the gates as they are."""
        return b_ih + b_hh, None

    def _recurrence(self, gates, h, c, w_hh, b_hh, reverse):
        """(output, h_n, c_n) of one direction: all steps in one LSTMRecurrence op (biases are folded)."""
        seq, cells, _ = _lstm_recurrence[reverse](gates, h, c, w_hh)
        last = 0 if reverse else gates.shape[0] - 1
        return seq, seq[last], cells[last]

    def _final_state(self, h_n, c_n):
        return h_n, c_n


class GRU(_RNNBase):
    """Returns (output, h_n)."""

    _gates = 3

    def _fold_biases(self, b_ih, b_hh):
        """b_hh stays in the step: the reset gate scales the candidate's hidden part, bias included."""
        return b_ih, b_hh

    def _recurrence(self, gates, h, c, w_hh, b_hh, reverse):
        """(output, h_n, h_n) of one direction: all steps in one GRURecurrence op (b_hh stays in the step)."""
        if b_hh is None:
            b_hh = Tensor(np.zeros(w_hh.shape[0]), w_hh.dtype)
        seq, _ = _gru_recurrence[reverse](gates, h, w_hh, b_hh)
        h_n = seq[0 if reverse else gates.shape[0] - 1]
        return seq, h_n, h_n

    def _final_state(self, h_n, c_n):
        return h_n


class RNN(_RNNBase):
    """The Elman network: h_t = nonlinearity(x_t w_ih^T + b_ih + h_{t-1} w_hh^T + b_hh), nonlinearity 'tanh'
    or 'relu'. Returns (output, h_n)."""

    _gates = 1

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", has_bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, dtype=mstype.float32):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}")
        super().__init__(input_size, hidden_size, num_layers, has_bias, batch_first, dropout, bidirectional, dtype)
        self.nonlinearity = nonlinearity

    def _fold_biases(self, b_ih, b_hh):
        """Both biases add to every step unchanged: they join the projection."""
        return b_ih + b_hh, None

    def _recurrence(self, gates, h, c, w_hh, b_hh, reverse):
        """(output, h_n, h_n) of one direction, a step at a time (the biases are folded into gates)."""
        activation = ops.tanh if self.nonlinearity == "tanh" else ops.relu
        steps = range(gates.shape[0] - 1, -1, -1) if reverse else range(gates.shape[0])
        outputs = [None] * gates.shape[0]
        for t in steps:
            h = activation(gates[t] + _matmul_t(h, w_hh))
            outputs[t] = h
        return ops.stack(outputs, axis=0), h, h

    def _final_state(self, h_n, c_n):
        return h_n

    def extend_repr(self):
        return super().extend_repr() + f", nonlinearity={self.nonlinearity}"
