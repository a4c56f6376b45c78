"""Records of CrossEntropy and CrossEntropyGrad (Note [Cross entropy in one op]): every reduction, with and
without label smoothing, some rows ignored; the gradient check covers the logits, the class weights and
(for CrossEntropyGrad) dloss, so second derivatives are checked against finite differences too."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.nn_loss import _labels_sampler, _log_softmax
from op_records.record import OpRecord

IGNORE = 1


def _parts(x, t, w, reduction, e):
    """(per-row losses, row scale for dloss = 1, one-hot rows, label weights, T)."""
    kept = t != IGNORE
    safe = np.where(kept, t, 0)
    hot = np.zeros(x.shape)
    hot[np.arange(x.shape[0]), safe] = kept
    wt = np.where(kept, w[safe], 0.0)
    nll = -_log_softmax(x) if x.size else x
    loss = kept * ((1 - e) * wt * nll[np.arange(x.shape[0]), safe] + e / x.shape[1] * (nll * w).sum(1))
    return loss, kept, hot, wt, wt.sum()


def _lse(x):
    m = x.max(1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(1, keepdims=True)))[:, 0] if x.size else np.zeros(x.shape[0])


def _loss_ref(reduction, e):
    def ref(x, t, w):
        loss, _, _, _, total = _parts(x, t, w, reduction, e)
        return {"none": loss, "sum": loss.sum(), "mean": loss.sum() / total}[reduction], _lse(x)
    return ref


def _grad_ref(reduction, e):
    def ref(x, t, w, lse, d):
        _, kept, hot, wt, total = _parts(x, t, w, reduction, e)
        s = kept * {"none": d, "sum": d, "mean": d / total if total else 0.0}[reduction]
        p = np.exp(x - lse[:, None])
        dx = (1 - e) * wt[:, None] * (p - hot) + e / x.shape[1] * (w.sum() * p - w)
        return s[:, None] * dx
    return ref


def _grad_sampler(rng, shapes, dtype):
    """(x, labels, weight, lse, dloss): lse the rows' own, as CrossEntropy gives it."""
    x, labels, w, _, d = _labels_sampler(lambda s: s[1], ignore=IGNORE, n_float_after=3)(rng, shapes, dtype)
    return [x, labels, w, _lse(x), d]


def _t(*values, dtype=ms.int32):
    return ms.Tensor(np.array(values), dtype)


X, W3 = ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones(3))
BAD = [
    (lambda: ops.CrossEntropy(label_smoothing=1.5)(X, _t(0, 1), W3), ValueError,
     r"CrossEntropy: 'label_smoothing' must be in \[0, 1\], but got 1.5"),
    (lambda: ops.CrossEntropy(reduction="avg")(X, _t(0, 1), W3), ValueError,
     "CrossEntropy: 'reduction' must be one of 'none', 'mean', 'sum', but got 'avg'"),
    (lambda: ops.CrossEntropy()(X, _t(0, 3), W3), ValueError,
     r"CrossEntropy: 'labels' must be class indices in \[0, 3\) or ignore_index -100, but labels\[1\] is 3"),
    (lambda: ops.CrossEntropy()(X, _t(0, 1, 2), W3), ValueError,
     r"CrossEntropy: 'labels' must have shape \(2,\) to match the batch of the logits, but got \(3,\)"),
    (lambda: ops.CrossEntropy()(X, _t(0.0, 1.0, dtype=ms.float32), W3), TypeError, "'labels' must have dtype in"),
    (lambda: ops.CrossEntropy()(X, _t(0, 1), ms.Tensor(np.ones(2))), ValueError,
     r"CrossEntropy: 'weight' must have shape \(3,\), one weight per class, but got \(2,\)"),
    (lambda: ops.CrossEntropy()(X, _t(0, 1), ms.Tensor(np.ones(3), ms.float32)), TypeError,
     r"CrossEntropy: 'weight' must have the dtype of 'logits' \(Float64\), but got Float32"),
    (lambda: ops.CrossEntropy()(ms.Tensor(np.ones(3)), _t(0), W3), ValueError,
     r"CrossEntropy: 'logits' must be 2-d \(batch, classes\), but got shape \(3,\)"),
    (lambda: ops.CrossEntropyGrad(reduction="none")(X, _t(0, 1), W3, W3[:2], ms.Tensor(1.0, ms.float64)), ValueError,
     r"CrossEntropyGrad: 'dloss' must be Float64 of shape \(2,\), but got Float64 of shape \(\)"),
    (lambda: ops.CrossEntropyGrad()(X, _t(0, 1), W3, W3, ms.Tensor(1.0, ms.float64)), ValueError,
     r"CrossEntropyGrad: 'log_sum_exp' must be Float64 of shape \(2,\), but got Float64 of shape \(3,\)"),
    (lambda: ops.cross_entropy(X, _t(0, 1, 1)), ValueError,
     r"cross_entropy: class-index 'target' must have shape \(2,\) for 'input' of shape \(2, 3\), but got \(3,\)"),
    (lambda: ops.cross_entropy(X, _t(0, 1), label_smoothing=-0.1), ValueError,
     r"cross_entropy: 'label_smoothing' must be in \[0, 1\], but got -0.1"),
]

RECORDS = []
for _reduction in ("mean", "sum", "none"):
    for _e in (0.0, 0.2):
        _attrs = {"reduction": _reduction, "ignore_index": IGNORE, "label_smoothing": _e}
        _d = (5,) if _reduction == "none" else ()
        RECORDS += [
            OpRecord("CrossEntropy", lambda x, t, w, a=_attrs: ops.CrossEntropy(**a)(x, t, w), _loss_ref(_reduction, _e),
                     [((5, 4), (5,), (4,)), ((1, 3), (1,), (3,)), ((3, 700), (3,), (700,)), ((0, 3), (0,), (3,))],
                     input_dtypes=(None, ms.int32), sampler=_labels_sampler(lambda s: s[1], ignore=IGNORE, n_float_after=1),
                     prim=lambda a=_attrs: _C.Primitive("CrossEntropy", a), grad_shapes=[((6, 4), (6,), (4,))],
                     grad_outputs=(0, 1), tol={ms.float32: (1e-5, 1e-5)}, bad=BAD if not RECORDS else []),
            OpRecord("CrossEntropyGrad", lambda x, t, w, lse, d, a=_attrs: ops.CrossEntropyGrad(**a)(x, t, w, lse, d),
                     _grad_ref(_reduction, _e), [((5, 4), (5,), (4,), (5,), _d), ((5, 700), (5,), (700,), (5,), _d)],
                     input_dtypes=(None, ms.int64), sampler=_grad_sampler,
                     prim=lambda a=_attrs: _C.Primitive("CrossEntropyGrad", a),
                     grad_shapes=[((5, 4), (5,), (4,), (5,), _d)], tol={ms.float32: (1e-5, 1e-6)}),
        ]
