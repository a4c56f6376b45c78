"""Perplexity (``mindspore.train.Perplexity``): exp of the mean negative log-probability of the labels."""
import math

import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


class Perplexity(Metric):
    """From probabilities (..., C) and labels (...): exp(-mean(log p[label])), probabilities clamped at 1e-10;
    entries whose label is ignore_label are left out."""

    def __init__(self, ignore_label=None):
        if ignore_label is not None and (not isinstance(ignore_label, int) or isinstance(ignore_label, bool)):
            raise TypeError(f"Perplexity: 'ignore_label' must be an int or None, but got {type(ignore_label).__name__}")
        self.ignore_label = ignore_label
        super().__init__()

    def clear(self):
        self._sum_metric, self._num_inst = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"Perplexity.update: expects (preds, labels), but got {len(inputs)} inputs")
        pred, label = _to_numpy(inputs[0], "Perplexity", "preds"), _to_numpy(inputs[1], "Perplexity", "labels")
        if pred.ndim == 0 or label.size * pred.shape[-1] != pred.size:
            raise ValueError(f"Perplexity.update: preds of shape {pred.shape} need one label per row of "
                             f"{pred.shape[-1] if pred.ndim else 0} classes, but labels have shape {label.shape}")
        label = label.reshape(-1)
        picked = pred.reshape(-1, pred.shape[-1])[np.arange(label.size), label.astype(np.int64)]
        num = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            num -= int(ignore.sum())
            picked = picked * (1 - ignore) + ignore  # log 1 = 0 for the ignored entries
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, picked))))
        self._num_inst += num

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("Perplexity.eval: no label has been counted since clear()")
        return math.exp(self._sum_metric / self._num_inst)
