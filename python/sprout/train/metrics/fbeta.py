"""Fbeta (``mindspore.train.Fbeta``): the F-measure per class, recall weighted beta times precision."""
import sys

import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


def _is_one_hot(y):
    if y.ndim < 2 or not np.array_equal(y ** 2, y):
        return False
    return bool(np.all(y.sum(axis=1) == 1))


class Fbeta(Metric):
    """(1 + beta^2) TP / (beta^2 (TP + FN) + (TP + FP) + eps) for each class, from scores (N, C) and labels (N,)
    or one-hot (N, C); ``eval(average=True)`` gives the mean over classes."""

    def __init__(self, beta):
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0:
            raise ValueError(f"Fbeta: 'beta' must be a number > 0, but got {beta!r}")
        self.beta = beta
        self.eps = sys.float_info.min
        super().__init__()

    def clear(self):
        self._true_positives, self._actual_positives, self._positives, self._class_num = 0, 0, 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"Fbeta.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred, y = _to_numpy(inputs[0], "Fbeta", "y_pred"), _to_numpy(inputs[1], "Fbeta", "y")
        if y_pred.ndim != 2:
            raise ValueError(f"Fbeta.update: 'y_pred' must be (N, C) scores, but has shape {y_pred.shape}")
        if y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"Fbeta.update: earlier batches had {self._class_num} classes, this one has "
                             f"{y_pred.shape[1]}")
        y = y.reshape(-1).astype(np.int64)
        if y.size != y_pred.shape[0]:
            raise ValueError(f"Fbeta.update: 'y' has {y.size} labels for {y_pred.shape[0]} predictions")
        if y.size and (y.max() >= self._class_num or y.min() < 0):
            raise ValueError(f"Fbeta.update: labels must be in [0, {self._class_num}), but got {y.min()}..{y.max()}")
        eye = np.eye(self._class_num)
        truth, pred = eye[y], eye[y_pred.argmax(axis=1)]
        self._true_positives = self._true_positives + (truth * pred).sum(axis=0)
        self._positives = self._positives + pred.sum(axis=0)
        self._actual_positives = self._actual_positives + truth.sum(axis=0)

    def eval(self, average=False):
        if not isinstance(average, bool):
            raise TypeError(f"Fbeta.eval: 'average' must be a bool, but got {type(average).__name__}")
        if self._class_num == 0:
            raise RuntimeError("Fbeta.eval: no batch has been given to update() since clear()")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta
