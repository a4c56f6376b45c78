"""Metrics (``mindspore.train`` metrics), and the names Model accepts for them."""
from sprout.train.metrics.bleu_score import BleuScore
from sprout.train.metrics.classification import (F1, Accuracy, ConfusionMatrix, Precision, Recall,
                                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                                  TopKCategoricalAccuracy)
from sprout.train.metrics.confusion_matrix_metric import ConfusionMatrixMetric
from sprout.train.metrics.cosine_similarity import CosineSimilarity
from sprout.train.metrics.dice import Dice
from sprout.train.metrics.fbeta import Fbeta
from sprout.train.metrics.metric import Metric
from sprout.train.metrics.occlusion_sensitivity import OcclusionSensitivity
from sprout.train.metrics.perplexity import Perplexity
from sprout.train.metrics.rearrange import rearrange_inputs
from sprout.train.metrics.regression import MAE, MSE, Loss
from sprout.train.metrics.roc import ROC, auc
from sprout.train.metrics.surface_distance import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance

# MindSpore's names (its __factory__), and "f1" as Sprout accepted before.
_BY_NAME = {"accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1, "f1": F1,
            "dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore, "cosine_similarity": CosineSimilarity,
            "occlusion_sensitivity": OcclusionSensitivity, "topk": TopKCategoricalAccuracy,
            "hausdorff_distance": HausdorffDistance, "top_1_accuracy": Top1CategoricalAccuracy,
            "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
            "mean_surface_distance": MeanSurfaceDistance, "root_mean_square_distance": RootMeanSquareDistance,
            "perplexity": Perplexity, "confusion_matrix": ConfusionMatrix,
            "confusion_matrix_metric": ConfusionMatrixMetric}


class _UnknownMetric(KeyError, ValueError):
    """MindSpore raises KeyError for an unknown name; Sprout raised ValueError: both catch it."""

    def __str__(self):
        return self.args[0]


def names():
    """MindSpore's metric names, sorted (get_metric_fn and Model also take "f1")."""
    return sorted(name for name in _BY_NAME if name != "f1")


def get_metric_fn(name, *args, **kwargs):
    """The metric called `name` (see names()), built with args and kwargs."""
    if name not in _BY_NAME:
        raise _UnknownMetric(f"get_metric_fn: unknown metric {name!r}; known: {', '.join(names())}")
    return _BY_NAME[name](*args, **kwargs)


def get_metrics(metrics):
    """None, a dict of name to Metric (returned as is), or a set of names (-> a dict of those metrics)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"get_metrics: a dict of metrics must map str to Metric, but got "
                                f"{type(name).__name__} -> {type(metric).__name__}")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"get_metrics: 'metrics' must be None, a dict or a set, but got {type(metrics).__name__}")


__all__ = ["names", "get_metric_fn", "get_metrics", "Metric", "rearrange_inputs", "Accuracy",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "ConfusionMatrix",
           "Precision", "Recall", "F1", "Fbeta", "MAE", "MSE", "Loss", "Dice", "ROC", "auc", "BleuScore",
           "CosineSimilarity", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity",
           "ConfusionMatrixMetric", "OcclusionSensitivity"]
