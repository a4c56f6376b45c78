"""ConfusionMatrixMetric (``mindspore.train.ConfusionMatrixMetric``): measures derived from the true/false
positive/negative counts of binarized (one-hot) predictions and labels of shape (N, C, ...)."""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs

_ALIASES = {
    "sensitivity": "tpr", "recall": "tpr", "hit_rate": "tpr", "true_positive_rate": "tpr", "tpr": "tpr",
    "specificity": "tnr", "selectivity": "tnr", "true_negative_rate": "tnr", "tnr": "tnr",
    "precision": "ppv", "positive_predictive_value": "ppv", "ppv": "ppv",
    "negative_predictive_value": "npv", "npv": "npv",
    "miss_rate": "fnr", "false_negative_rate": "fnr", "fnr": "fnr",
    "fall_out": "fpr", "false_positive_rate": "fpr", "fpr": "fpr",
    "false_discovery_rate": "fdr", "fdr": "fdr", "false_omission_rate": "for", "for": "for",
    "prevalence_threshold": "pt", "pt": "pt",
    "threat_score": "ts", "critical_success_index": "ts", "ts": "ts", "csi": "ts",
    "accuracy": "acc", "acc": "acc", "balanced_accuracy": "ba", "ba": "ba", "f1_score": "f1", "f1": "f1",
    "matthews_correlation_coefficient": "mcc", "mcc": "mcc", "fowlkes_mallows_index": "fm", "fm": "fm",
    "informedness": "bm", "bookmaker_informedness": "bm", "bm": "bm", "markedness": "mk", "deltap": "mk", "mk": "mk",
}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _metric_key(metric_name):
    key = _ALIASES.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise ValueError(f"ConfusionMatrixMetric: unknown 'metric_name' {metric_name!r}; known: "
                         f"{', '.join(sorted(_ALIASES))}")
    return key


def _counts(y_pred, y, skip_channel):
    """(N, C, 4) counts tp, fp, tn, fn per sample and class. skip_channel=False drops the first channel (the
    background), as MindSpore's naming has it."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y, y_pred = y.astype(float), y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"ConfusionMatrixMetric.update: y_pred and y must have one shape, but got {y_pred.shape} "
                         f"and {y.shape}")
    n, c = y_pred.shape[:2]
    y_pred, y = y_pred.reshape(n, c, -1), y.reshape(n, c, -1)
    tp = (y_pred + y == 2).astype(float).sum(axis=2)
    tn = (y_pred + y == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    negatives = y.shape[-1] - p
    return np.stack([tp, negatives - tn, tn, p - tp], axis=-1)


def _measure(key, counts):
    """The measure of each row of counts (..., 4), NaN where its denominator is 0."""
    counts = counts[None] if counts.ndim == 1 else counts
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = np.where(p > 0, tp / p, np.nan)
        tnr = np.where(n > 0, tn / n, np.nan)
        ppv = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        npv = tn / (tn + fn)
        fractions = {
            "tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
            "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
            "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0), "ts": (tp, tp + fn + fp),
            "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0), "f1": (tp * 2.0, tp * 2.0 + fn + fp),
            "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": (np.sqrt(ppv * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0), "mk": (ppv + npv - 1.0, 1.0),
        }
        numerator, denominator = fractions[key]
        if isinstance(denominator, np.ndarray):
            return np.where(denominator != 0, numerator / denominator, np.nan)
        return numerator / denominator


def _reduce(chart, decrease):
    """(reduced value, count of non-NaN entries) of a (N, C) chart, NaNs counted out."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart = np.where(nans, 0.0, chart)
    with np.errstate(divide="ignore", invalid="ignore"):
        if decrease == "mean":
            per_sample = not_nans.sum(axis=1)
            chart = np.where(per_sample > 0, chart.sum(axis=1) / per_sample, 0.0)
            count = (per_sample > 0).astype(float).sum(axis=0)
            return np.where(count > 0, chart.sum(axis=0) / count, 0.0), count
        if decrease == "sum":
            return chart.sum(axis=(0, 1)), not_nans.sum(axis=(0, 1))
        if decrease in ("mean_batch", "sum_batch"):
            count = not_nans.sum(axis=0)
            total = chart.sum(axis=0)
            return (np.where(count > 0, total / count, 0.0) if decrease == "mean_batch" else total), count
        if decrease in ("mean_channel", "sum_channel"):
            count = not_nans.sum(axis=1)
            total = chart.sum(axis=1)
            return (np.where(count > 0, total / count, 0.0) if decrease == "mean_channel" else total), count
    return chart, not_nans


class ConfusionMatrixMetric(Metric):
    """One of the confusion-matrix measures (metric_name: sensitivity, specificity, precision, negative
    predictive value, miss rate, fall out, false discovery rate, false omission rate, prevalence threshold,
    threat score, accuracy, balanced accuracy, f1 score, matthews correlation coefficient, fowlkes mallows
    index, informedness, markedness, or their usual aliases) of one-hot y_pred and y (N, C, ...).

    calculation_method=False sums the counts of every sample and class, then takes the measure;
    calculation_method=True takes it per sample and class, reduces each batch by `decrease` (which must then
    give one number: 'mean' or 'sum') and averages the batches weighted by their non-NaN counts. 2-d inputs
    always use the first way."""

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        for name, value in (("skip_channel", skip_channel), ("calculation_method", calculation_method)):
            if not isinstance(value, bool):
                raise TypeError(f"ConfusionMatrixMetric: '{name}' must be a bool, but got {type(value).__name__}")
        if not isinstance(metric_name, str):
            raise TypeError(f"ConfusionMatrixMetric: 'metric_name' must be a str, but got {type(metric_name).__name__}")
        if decrease not in _DECREASES:
            raise ValueError(f"ConfusionMatrixMetric: 'decrease' must be one of {', '.join(_DECREASES)}, but got "
                             f"{decrease!r}")
        self._key = _metric_key(metric_name)
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        super().__init__()

    def clear(self):
        self._total_num, self._class_num = 0, 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"ConfusionMatrixMetric.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred = _to_numpy(inputs[0], "ConfusionMatrixMetric", "y_pred")
        y = _to_numpy(inputs[1], "ConfusionMatrixMetric", "y")
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("ConfusionMatrixMetric.update: 'y' must be binarized (0 or 1)")
        if y_pred.ndim < 2:
            raise ValueError(f"ConfusionMatrixMetric.update: 'y_pred' must have at least 2 dimensions, but has shape "
                             f"{y_pred.shape}")
        per_sample = self.calculation_method and not (y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        counts = _counts(y_pred, y, self.skip_channel)
        if per_sample:
            score, not_nans = _reduce(_measure(self._key, counts), self.decrease)
            if np.size(score) != 1:
                raise ValueError(f"ConfusionMatrixMetric.update: decrease={self.decrease!r} leaves {np.size(score)} "
                                 f"values per batch; with calculation_method=True use 'mean' or 'sum'")
            not_nans = int(np.asarray(not_nans).item())
            self._total_num += float(np.asarray(score).item()) * not_nans
            self._class_num += not_nans
        elif self.calculation_method:
            # MindSpore switches to the summed counts for 2-d inputs, and the metric's state follows.
            self.calculation_method = False
            self._totals += counts.sum(axis=(0, 1))
        else:
            self._totals += counts.sum(axis=(0, 1))

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("ConfusionMatrixMetric.eval: no sample with a defined measure has been given to "
                                   "update() since clear()")
            return self._total_num / self._class_num
        return _measure(self._key, self._totals)
