"""EarlyStopping and ReduceLROnPlateau: react to a monitored value from the eval results of Model.fit."""
import numbers

import numpy as np

from sprout.train.callback.callback import Callback


class _Monitor(Callback):
    def __init__(self, monitor, mode, min_delta, patience, api):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"{api}: 'mode' must be 'auto', 'min' or 'max', but got {mode!r}")
        if not isinstance(patience, int) or patience < 0:
            raise ValueError(f"{api}: 'patience' must be an int >= 0, but got {patience!r}")
        self.monitor, self.patience, self.min_delta = monitor, patience, abs(min_delta)
        if mode == "auto":
            mode = "max" if "acc" in monitor else "min"
        self.mode = mode
        self.best = np.inf if mode == "min" else -np.inf
        self.wait = 0

    def _value(self, cb):
        results = dict(getattr(cb, "eval_results", None) or {})
        if self.monitor == "loss" or self.monitor == "train_loss":
            from sprout.train.callback.monitors import _loss_value
            return _loss_value(cb.net_outputs)
        key = self.monitor[len("eval_"):] if self.monitor.startswith("eval_") else self.monitor
        value = results.get(key, results.get(self.monitor))
        if value is not None and not isinstance(value, numbers.Number):
            value = float(np.asarray(value).mean())
        return value

    def _improved(self, value):
        return value < self.best - self.min_delta if self.mode == "min" else value > self.best + self.min_delta


class EarlyStopping(_Monitor):
    """Stops training when `monitor` stops improving for `patience` epochs."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__(monitor, mode, min_delta, patience, "EarlyStopping")
        self.verbose, self.baseline, self.restore_best_weights = verbose, baseline, restore_best_weights
        self.stopped_epoch = 0
        self._best_weights = None

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        value = self._value(cb)
        if value is None:
            return
        if self._improved(value) and (self.baseline is None or self._improved_over_baseline(value)):
            self.best, self.wait = value, 0
            if self.restore_best_weights:
                self._best_weights = [p.asnumpy().copy() for p in cb.train_network.get_parameters()]
            return
        self.wait += 1
        if self.wait > self.patience:
            self.stopped_epoch = cb.cur_epoch_num
            run_context.request_stop()
            if self.verbose:
                print(f"EarlyStopping: epoch {cb.cur_epoch_num}: {self.monitor} did not improve; stopping")
            if self.restore_best_weights and self._best_weights is not None:
                for p, w in zip(cb.train_network.get_parameters(), self._best_weights):
                    p.set_data(w)

    def _improved_over_baseline(self, value):
        return value < self.baseline if self.mode == "min" else value > self.baseline


class ReduceLROnPlateau(_Monitor):
    """Multiplies the optimizer's learning rate by `factor` when `monitor` stalls for `patience` epochs."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0):
        super().__init__(monitor, mode, min_delta, patience, "ReduceLROnPlateau")
        if not 0 < factor < 1:
            raise ValueError(f"ReduceLROnPlateau: 'factor' must be in (0, 1), but got {factor!r}")
        self.factor, self.verbose, self.cooldown, self.min_lr = factor, verbose, cooldown, min_lr
        self._cooldown_left = 0

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        value = self._value(cb)
        if value is None:
            return
        if self._cooldown_left > 0:
            self._cooldown_left -= 1
            self.wait = 0
        if self._improved(value):
            self.best, self.wait = value, 0
            return
        self.wait += 1
        if self.wait > self.patience and self._cooldown_left == 0:
            for group in cb.optimizer._groups:
                rate = group["lr"]
                if rate.schedule is None:
                    rate.values = np.maximum(rate.values * self.factor, self.min_lr)
            if self.verbose:
                print(f"ReduceLROnPlateau: epoch {cb.cur_epoch_num}: learning rate reduced by {self.factor}")
            self._cooldown_left, self.wait = self.cooldown, 0
