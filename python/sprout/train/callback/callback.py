"""Callback, RunContext and the list that dispatches to many callbacks (``mindspore.train.Callback``).

Hooks, as MindSpore 2.x names them: on_train_begin/end, on_train_epoch_begin/end,
on_train_step_begin/end, on_eval_begin/end, on_eval_epoch_begin/end, on_eval_step_begin/end. The
older names (begin, epoch_begin, step_begin, step_end, epoch_end, end) are called as well.
"""


class RunContext:
    """What callbacks see: ``original_args()`` returns the cb_params namespace; request_stop() ends training."""

    def __init__(self, cb_params):
        self._params = cb_params
        self._stop = False

    def original_args(self):
        return self._params

    def request_stop(self):
        self._stop = True

    def get_stop_requested(self):
        return self._stop


class Callback:
    def begin(self, run_context):
        pass

    def epoch_begin(self, run_context):
        pass

    def step_begin(self, run_context):
        pass

    def step_end(self, run_context):
        pass

    def epoch_end(self, run_context):
        pass

    def end(self, run_context):
        pass

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        pass

    def on_eval_epoch_begin(self, run_context):
        pass

    def on_eval_step_begin(self, run_context):
        pass

    def on_eval_step_end(self, run_context):
        pass

    def on_eval_epoch_end(self, run_context):
        pass

    def on_eval_end(self, run_context):
        pass


class CallbackList(Callback):
    """Calls every hook on each callback in order."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        callbacks = list(callbacks)
        for cb in callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks: every callback must be a Callback, but got {type(cb).__name__}")
        self.callbacks = callbacks

    def __getattribute__(self, name):
        if name.startswith("on_") or name in ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end"):
            callbacks = object.__getattribute__(self, "callbacks")

            def dispatch(run_context):
                for cb in callbacks:
                    getattr(cb, name)(run_context)
            return dispatch
        return object.__getattribute__(self, name)
