"""Classification metrics: Accuracy, TopK, Precision, Recall, F1, ConfusionMatrix."""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy


def _labels(y_pred, y, api):
    """Predicted classes and true classes from scores (N, C) and labels (N,) or one-hot (N, C)."""
    if y_pred.ndim != 2:
        raise ValueError(f"{api}.update: 'y_pred' must be (N, C) scores, but has shape {y_pred.shape}")
    if y.ndim == 2 and y.shape == y_pred.shape:
        y = y.argmax(axis=1)
    y = y.reshape(-1)
    if y.shape[0] != y_pred.shape[0]:
        raise ValueError(f"{api}.update: 'y' has {y.shape[0]} labels for {y_pred.shape[0]} predictions")
    return y_pred.argmax(axis=1), y.astype(np.int64)


class Accuracy(Metric):
    """Fraction of correct predictions; eval_type 'classification' (argmax) or 'multilabel' (scores > 0.5)."""

    def __init__(self, eval_type="classification"):
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"Accuracy: 'eval_type' must be 'classification' or 'multilabel', got {eval_type!r}")
        self.eval_type = eval_type
        super().__init__()

    def clear(self):
        self._correct, self._total = 0, 0

    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"Accuracy.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred, y = _to_numpy(inputs[0], "Accuracy", "y_pred"), _to_numpy(inputs[1], "Accuracy", "y")
        if self.eval_type == "multilabel":
            if y_pred.shape != y.shape:
                raise ValueError(f"Accuracy.update: multilabel needs y_pred and y of one shape, got {y_pred.shape} "
                                 f"and {y.shape}")
            self._correct += int(((y_pred > 0.5) == (y > 0.5)).all(axis=-1).sum())
            self._total += int(np.prod(y.shape[:-1]))
            return
        pred, true = _labels(y_pred, y, "Accuracy")
        self._correct += int((pred == true).sum())
        self._total += true.shape[0]

    def eval(self):
        self._check_batches(self._total)
        return self._correct / self._total


class TopKCategoricalAccuracy(Metric):
    def __init__(self, k):
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise ValueError(f"TopKCategoricalAccuracy: 'k' must be a positive int, but got {k!r}")
        self.k = k
        super().__init__()

    def clear(self):
        self._correct, self._total = 0, 0

    def update(self, *inputs):
        y_pred = _to_numpy(inputs[0], type(self).__name__, "y_pred")
        y = _to_numpy(inputs[1], type(self).__name__, "y")
        _, true = _labels(y_pred, y, type(self).__name__)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        self._correct += int((top == true[:, None]).any(axis=1).sum())
        self._total += true.shape[0]

    def eval(self):
        self._check_batches(self._total)
        return self._correct / self._total


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


class ConfusionMatrix(Metric):
    """Counts (true class, predicted class); normalize: 'no_norm', 'target', 'prediction' or 'all'."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        if normalize not in ("no_norm", "target", "prediction", "all"):
            raise ValueError(f"ConfusionMatrix: 'normalize' must be no_norm/target/prediction/all, got {normalize!r}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        super().__init__()

    def clear(self):
        self._matrix = np.zeros((self.num_classes, self.num_classes), np.float64)
        self._count = 0

    def update(self, *inputs):
        y_pred = _to_numpy(inputs[0], "ConfusionMatrix", "y_pred")
        y = _to_numpy(inputs[1], "ConfusionMatrix", "y").reshape(-1).astype(np.int64)
        pred = y_pred.argmax(axis=1) if y_pred.ndim == 2 else (y_pred.reshape(-1) > self.threshold).astype(np.int64)
        if y.size and (y.max() >= self.num_classes or pred.max() >= self.num_classes or y.min() < 0):
            raise ValueError(f"ConfusionMatrix.update: a class index is outside [0, {self.num_classes})")
        np.add.at(self._matrix, (y, pred), 1)
        self._count += y.size

    def eval(self):
        self._check_batches(self._count)
        m = self._matrix
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.normalize == "target":
                return np.nan_to_num(m / m.sum(axis=1, keepdims=True))
            if self.normalize == "prediction":
                return np.nan_to_num(m / m.sum(axis=0, keepdims=True))
            if self.normalize == "all":
                return m / m.sum()
        return m


class _PerClass(ConfusionMatrix):
    """Precision / Recall / F1 from a confusion matrix; average=True gives the mean over classes."""

    def __init__(self, eval_type="classification"):
        self.eval_type = eval_type
        self.num_classes = 0
        Metric.__init__(self)

    def clear(self):
        self._matrix, self._count = np.zeros((0, 0)), 0

    def update(self, *inputs):
        y_pred = _to_numpy(inputs[0], type(self).__name__, "y_pred")
        if y_pred.ndim != 2:
            raise ValueError(f"{type(self).__name__}.update: 'y_pred' must be (N, C) scores, got {y_pred.shape}")
        c = y_pred.shape[1]
        if c > self._matrix.shape[0]:
            grown = np.zeros((c, c))
            grown[:self._matrix.shape[0], :self._matrix.shape[0]] = self._matrix
            self._matrix, self.num_classes = grown, c
        pred, true = _labels(y_pred, _to_numpy(inputs[1], type(self).__name__, "y"), type(self).__name__)
        np.add.at(self._matrix, (true, pred), 1)
        self._count += true.size

    def _scores(self):
        self._check_batches(self._count)
        tp = np.diag(self._matrix)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.nan_to_num(tp / self._matrix.sum(axis=0))
            recall = np.nan_to_num(tp / self._matrix.sum(axis=1))
        return precision, recall


class Precision(_PerClass):
    def eval(self, average=False):
        p, _ = self._scores()
        return p.mean() if average else p


class Recall(_PerClass):
    def eval(self, average=False):
        _, r = self._scores()
        return r.mean() if average else r


class F1(_PerClass):
    def eval(self, average=False):
        p, r = self._scores()
        with np.errstate(invalid="ignore", divide="ignore"):
            f = np.nan_to_num(2 * p * r / (p + r))
        return f.mean() if average else f
