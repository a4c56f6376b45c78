"""Records of the fused LSTM/GRU cell ops (Note [Fused cell gradients] in src/ops/nn_rnn_cell.cc) and of
ops.lstm_cell / ops.gru_cell, which run MatMul and them."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, OpRecord

# float32: a few ulp of exp/tanh on values up to ~10 (grad ops multiply several of them).
TOL = {ms.float32: (1e-5, 1e-5), ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)}


def _sigmoid(x):
    return 0.5 * (1 + np.tanh(0.5 * x))


def _cell_shapes(gates, batch, hidden, sensitivities=0):
    g, s = (batch, gates * hidden), (batch, hidden)
    return (g, g, s, (gates * hidden,), (gates * hidden,)) + (s,) * sensitivities


def _lstm_parts(ig, hg, cx, bi, bh):
    i, f, g, o = np.split((ig + bi) + (hg + bh), 4, axis=1)
    i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
    c = f * cx + i * g
    return i, f, g, o, c, np.tanh(c)


def _lstm_ref(ig, hg, cx, bi, bh):
    i, f, g, o, c, t = _lstm_parts(ig, hg, cx, bi, bh)
    return [o * t, c]


def _lstm_grad_ref(ig, hg, cx, bi, bh, dh, dc):
    i, f, g, o, c, t = _lstm_parts(ig, hg, cx, bi, bh)
    dc = dc + dh * o * (1 - t * t)
    d_gates = np.concatenate([dc * g * i * (1 - i), dc * cx * f * (1 - f), dc * i * (1 - g * g),
                              dh * t * o * (1 - o)], axis=1)
    return [d_gates, dc * f]


def _gru_parts(ig, hg, hx, bi, bh):
    (xr, xz, xn), (hr, hz, hn) = np.split(ig + bi, 3, axis=1), np.split(hg + bh, 3, axis=1)
    r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
    return r, z, np.tanh(xn + r * hn), hn


def _gru_ref(ig, hg, hx, bi, bh):
    r, z, n, _ = _gru_parts(ig, hg, hx, bi, bh)
    return (1 - z) * n + z * hx


def _gru_grad_ref(ig, hg, hx, bi, bh, dh):
    r, z, n, hn = _gru_parts(ig, hg, hx, bi, bh)
    dn = dh * (1 - z) * (1 - n * n)
    dz = dh * (hx - n) * z * (1 - z)
    dr = dn * hn * r * (1 - r)
    return [np.concatenate([dr, dz, dn], axis=1), np.concatenate([dr, dz, dn * r], axis=1), dh * z]


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.zeros(shape), dtype)


def _bad(op, gates, extra):
    """Bad inputs of cell op `op` (batch 2, hidden 3); `extra` more (2, 3) sensitivity inputs."""
    g, s, b = (2, gates * 3), (2, 3), (gates * 3,)
    call = getattr(ops, op)()
    rest = [_t(*s)] * extra
    return [
        (lambda: call(_t(*g, dtype=ms.int32), _t(*g), _t(*s), _t(*b), _t(*b), *rest), TypeError,
         rf"{op}: 'input_gates' must have dtype in \[Float16, BFloat16, Float32, Float64\], but got Int32"),
        (lambda: call(_t(*g), _t(*g, dtype=ms.float64), _t(*s), _t(*b), _t(*b), *rest), TypeError,
         rf"{op}: 'hidden_gates' must have the dtype of 'input_gates' \(Float32\), but got Float64"),
        (lambda: call(_t(2, gates * 3 + 1), _t(*g), _t(*s), _t(*b), _t(*b), *rest), ValueError,
         rf"{op}: 'input_gates' must be 2-d \(batch, {gates} \* hidden\), but got shape \(2, {gates * 3 + 1}\)"),
        (lambda: call(_t(*g), _t(*g), _t(2, 4), _t(*b), _t(*b), *rest), ValueError,
         rf"{op}: '(cx|hx)' must have shape \(2, 3\) \(\(batch, hidden\)\), but got \(2, 4\)"),
        (lambda: call(_t(*g), _t(*g), _t(*s), _t(*b), _t(1, gates * 3), *rest), ValueError,
         rf"{op}: 'hidden_bias' must have shape \({gates * 3},\) \(\(gates \* hidden,\)\), but got \(1, {gates * 3}\)"),
    ] + ([(lambda: call(_t(*g), _t(*g), _t(*s), _t(*b), _t(*b), *rest[:-1], _t(3, 3)), ValueError,
           rf"{op}: 'd\w+' must have shape \(2, 3\) \(\(batch, hidden\)\), but got \(3, 3\)")] if extra else [])


# Hidden 5 and 17 leave tails after the vector loop (at any lane count); batch 0 is an empty step.
def _shapes(gates, sensitivities=0):
    return [_cell_shapes(gates, b, h, sensitivities) for b, h in ((3, 2), (2, 5), (4, 17), (0, 3))]


def _grad_shapes(gates, sensitivities=0):
    return [_cell_shapes(gates, 2, 3, sensitivities)]


def _cell_record(op, ref, gates, sensitivities, grad_outputs):
    return OpRecord(op, lambda *t: getattr(ops, op)()(*t), ref, _shapes(gates, sensitivities), FLOAT_DTYPES, tol=TOL,
                    prim=lambda: _C.Primitive(op), grad_shapes=_grad_shapes(gates, sensitivities),
                    grad_outputs=grad_outputs, bad=_bad(op, gates, sensitivities))


RECORDS = [
    _cell_record("LSTMCellPointwise", _lstm_ref, 4, 0, (0, 1)),
    _cell_record("LSTMCellPointwiseGrad", _lstm_grad_ref, 4, 2, (0, 1)),
    _cell_record("GRUCellPointwise", _gru_ref, 3, 0, (0,)),
    _cell_record("GRUCellPointwiseGrad", _gru_grad_ref, 3, 1, (0, 1, 2)),
]


# The functional cells: MatMul, then the fused op (biases optional).
def _lstm_cell_ref(x, hx, cx, w_ih, w_hh, b_ih=None, b_hh=None):
    zeros = np.zeros(w_ih.shape[0])
    return _lstm_ref(x @ w_ih.T, hx @ w_hh.T, cx, zeros if b_ih is None else b_ih, zeros if b_hh is None else b_hh)


def _gru_cell_ref(x, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    zeros = np.zeros(w_ih.shape[0])
    return _gru_ref(x @ w_ih.T, hx @ w_hh.T, hx, zeros if b_ih is None else b_ih, zeros if b_hh is None else b_hh)


_FUNC_TOL = {ms.float32: (1e-5, 1e-5), ms.float16: (1e-2, 1e-2), ms.bfloat16: (6e-2, 6e-2)}
_LSTM_W = ((2, 4), (2, 3), (2, 3), (12, 4), (12, 3))  # input 4, hidden 3, batch 2
_GRU_W = ((2, 4), (2, 3), (9, 4), (9, 3))

RECORDS += [
    OpRecord("LSTMCellPointwise", ops.lstm_cell, _lstm_cell_ref, [_LSTM_W + ((12,), (12,)), _LSTM_W], FLOAT_DTYPES,
             low=-1, high=1, tol=_FUNC_TOL,
             bad=[(lambda: ops.lstm_cell(_t(2, 4), _t(2, 3), _t(2, 3), _t(12, 4), _t(12, 3), _t(12), _t(11)),
                   ValueError, r"lstm_cell: 'b_hh' must have shape \(12,\), but got \(11,\)"),
                  (lambda: ops.lstm_cell(_t(2, 4), _t(2, 3), _t(2, 3, dtype=ms.int32), _t(12, 4), _t(12, 3)),
                   TypeError, r"lstm_cell: 'cx' must be a floating-point tensor, but got Int32"),
                  (lambda: ops.lstm_cell(_t(2, 4), _t(2, 3), _t(3, 3), _t(12, 4), _t(12, 3)), ValueError,
                   r"lstm_cell: 'cx' must have the shape of 'hx' \(2, 3\), but got \(3, 3\)")]),
    OpRecord("GRUCellPointwise", ops.gru_cell, _gru_cell_ref, [_GRU_W + ((9,), (9,)), _GRU_W], FLOAT_DTYPES,
             low=-1, high=1, tol=_FUNC_TOL,
             bad=[(lambda: ops.gru_cell(_t(2, 4), _t(2, 3), _t(9, 4), _t(9, 3), _t(8)), ValueError,
                   r"gru_cell: 'b_ih' must have shape \(9,\), but got \(8,\)")]),
]
