"""Records of LSTMRecurrence, GRURecurrence and their Grad ops (Note [The recurrence as one op] in
src/ops/nn_rnn_sequence.cc) against a NumPy loop over the steps. The grad op's inputs are sampled freely
(not as the forward's outputs): the op is defined on any values, and its rule is checked on them."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.nn_rnn_cell import _gru_grad_ref, _gru_ref, _lstm_grad_ref, _lstm_ref
from op_records.record import FLOAT_DTYPES, OpRecord

# float16/bfloat16 round the inputs and the outputs; the steps run in float32 in between.
TOL = {ms.float32: (1e-5, 1e-5), ms.float16: (5e-3, 5e-3), ms.bfloat16: (4e-2, 4e-2)}


def _order(steps, reverse):
    return range(steps - 1, -1, -1) if reverse else range(steps)


def _recurrence_ref(reverse):
    def ref(gx, h0, c0, w):
        zero = np.zeros(w.shape[0])
        y, cells, hg = np.zeros(gx.shape[:2] + h0.shape[1:]), np.zeros(gx.shape[:2] + h0.shape[1:]), np.zeros(gx.shape)
        h, c = h0, c0
        for t in _order(gx.shape[0], reverse):
            hg[t] = h @ w.T
            h, c = _lstm_ref(gx[t], hg[t], c, zero, zero)
            y[t], cells[t] = h, c
        return [y, cells, hg]
    return ref


def _recurrence_grad_ref(reverse):
    def ref(gx, h0, c0, w, y, cells, hg, dy, dcells, dhg):
        steps = gx.shape[0]
        dy, dcells, dhg = (np.broadcast_to(v, s.shape) for v, s in ((dy, y), (dcells, cells), (dhg, hg)))
        zero = np.zeros(w.shape[0])
        d_gates, dw = np.zeros(gx.shape), np.zeros(w.shape)
        dh, dc = np.zeros(h0.shape), np.zeros(c0.shape)
        order = list(_order(steps, reverse))
        for k in reversed(range(steps)):
            t = order[k]
            h_prev, c_prev = (h0, c0) if k == 0 else (y[order[k - 1]], cells[order[k - 1]])
            d_gates[t], dc = _lstm_grad_ref(gx[t], hg[t], c_prev, zero, zero, dy[t] + dh, dcells[t] + dc)
            d_ah = d_gates[t] + dhg[t]
            dh = d_ah @ w
            dw += d_ah.T @ h_prev
        return [d_gates, dh, dc, dw]
    return ref


def _shapes(steps, batch, hidden, sensitivities=None):
    g, s = (steps, batch, 4 * hidden), (steps, batch, hidden)
    forward = (g, (batch, hidden), (batch, hidden), (4 * hidden, hidden))
    if sensitivities is None:
        return forward
    return forward + (s, s, g) + tuple(full if k == "full" else () for k, full in zip(sensitivities, (s, s, g)))


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.zeros(shape), dtype)


def _bad(op, grad):
    """Bad inputs (3 steps, batch 2, hidden 3)."""
    call = getattr(ops, op)(reverse=False)
    g, s, seq = (3, 2, 12), (2, 3), (3, 2, 3)
    rest = [_t(*seq), _t(*seq), _t(*g), _t(*seq), _t(*seq), _t(*g)] if grad else []
    cases = [
        (lambda: call(_t(*g, dtype=ms.int32), _t(*s), _t(*s), _t(12, 3), *rest), TypeError,
         rf"{op}: 'input_gates' must have dtype in \[Float16, BFloat16, Float32, Float64\], but got Int32"),
        (lambda: call(_t(*g), _t(*s, dtype=ms.float64), _t(*s), _t(12, 3), *rest), TypeError,
         rf"{op}: 'h0' must have the dtype of 'input_gates' \(Float32\), but got Float64"),
        (lambda: call(_t(3, 2, 13), _t(*s), _t(*s), _t(12, 3), *rest), ValueError,
         rf"{op}: 'input_gates' must be 3-d \(steps, batch, 4 \* hidden\), but got shape \(3, 2, 13\)"),
        (lambda: call(_t(0, 2, 12), _t(*s), _t(*s), _t(12, 3), *rest), ValueError,
         rf"{op}: 'input_gates' must have at least one step, but got shape \(0, 2, 12\)"),
        (lambda: call(_t(*g), _t(*s), _t(2, 4), _t(12, 3), *rest), ValueError,
         rf"{op}: 'c0' must have shape \(2, 3\) \(\(batch, hidden\)\), but got \(2, 4\)"),
        (lambda: call(_t(*g), _t(*s), _t(*s), _t(3, 12), *rest), ValueError,
         rf"{op}: 'weight_hh' must have shape \(12, 3\) \(\(4 \* hidden, hidden\)\), but got \(3, 12\)"),
    ]
    if grad:
        cases.append((lambda: call(_t(*g), _t(*s), _t(*s), _t(12, 3), *rest[:3], _t(3, 2, 4), *rest[4:]), ValueError,
                      rf"{op}: 'dy' must have shape \(3, 2, 3\) \(\(steps, batch, hidden\)\) or be 0-d, "
                      r"but got \(3, 2, 4\)"))
    return cases


def _records(reverse):
    forward = OpRecord(
        "LSTMRecurrence", lambda *t: ops.LSTMRecurrence(reverse=reverse)(*t), _recurrence_ref(reverse),
        # Hidden 5 and 17 leave tails after the vector loop; batch 0 has no rows.
        [_shapes(3, 2, 5), _shapes(1, 3, 2), _shapes(2, 4, 17), _shapes(2, 0, 3)], FLOAT_DTYPES, low=-1, high=1,
        tol=TOL, prim=lambda: _C.Primitive("LSTMRecurrence", {"reverse": reverse}),
        grad_shapes=[_shapes(3, 2, 3), _shapes(1, 2, 3)], bad=_bad("LSTMRecurrence", False) if not reverse else [])
    # Sensitivities full or 0-d (a broadcast value, as the forward's rule passes a zero for an unread output).
    grad = OpRecord(
        "LSTMRecurrenceGrad", lambda *t: ops.LSTMRecurrenceGrad(reverse=reverse)(*t), _recurrence_grad_ref(reverse),
        [_shapes(3, 2, 5, ("full",) * 3), _shapes(2, 3, 2, ("full", (), ())), _shapes(1, 2, 17, ((), "full", "full")),
         _shapes(2, 0, 3, ("full",) * 3)], FLOAT_DTYPES, low=-1, high=1, tol=TOL,
        prim=lambda: _C.Primitive("LSTMRecurrenceGrad", {"reverse": reverse}),
        grad_shapes=[_shapes(3, 2, 2, ("full",) * 3), _shapes(2, 2, 2, ((), "full", ()))],
        bad=_bad("LSTMRecurrenceGrad", True) if not reverse else [])
    return [forward, grad]


def _gru_recurrence_ref(reverse):
    def ref(gx, h0, w, b):
        zero = np.zeros(w.shape[0])
        y, hg = np.zeros(gx.shape[:2] + h0.shape[1:]), np.zeros(gx.shape)
        h = h0
        for t in _order(gx.shape[0], reverse):
            hg[t] = h @ w.T
            h = y[t] = _gru_ref(gx[t], hg[t], h, zero, b)
        return [y, hg]
    return ref


def _gru_recurrence_grad_ref(reverse):
    def ref(gx, h0, w, b, y, hg, dy, dhg):
        steps = gx.shape[0]
        dy, dhg = np.broadcast_to(dy, y.shape), np.broadcast_to(dhg, hg.shape)
        zero = np.zeros(w.shape[0])
        d_gates, dw, db, dh = np.zeros(gx.shape), np.zeros(w.shape), np.zeros(b.shape), np.zeros(h0.shape)
        order = list(_order(steps, reverse))
        for k in reversed(range(steps)):
            t = order[k]
            h_prev = h0 if k == 0 else y[order[k - 1]]
            d_gates[t], d_hidden, dhx = _gru_grad_ref(gx[t], hg[t], h_prev, zero, b, dy[t] + dh)
            d_ah = d_hidden + dhg[t]
            dh = dhx + d_ah @ w
            dw += d_ah.T @ h_prev
            db += d_hidden.sum(axis=0)  # hidden_gates leaves the bias out
        return [d_gates, dh, dw, db]
    return ref


def _gru_shapes(steps, batch, hidden, sensitivities=None):
    g, s = (steps, batch, 3 * hidden), (steps, batch, hidden)
    forward = (g, (batch, hidden), (3 * hidden, hidden), (3 * hidden,))
    if sensitivities is None:
        return forward
    return forward + (s, g) + tuple(full if k == "full" else () for k, full in zip(sensitivities, (s, g)))


def _gru_bad(op, grad):
    """Bad inputs (3 steps, batch 2, hidden 3)."""
    call = getattr(ops, op)(reverse=False)
    g, s, seq = (3, 2, 9), (2, 3), (3, 2, 3)
    rest = [_t(*seq), _t(*g), _t(*seq), _t(*g)] if grad else []
    cases = [
        (lambda: call(_t(3, 2, 10), _t(*s), _t(9, 3), _t(9), *rest), ValueError,
         rf"{op}: 'input_gates' must be 3-d \(steps, batch, 3 \* hidden\), but got shape \(3, 2, 10\)"),
        (lambda: call(_t(*g), _t(*s), _t(9, 3), _t(8), *rest), ValueError,
         rf"{op}: 'bias_hh' must have shape \(9,\) \(\(3 \* hidden,\)\), but got \(8,\)"),
    ]
    if grad:
        cases.append((lambda: call(_t(*g), _t(*s), _t(9, 3), _t(9), *rest[:3], _t(3, 2, 3)), ValueError,
                      rf"{op}: 'dhidden_gates' must have shape \(3, 2, 9\) \(the shape of input_gates\) or be "
                      r"0-d, but got \(3, 2, 3\)"))
    return cases


def _gru_records(reverse):
    forward = OpRecord(
        "GRURecurrence", lambda *t: ops.GRURecurrence(reverse=reverse)(*t), _gru_recurrence_ref(reverse),
        [_gru_shapes(3, 2, 5), _gru_shapes(1, 3, 2), _gru_shapes(2, 4, 17), _gru_shapes(2, 0, 3)], FLOAT_DTYPES,
        low=-1, high=1, tol=TOL, prim=lambda: _C.Primitive("GRURecurrence", {"reverse": reverse}),
        grad_shapes=[_gru_shapes(3, 2, 3), _gru_shapes(1, 2, 3)], bad=_gru_bad("GRURecurrence", False) if not reverse else [])
    grad = OpRecord(
        "GRURecurrenceGrad", lambda *t: ops.GRURecurrenceGrad(reverse=reverse)(*t), _gru_recurrence_grad_ref(reverse),
        [_gru_shapes(3, 2, 5, ("full", "full")), _gru_shapes(2, 3, 2, ("full", ())),
         _gru_shapes(1, 2, 17, ((), "full")), _gru_shapes(2, 0, 3, ("full", "full"))], FLOAT_DTYPES, low=-1, high=1,
        tol=TOL, prim=lambda: _C.Primitive("GRURecurrenceGrad", {"reverse": reverse}),
        grad_shapes=[_gru_shapes(3, 2, 2, ("full", "full")), _gru_shapes(2, 2, 2, ((), ()))],
        bad=_gru_bad("GRURecurrenceGrad", True) if not reverse else [])
    return [forward, grad]


RECORDS = _records(False) + _records(True) + _gru_records(False) + _gru_records(True)
