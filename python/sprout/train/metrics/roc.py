"""ROC (``mindspore.train.ROC``) and auc (``mindspore.train.auc``): the receiver operating characteristic
curve and the area under a curve by the trapezoidal rule."""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


def _binary_clf_curve(preds, target, pos_label=1):
    """(false positives, true positives, thresholds) at each distinct score, from the highest."""
    order = np.argsort(-preds, kind="stable")
    preds, target = preds[order], target[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.append(distinct, target.shape[0] - 1)
    positive = (target == pos_label).astype(np.int64)
    tps = np.cumsum(positive)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]


def _prepare(y_pred, y, class_num, pos_label):
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"ROC: when y_pred and y have the same number of dimensions, 'class_num' must be 1, but "
                             f"got {class_num}")
        return y_pred.reshape(-1), y.reshape(-1), 1, 1 if pos_label is None else pos_label
    if y_pred.ndim == y.ndim + 1:
        if pos_label is not None:
            raise ValueError(f"ROC: with scores per class (y_pred one dimension more than y), 'pos_label' must be None, "
                             f"but got {pos_label}")
        if class_num != y_pred.shape[1]:
            raise ValueError(f"ROC: 'class_num' ({class_num}) must equal the number of classes of y_pred "
                             f"({y_pred.shape[1]})")
        return y_pred.reshape(y_pred.shape[0], class_num, -1).transpose(0, 2, 1).reshape(-1, class_num), \
            y.reshape(-1), class_num, pos_label
    raise ValueError(f"ROC: y_pred must have as many dimensions as y, or one more, but got {y_pred.ndim} and {y.ndim}")


def _roc_binary(y_pred, y, pos_label):
    fps, tps, thresholds = _binary_clf_curve(y_pred, y, pos_label)
    tps, fps = np.concatenate([[0], tps]), np.concatenate([[0], fps])
    thresholds = np.concatenate([thresholds[:1] + 1, thresholds])
    if fps[-1] <= 0:
        raise ValueError("ROC.eval: y holds no negative sample, so the false positive rate is undefined")
    if tps[-1] <= 0:
        raise ValueError("ROC.eval: y holds no positive sample, so the true positive rate is undefined")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """``eval()`` -> (fpr, tpr, thresholds) for binary scores (N,) and labels (N,) (positives: pos_label,
    default 1), or lists of them, one per class, for scores (N, C) and class labels (N,). As in MindSpore, the
    curve is of the last batch given to update()."""

    def __init__(self, class_num=None, pos_label=None):
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"ROC: '{name}' must be an int or None, but got {type(value).__name__}")
        self.class_num, self.pos_label = class_num, pos_label
        super().__init__()

    def clear(self):
        self.y_pred, self.y, self._is_update = 0, 0, False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"ROC.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred, y = _to_numpy(inputs[0], "ROC", "y_pred"), _to_numpy(inputs[1], "ROC", "y")
        self.y_pred, self.y, self.class_num, self.pos_label = _prepare(y_pred, y, self.class_num, self.pos_label)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("ROC.eval: call update() before eval()")
        if self.class_num == 1:
            return _roc_binary(self.y_pred, self.y, self.pos_label)
        curves = [_roc_binary(self.y_pred[:, c], self.y, c) for c in range(self.class_num)]
        return [c[0] for c in curves], [c[1] for c in curves], [c[2] for c in curves]


def _column_or_1d(a):
    if a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1):
        return a.reshape(-1)
    raise ValueError(f"auc: 'x' and 'y' must be 1-d (or (N, 1)), but got shape {a.shape}")


def auc(x, y, reorder=False):
    """The area under the curve through the points (x, y), by the trapezoidal rule; x must be monotonic
    unless reorder=True (then the points are sorted by x, ties by y)."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"auc: 'x' and 'y' must be NumPy arrays, but got {type(x).__name__} and {type(y).__name__}")
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"auc: 'x' and 'y' must hold the same number of points, but got shapes {x.shape} and "
                         f"{y.shape}")
    x, y = _column_or_1d(x), _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"auc: at least 2 points are needed, but got {x.shape[0]}")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"auc: 'x' must be increasing or decreasing (or pass reorder=True), but got {x}")
            direction = -1
    return direction * float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))
