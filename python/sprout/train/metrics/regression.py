"""Regression metrics and the Loss metric."""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy


class _MeanError(Metric):
    def clear(self):
        self._sum, self._count = 0.0, 0

    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"{type(self).__name__}.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred = _to_numpy(inputs[0], type(self).__name__, "y_pred").astype(np.float64)
        y = _to_numpy(inputs[1], type(self).__name__, "y").astype(np.float64).reshape(y_pred.shape)
        self._sum += float(self._error(y_pred - y).sum())
        self._count += y.shape[0] if y.ndim else 1

    def eval(self):
        self._check_batches(self._count)
        return self._sum / self._count


class MAE(_MeanError):
    @staticmethod
    def _error(diff):
        return np.abs(diff).reshape(diff.shape[0], -1).mean(axis=1) if diff.ndim else np.abs(diff)


class MSE(_MeanError):
    @staticmethod
    def _error(diff):
        return (diff ** 2).reshape(diff.shape[0], -1).mean(axis=1) if diff.ndim else diff ** 2


class Loss(Metric):
    """The mean of the losses given to update()."""

    def clear(self):
        self._sum, self._count = 0.0, 0

    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"Loss.update: expects one input (the loss), but got {len(inputs)}")
        loss = _to_numpy(inputs[0], "Loss", "loss")
        if loss.size != 1:
            raise ValueError(f"Loss.update: the loss must be a scalar, but has shape {loss.shape}")
        self._sum += float(loss.reshape(-1)[0])
        self._count += 1

    def eval(self):
        self._check_batches(self._count)
        return self._sum / self._count
