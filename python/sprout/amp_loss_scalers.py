"""MindSpore 2.x's functional loss scaling (``mindspore.amp``): StaticLossScaler, DynamicLossScaler and
all_finite, for training loops written with ms.grad instead of TrainOneStepWithLossScaleCell:

    loss_scaler = amp.DynamicLossScaler(2 ** 16, scale_factor=2, scale_window=1000)
    loss, grads = grad_fn(loss_scaler.scale(...))   # the loss scaled before differentiating
    grads = loss_scaler.unscale(grads)
    finite = amp.all_finite(grads)
    loss_scaler.adjust(finite)                       # the scale halves on overflow, doubles after a window
    if finite: optimizer(grads)

The scale and the counter are Parameters, so the same code runs compiled (ms.jit) and updates them there.
"""
import numbers
from abc import ABC, abstractmethod

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor


def _scale_value(api, scale_value):
    if isinstance(scale_value, bool) or not isinstance(scale_value, numbers.Real):
        raise TypeError(f"{api}: 'scale_value' must be a float or an int, but got {type(scale_value).__name__}")
    if scale_value < 1.0:
        raise ValueError(f"{api}: 'scale_value' must be >= 1, but got {scale_value}")
    return Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")


def _positive_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
    return int(value)


def _map(fn, inputs):
    return type(inputs)(fn(x) for x in inputs) if isinstance(inputs, (tuple, list)) else fn(inputs)


def _scaled(scale, inputs):
    return _map(lambda x: x * scale.astype(x.dtype), inputs)


def _unscaled(scale, inputs):
    return _map(lambda x: x * ops.reciprocal(scale).astype(x.dtype), inputs)


class LossScaler(ABC):
    """The interface of a loss scaler: scale (the loss or gradients by scale_value), unscale, adjust."""

    @abstractmethod
    def scale(self, inputs):
        """inputs (a Tensor or a tuple of them) times scale_value."""

    @abstractmethod
    def unscale(self, inputs):
        """inputs divided by scale_value."""

    @abstractmethod
    def adjust(self, grads_finite):
        """Updates scale_value after a step whose gradients were finite or not (a bool scalar Tensor)."""


class StaticLossScaler(LossScaler):
    """Scales and unscales by a fixed scale_value; adjust does nothing (returns False)."""

    def __init__(self, scale_value):
        self.scale_value = _scale_value("StaticLossScaler", scale_value)

    def scale(self, inputs):
        return _scaled(self.scale_value, inputs)

    def unscale(self, inputs):
        return _unscaled(self.scale_value, inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(LossScaler):
    """A scale that drops to scale_value / scale_factor (at least 1) after a step with inf or NaN gradients
    and grows by scale_factor (while it stays finite) after scale_window finite steps in a row."""

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = _scale_value("DynamicLossScaler", scale_value)
        self.scale_window = _positive_int("DynamicLossScaler", "scale_window", scale_window)
        self.scale_factor = _positive_int("DynamicLossScaler", "scale_factor", scale_factor)
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def scale(self, inputs):
        return _scaled(self.scale_value, inputs)

    def unscale(self, inputs):
        return _unscaled(self.scale_value, inputs)

    def adjust(self, grads_finite):
        one = ops.ones((), self.scale_value.dtype)
        grown = self.scale_value * self.scale_factor
        window_full = self.counter == (self.scale_window - 1)
        scale_value = ops.select(
            grads_finite,
            ops.select(window_full, ops.select(ops.isfinite(grown), grown, self.scale_value), self.scale_value),
            ops.maximum(one, self.scale_value / self.scale_factor))
        ops.assign(self.scale_value, scale_value)
        ops.assign(self.counter, ((self.counter + 1) % self.scale_window) * grads_finite.astype(mstype.int32))
        return True


def all_finite(inputs):
    """A bool scalar Tensor: True when no element of the tensors in `inputs` is inf or NaN."""
    if not isinstance(inputs, (tuple, list)) or not all(isinstance(x, Tensor) for x in inputs):
        raise TypeError(f"all_finite: 'inputs' must be a tuple or list of Tensors, but got {type(inputs).__name__}")
    if not inputs:
        return Tensor(True)
    finite = [ops.isfinite(x).all() for x in inputs]
    result = finite[0]
    for f in finite[1:]:
        result = ops.logical_and(result, f)
    return result


__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite"]
