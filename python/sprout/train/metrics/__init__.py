"""Metrics (``mindspore.train`` metrics), and the names Model accepts for them."""
from sprout.train.metrics.classification import (F1, Accuracy, ConfusionMatrix, Precision, Recall,
                                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                                  TopKCategoricalAccuracy)
from sprout.train.metrics.metric import Metric
from sprout.train.metrics.regression import MAE, MSE, Loss

_BY_NAME = {"accuracy": Accuracy, "acc": Accuracy, "top_1_accuracy": Top1CategoricalAccuracy,
            "top_5_accuracy": Top5CategoricalAccuracy, "loss": Loss, "mae": MAE, "mse": MSE,
            "precision": Precision, "recall": Recall, "f1": F1}


def get_metric_fn(name, *args, **kwargs):
    if name not in _BY_NAME:
        raise ValueError(f"get_metric_fn: unknown metric {name!r}; known: {', '.join(sorted(_BY_NAME))}")
    return _BY_NAME[name](*args, **kwargs)


__all__ = ["Metric", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "ConfusionMatrix", "Precision", "Recall", "F1", "MAE", "MSE", "Loss", "get_metric_fn"]
