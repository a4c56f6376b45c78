"""AdaFactor (``mindspore.nn.AdaFactor``): Adam-like steps whose second moment of a matrix is kept as its
row and column means only (Shazeer and Stern 2018), with MindSpore's arguments, state names and update.

Per step t (the Parameter afactor_step): beta2t = 1 - t^-decay_rate; with relative_step the rate is
min(0.01, 1 / sqrt(t)) (warmup_init: min(1e-6 t, 1 / sqrt(t))); with scale_parameter it is multiplied by
max(eps[1], RMS(w)). The update g / sqrt(V) (V from the row and column means of g^2 + eps[0] for 2-d and
larger parameters, elementwise for vectors) is divided by max(1, RMS(update) / clip_threshold), scaled by the
rate, averaged with beta1 when beta1 > 0, and subtracted; weight decay is decoupled: w -= wd * rate * w.
Float16 parameters are updated in float32 and rounded once.
"""
import numbers

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.tensor import Tensor
from sprout.nn.optim.optimizer import Optimizer


def _read(param):
    """A Parameter's value: while a step is compiled, the graph's (Tensor methods such as astype on the
    Parameter object itself would compute now, a constant of its initial value)."""
    from sprout._frontend import calls
    return calls.active_context().load_parameter(param) if calls._active else param


def _rms(x):
    return ops.sqrt((x * x).mean())


def _state(shape, dtype, name):
    return Parameter(Tensor(np.zeros(shape, np.float32), dtype), name=name, requires_grad=False)


def _check_float(name, value, low, high=None, low_inclusive=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"AdaFactor: '{name}' must be a float, but got {type(value).__name__}")
    ok = (value >= low if low_inclusive else value > low) and (high is None or value < high)
    if not ok:
        bound = f"{'>=' if low_inclusive else '>'} {low}" + (f" and < {high}" if high is not None else "")
        raise ValueError(f"AdaFactor: '{name}' must be {bound}, but got {value!r}")
    return float(value)


class AdaFactor(Optimizer):
    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8,
                 beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False,
                 compression=False, loss_scale=1.0):
        for name, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                            ("warmup_init", warmup_init), ("compression", compression)):
            if not isinstance(value, bool):
                raise TypeError(f"AdaFactor: '{name}' must be a bool, but got {type(value).__name__}")
        if learning_rate is not None and relative_step:
            raise ValueError("AdaFactor: a 'learning_rate' cannot be combined with relative_step=True (the rate is "
                             "then computed from the step); pass relative_step=False to use your own")
        if warmup_init and not relative_step:
            raise ValueError("AdaFactor: warmup_init=True requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("AdaFactor: with relative_step=False, 'learning_rate' must be given")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        # MindSpore scales only a fixed number by the parameter's RMS; a schedule, list or Tensor is used as is.
        self.scale_lr = isinstance(learning_rate, numbers.Real) and not isinstance(learning_rate, bool)
        weight_decay = _check_float("weight_decay", weight_decay, 0.0, 1.0)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(eps, (list, tuple)) or len(eps) != 2:
            raise ValueError(f"AdaFactor: 'eps' must be a pair (eps1, eps2), but got {eps!r}")
        self.eps = tuple(_check_float(f"eps{i}", e, 0.0) for i, e in enumerate(eps))
        self.clip_threshold = _check_float("clip_threshold", clip_threshold, 0.0)
        self.decay_rate = _check_float("decay_rate", decay_rate, 0.0, 1.0, low_inclusive=False)
        beta1 = 0.0 if beta1 is None else beta1
        self.beta1 = _check_float("beta1", beta1, 0.0)
        self.weight_decay = weight_decay
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step, self.warmup_init, self.compression = relative_step, warmup_init, compression
        # AdaFactor decays every parameter by its group's weight decay (MindSpore's has no beta/gamma filter).
        for group in self._groups:
            group["decay"] = [True] * len(group["params"])
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._make_state("exp_avg")
        self._init_second_moments()
        self.step = Parameter(Tensor(np.zeros(1, np.float32), mstype.float32), name="afactor_step",
                              requires_grad=False)
        self._per_step = {}  # this step's rate and beta2t, read by _update (a dict: not a Cell attribute)

    def _init_second_moments(self):
        rows, cols, full = [], [], []
        for p in self._parameters:
            shape = tuple(p.shape)
            if len(shape) > 1:  # factored: row means (shape[:-1]) and column means (shape[:-2] + shape[-1:])
                rows.append(_state(shape[:-1], p.dtype, f"exp_avg_sq_row_{p.name}"))
                cols.append(_state(shape[:-2] + shape[-1:], p.dtype, f"exp_avg_sq_col_{p.name}"))
                full.append(_state((1,), p.dtype, f"exp_avg_sq_{p.name}"))
            else:
                rows.append(_state((1,), p.dtype, f"exp_avg_sq_row_{p.name}"))
                cols.append(_state((1,), p.dtype, f"exp_avg_sq_col_{p.name}"))
                full.append(_state(shape, mstype.float16 if self.compression else p.dtype, f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    def construct(self, gradients):
        t = self.step + 1.0
        ops.assign(self.step, t)
        t = t.reshape(())
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * t if self.warmup_init else 1e-2
            self._per_step["lr"] = ops.minimum(min_step, 1.0 / ops.sqrt(t))
        else:
            self._per_step["lr"] = None  # the base class's rate (fixed or scheduled)
        self._per_step["beta2t"] = 1.0 - ops.pow(t, -self.decay_rate)
        return super().construct(gradients)

    @staticmethod
    def _store(state, value):
        """Assigns value to the state (in its dtype, float16 under compression) and returns it as stored."""
        stored = value.astype(state.dtype, copy=False)
        ops.assign(state, stored)
        return stored.astype(value.dtype, copy=False)

    def _update(self, i, p, g, lr, wd, step):
        lr = self._per_step["lr"] if self._per_step["lr"] is not None else lr
        beta2t = self._per_step["beta2t"]
        compute = mstype.float32 if p.dtype == mstype.float16 else p.dtype
        w = _read(p).astype(compute, copy=False)
        g = g.astype(compute, copy=False)
        rate = lr * ops.maximum(_rms(w), self.eps[1]) if self.scale_parameter else lr
        square = g * g + self.eps[0]
        if p.ndim >= 2:
            row_state, col_state = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            row = self._store(row_state, _read(row_state).astype(compute, copy=False) * beta2t
                              + square.mean(-1) * (1.0 - beta2t))
            col = self._store(col_state, _read(col_state).astype(compute, copy=False) * beta2t
                              + square.mean(-2) * (1.0 - beta2t))
            row_factor = 1.0 / ops.sqrt(row / row.mean(-1, keep_dims=True))
            update = ops.expand_dims(row_factor, -1) * (1.0 / ops.sqrt(ops.expand_dims(col, -2))) * g
        else:
            v_state = self.exp_avg_sq[i]
            v = self._store(v_state, _read(v_state).astype(compute, copy=False) * beta2t + square * (1.0 - beta2t))
            update = g / ops.sqrt(v)
        update = update / ops.maximum(_rms(update) / self.clip_threshold, 1.0) * rate
        if self.use_first_moment:
            m = self.exp_avg[i]
            update = self._store(m, _read(m).astype(compute, copy=False) * self.beta1 + update * (1.0 - self.beta1))
        if wd:
            w = w - w * wd * rate
        ops.assign(p, (w - update).astype(p.dtype, copy=False))
