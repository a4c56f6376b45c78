"""LossMonitor, TimeMonitor, History, LambdaCallback and the progress bar."""
import math
import sys
import time

import numpy as np

from sprout.common.tensor import Tensor
from sprout.train.callback.callback import Callback


def _loss_value(outputs):
    if isinstance(outputs, (tuple, list)) and outputs:
        outputs = outputs[0]
    if isinstance(outputs, Tensor):
        return float(outputs.asnumpy().mean())
    if isinstance(outputs, (int, float, np.number)):
        return float(outputs)
    return None


class LossMonitor(Callback):
    """Prints the loss every `per_print_times` steps; raises ValueError on a NaN or infinite loss."""

    def __init__(self, per_print_times=1):
        if not isinstance(per_print_times, int) or isinstance(per_print_times, bool) or per_print_times < 0:
            raise ValueError(f"LossMonitor: 'per_print_times' must be an int >= 0, but got {per_print_times!r}")
        self._per_print_times = per_print_times

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss = _loss_value(cb.net_outputs)
        step_in_epoch = (cb.cur_step_num - 1) % max(cb.batch_num, 1) + 1
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"LossMonitor: epoch {cb.cur_epoch_num} step {step_in_epoch}: the loss is {loss}; "
                             f"training stopped")
        if self._per_print_times and cb.cur_step_num % self._per_print_times == 0:
            print(f"epoch: {cb.cur_epoch_num} step: {step_in_epoch}, loss is {loss}", flush=True)


class TimeMonitor(Callback):
    """Prints the epoch time and the time per step."""

    def __init__(self, data_size=None):
        self.data_size = data_size

    def on_train_epoch_begin(self, run_context):
        self._start = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        elapsed = (time.perf_counter() - self._start) * 1000
        steps = self.data_size or cb.batch_num or 1
        print(f"epoch time: {elapsed:.3f} ms, per step time: {elapsed / steps:.3f} ms", flush=True)


class History(Callback):
    """Records the loss of each epoch (and eval results of fit): ``history.epoch`` is MindSpore's
    ``{'epoch': [1, 2, ...]}`` (None before training begins), ``history.history`` ``{'net_output': [...], ...}``."""

    def __init__(self):
        self.epoch = None
        self.history = {}

    def on_train_begin(self, run_context):
        self.epoch = {"epoch": []}

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        if self.epoch is None:  # called without on_train_begin (a hand-driven loop)
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb.cur_epoch_num)
        loss = _loss_value(cb.net_outputs)
        if loss is not None:
            self.history.setdefault("net_output", []).append(loss)
        for key, value in (getattr(cb, "eval_results", None) or {}).items():
            self.history.setdefault(key, []).append(value)


class LambdaCallback(Callback):
    """A callback from functions: LambdaCallback(on_train_step_end=lambda run_context: ...)."""

    _HOOKS = ("on_train_begin", "on_train_end", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
              "on_train_step_end", "on_eval_begin", "on_eval_end", "on_eval_epoch_begin", "on_eval_epoch_end",
              "on_eval_step_begin", "on_eval_step_end")

    def __init__(self, **hooks):
        for name, fn in hooks.items():
            if name not in self._HOOKS:
                raise ValueError(f"LambdaCallback: unknown hook {name!r}; hooks: {', '.join(self._HOOKS)}")
            if not callable(fn):
                raise TypeError(f"LambdaCallback: {name} must be callable")
            setattr(self, name, fn)


class ProgressBar(Callback):
    """One line per epoch updated in place: step, loss, throughput, ETA. Turn off with Model(..., progress=False)
    or SPROUT_PROGRESS=0; it stays quiet when stdout is not a terminal unless forced."""

    def __init__(self, stream=None, force=False, width=24):
        self.stream = stream or sys.stdout
        self.force, self.width = force, width

    def _enabled(self):
        return self.force or getattr(self.stream, "isatty", lambda: False)()

    def on_train_epoch_begin(self, run_context):
        self._start = time.perf_counter()

    def on_train_step_end(self, run_context):
        if not self._enabled():
            return
        cb = run_context.original_args()
        total = max(cb.batch_num, 1)
        step = (cb.cur_step_num - 1) % total + 1
        elapsed = time.perf_counter() - self._start
        rate = step / elapsed if elapsed > 0 else 0.0
        eta = (total - step) / rate if rate > 0 else 0.0
        filled = int(self.width * step / total)
        loss = _loss_value(cb.net_outputs)
        self.stream.write(f"\repoch {cb.cur_epoch_num}/{cb.epoch_num} [{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{step}/{total} loss {loss:.4f} {rate:.1f} step/s ETA {eta:.1f}s   ")
        if step == total:
            self.stream.write("\n")
        self.stream.flush()
