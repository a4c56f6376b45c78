"""Records of the losses."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

X = np.ones((2, 3))


def _log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _reduce(loss, reduction):
    return {"none": loss, "sum": np.sum(loss), "mean": np.mean(loss)}[reduction]


def _softplus(x):
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


def _labels_sampler(classes_of, low=-3.0, high=3.0, ignore=None, n_float_after=0):
    """Logits uniform in [low, high), class indices in [0, C) (some = `ignore`), then float inputs in [0.5, 2)."""
    def sample(rng, shapes, dtype):
        x = rng.uniform(low, high, size=shapes[0])
        c = classes_of(shapes[0])
        labels = rng.integers(0, max(c, 1), size=shapes[1])
        if ignore is not None and labels.size:
            labels[rng.random(labels.shape) < 0.3] = ignore
        return [x, labels] + [rng.uniform(0.5, 2.0, size=s) for s in shapes[2:]]
    return sample


def _uniform_sampler(*ranges):
    def sample(rng, shapes, dtype):
        return [rng.uniform(lo, hi, size=s) for s, (lo, hi) in zip(shapes, ranges)]
    return sample


def _softmax_ce_ref(x, y):
    return (-(y * _log_softmax(x)).sum(-1), np.exp(_log_softmax(x)) - y) if x.size else (np.zeros(x.shape[0]), x)


def _sparse_ref(is_grad):
    def ref(x, t):
        lp = _log_softmax(x)
        n = x.shape[0]
        if is_grad:
            g = np.exp(lp)
            g[np.arange(n), t] -= 1
            return g / n
        return -lp[np.arange(n), t].mean()
    return ref


def _nll_ref(reduction, ignore):
    def ref(x, t, w):
        kept = t != ignore
        safe = np.where(kept, t, 0)
        wt = np.where(kept, w[safe], 0.0)
        loss = -wt * x[np.arange(x.shape[0]), safe]
        total = wt.sum()
        out = {"none": loss, "sum": loss.sum(), "mean": loss.sum() / total}[reduction]
        return out, total
    return ref


def _bce_logits_ref(reduction):
    def ref(x, y, w, pw):
        return _reduce(w * (pw * y * _softplus(-x) + (1 - y) * _softplus(x)), reduction)
    return ref


def _bce_ref(reduction):
    def ref(x, y, w):
        return _reduce(-w * (y * np.maximum(np.log(x), -100) + (1 - y) * np.maximum(np.log(1 - x), -100)), reduction)
    return ref


def _smooth_l1_ref(beta, reduction):
    def ref(x, y):
        d = np.abs(x - y)
        return _reduce(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)
    return ref


def _kl_ref(reduction):
    def ref(x, y):
        loss = np.where(y > 0, y * (np.log(np.where(y > 0, y, 1)) - x), 0.0)
        if reduction == "batchmean":
            return loss.sum() / x.shape[0]
        return _reduce(loss, reduction)
    return ref


_I32 = (None, ms.int32)
_SPARSE_BAD = [
    (lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(ms.Tensor(X), ms.Tensor([0, 3], ms.int32)), ValueError,
     r"SparseSoftmaxCrossEntropyWithLogits: 'labels' must be class indices in \[0, 3\), but labels\[1\] is 3"),
    (lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(ms.Tensor(X), ms.Tensor([0.0, 1.0])), TypeError,
     r"'labels' must have dtype in \[Int32, Int64\], but got Float32"),
    (lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(ms.Tensor(X), ms.Tensor([0, 1, 2], ms.int32)), ValueError,
     r"'labels' must have shape \(2,\) to match the batch of the logits, but got \(3,\)"),
]

RECORDS = [
    OpRecord("SoftmaxCrossEntropyWithLogits", lambda x, y: ops.SoftmaxCrossEntropyWithLogits()(x, y), _softmax_ce_ref,
             [((4, 5), (4, 5)), ((0, 3), (0, 3)), ((1, 1), (1, 1)), ((3, 700), (3, 700))],
             sampler=_uniform_sampler((-20, 20), (0, 1)), prim=lambda: _C.Primitive("SoftmaxCrossEntropyWithLogits"),
             grad_shapes=[((3, 4), (3, 4))], grad_outputs=(0,), tol={ms.float32: (1e-5, 1e-5)},
             bad=[(lambda: ops.SoftmaxCrossEntropyWithLogits()(ms.Tensor(X), ms.Tensor(np.ones((2, 4)))), ValueError,
                   r"SoftmaxCrossEntropyWithLogits: 'labels' must have the shape of 'logits' \(2, 3\), but got \(2, 4\)"),
                  (lambda: ops.SoftmaxCrossEntropyWithLogits()(ms.Tensor(np.ones(3)), ms.Tensor(np.ones(3))), ValueError,
                   r"'logits' must be 2-d \(batch, classes\), but got shape \(3,\)"),
                  (lambda: ops.SoftmaxCrossEntropyWithLogits()(ms.Tensor(X, ms.float32), ms.Tensor(X, ms.float16)),
                   TypeError, r"'labels' must have the dtype of 'logits' \(Float32\), but got Float16")]),
    OpRecord("SparseSoftmaxCrossEntropyWithLogits", lambda x, t: ops.SparseSoftmaxCrossEntropyWithLogits()(x, t),
             _sparse_ref(False), [((4, 5), (4,)), ((1, 1), (1,)), ((3, 700), (3,))], input_dtypes=_I32,
             sampler=_labels_sampler(lambda s: s[1], -20, 20), tol={ms.float32: (1e-5, 1e-5)},
             prim=lambda: _C.Primitive("SparseSoftmaxCrossEntropyWithLogits"), grad_shapes=[((3, 4), (3,))],
             bad=_SPARSE_BAD),
    OpRecord("SparseSoftmaxCrossEntropyWithLogits", lambda x, t: ops.SparseSoftmaxCrossEntropyWithLogits(True)(x, t),
             _sparse_ref(True), [((4, 5), (4,)), ((0, 3), (0,)), ((3, 700), (3,))], input_dtypes=(None, ms.int64),
             sampler=_labels_sampler(lambda s: s[1]),
             prim=lambda: _C.Primitive("SparseSoftmaxCrossEntropyWithLogits", {"is_grad": True}),
             grad_shapes=[((3, 4), (3,))]),
    OpRecord("L2Loss", lambda x: ops.L2Loss()(x), lambda x: 0.5 * np.sum(x * x), [((2, 3),), ((),), ((0, 4),), ((300, 7),)],
             prim=lambda: _C.Primitive("L2Loss"), grad_shapes=[((2, 3),)], tol={ms.float32: (1e-5, 1e-6)},
             bad=[(lambda: ops.L2Loss()(ms.Tensor([1, 2])), TypeError, r"L2Loss: 'input_x' must be a floating-point")]),
]

for _reduction in ("mean", "sum", "none"):
    RECORDS += [
        OpRecord("NLLLoss", lambda x, t, w, r=_reduction: ops.NLLLoss(reduction=r, ignore_index=1)(x, t, w),
                 _nll_ref(_reduction, 1), [((5, 4), (5,), (4,)), ((1, 3), (1,), (3,))], input_dtypes=(None, ms.int32),
                 sampler=_labels_sampler(lambda s: s[1], ignore=1, n_float_after=1),
                 prim=lambda r=_reduction: _C.Primitive("NLLLoss", {"reduction": r, "ignore_index": 1}),
                 grad_shapes=[((6, 4), (6,), (4,))], grad_outputs=(0,), tol={ms.float32: (1e-5, 1e-6)},
                 bad=[(lambda: ops.NLLLoss(reduction="avg")(ms.Tensor(X), ms.Tensor([0, 1], ms.int32), ms.Tensor(np.ones(3))),
                       ValueError, r"NLLLoss: 'reduction' must be one of 'none', 'mean', 'sum', but got 'avg'"),
                      (lambda: ops.NLLLoss()(ms.Tensor(X), ms.Tensor([0, 1], ms.int32), ms.Tensor(np.ones(2))),
                       ValueError, r"NLLLoss: 'weight' must have shape \(3,\), one weight per class, but got \(2,\)"),
                      (lambda: ops.NLLLoss()(ms.Tensor(X), ms.Tensor([0, 5], ms.int32), ms.Tensor(np.ones(3))),
                       ValueError, r"NLLLoss: 'labels' must be class indices in \[0, 3\) or ignore_index -100")]),
        OpRecord("BCEWithLogitsLoss", lambda x, y, w, pw, r=_reduction: ops.BCEWithLogitsLoss(r)(x, y, w, pw),
                 _bce_logits_ref(_reduction), [((2, 3), (2, 3), (3,), (1, 3)), ((), (), (), ()), ((4, 5), (4, 5), (), (5,))],
                 sampler=_uniform_sampler((-30, 30), (0, 1), (0.5, 2), (0.5, 2)), tol={ms.float32: (1e-5, 1e-5)},
                 prim=lambda r=_reduction: _C.Primitive("BCEWithLogitsLoss", {"reduction": r}),
                 grad_shapes=[((2, 3), (2, 3), (3,), (1, 3))],
                 bad=[(lambda: ops.BCEWithLogitsLoss()(ms.Tensor(X), ms.Tensor(X), ms.Tensor(np.ones(4)), ms.Tensor(X)),
                       ValueError, r"BCEWithLogitsLoss: shapes \(2, 3\) and \(4,\) cannot broadcast"),
                      (lambda: ops.BCEWithLogitsLoss()(ms.Tensor(X), ms.Tensor(X), ms.Tensor(np.ones((3, 2, 3))), ms.Tensor(X)),
                       ValueError, r"'weight' of shape \(3, 2, 3\) must broadcast to the shape of 'logits' \(2, 3\)")]),
        OpRecord("BinaryCrossEntropy", lambda x, y, w, r=_reduction: ops.BinaryCrossEntropy(r)(x, y, w),
                 _bce_ref(_reduction), [((2, 3), (2, 3), (2, 3)), ((), (), ()), ((0, 2), (0, 2), (2,))],
                 sampler=_uniform_sampler((0.05, 0.95), (0, 1), (0.5, 2)), tol={ms.float32: (1e-5, 1e-6)},
                 prim=lambda r=_reduction: _C.Primitive("BinaryCrossEntropy", {"reduction": r}),
                 grad_shapes=[((2, 3), (2, 3), (3,))],
                 bad=[(lambda: ops.BinaryCrossEntropy()(ms.Tensor(X), ms.Tensor(np.ones(3)), ms.Tensor(X)), ValueError,
                       r"BinaryCrossEntropy: 'labels' must have the shape of 'logits' \(2, 3\), but got \(3,\)")]),
        OpRecord("SmoothL1Loss", lambda x, y, r=_reduction: ops.SmoothL1Loss(0.5, r)(x, y), _smooth_l1_ref(0.5, _reduction),
                 [((2, 3), (2, 3)), ((), ()), ((0, 2), (0, 2))], prim=lambda r=_reduction: _C.Primitive(
                     "SmoothL1Loss", {"beta": 0.5, "reduction": r}), grad_shapes=[((3, 4), (3, 4))],
                 tol={ms.float32: (1e-5, 1e-6)},
                 bad=[(lambda: ops.SmoothL1Loss(beta=0.0)(ms.Tensor(X), ms.Tensor(X)), ValueError,
                       r"SmoothL1Loss: 'beta' must be > 0, but got 0")]),
        OpRecord("KLDivLoss", lambda x, y, r=_reduction: ops.KLDivLoss(r)(x, y), _kl_ref(_reduction),
                 [((2, 3), (2, 3)), ((0, 2), (0, 2))], sampler=_uniform_sampler((-3, 0), (0.05, 1)),
                 prim=lambda r=_reduction: _C.Primitive("KLDivLoss", {"reduction": r}), grad_shapes=[((2, 3), (2, 3))],
                 tol={ms.float32: (1e-5, 1e-6)},
                 bad=[(lambda: ops.KLDivLoss("avg")(ms.Tensor(X), ms.Tensor(X)), ValueError,
                       r"KLDivLoss: 'reduction' must be one of 'none', 'mean', 'sum', 'batchmean', but got 'avg'")]),
    ]

RECORDS.append(OpRecord("KLDivLoss", lambda x, y: ops.kl_div(x, y, "batchmean"), _kl_ref("batchmean"), [((4, 3), (4, 3))],
                        sampler=_uniform_sampler((-3, 0), (0.0, 1)),
                        prim=lambda: _C.Primitive("KLDivLoss", {"reduction": "batchmean"}), grad_shapes=[((2, 3), (2, 3))]))
