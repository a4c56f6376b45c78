"""Parameter initializers (``mindspore.common.initializer``).

``initializer(init, shape, dtype)`` makes a Tensor from an Initializer object, a name ('normal',
'xavier_uniform', 'zeros' ...), a number or an array. Random initializers draw from the global
generator, so ``ms.set_seed`` makes them reproducible.
"""
import math
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.seed import _global_rng


def _fans(shape):
    """(fan_in, fan_out) as MindSpore computes them: dims 0 and 1, times the receptive field."""
    if len(shape) < 2:
        raise ValueError(f"initializer: fan_in/fan_out need a shape of rank >= 2, but got {tuple(shape)}")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param=None):
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"initializer: unsupported nonlinearity {nonlinearity!r}")


class Initializer:
    """Base class: subclasses fill a float64 NumPy array in `_initialize`."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr):
        raise NotImplementedError(f"{type(self).__name__} must define _initialize(arr)")

    def __call__(self, arr):
        self._initialize(arr)
        return arr

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    def _initialize(self, arr):
        arr.fill(0)


class One(Initializer):
    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr.fill(self.value)


class Normal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _initialize(self, arr):
        arr[...] = _global_rng().normal(self.mean, self.sigma, arr.shape)


class Uniform(Initializer):
    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = _global_rng().uniform(-self.scale, self.scale, arr.shape)


class TruncatedNormal(Initializer):
    """Normal(mean, sigma) redrawn outside [a, b] (MindSpore's defaults: a=-2, b=2)."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        rng = _global_rng()
        values = rng.normal(self.mean, self.sigma, arr.shape)
        bad = (values < self.a) | (values > self.b)
        while bad.any():
            values[bad] = rng.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (values < self.a) | (values > self.b)
        arr[...] = values


class XavierUniform(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = _global_rng().uniform(-bound, bound, arr.shape)


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        arr[...] = _global_rng().normal(0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"{type(self).__name__}: 'mode' must be 'fan_in' or 'fan_out', but got {mode!r}")
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _std(self, shape):
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_He):
    def _initialize(self, arr):
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = _global_rng().uniform(-bound, bound, arr.shape)


class HeNormal(_He):
    def _initialize(self, arr):
        arr[...] = _global_rng().normal(0, self._std(arr.shape), arr.shape)


_BY_NAME = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One, "normal": Normal, "uniform": Uniform,
    "truncatednormal": TruncatedNormal, "truncated_normal": TruncatedNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform, "xavier_normal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform, "he_normal": HeNormal, "henormal": HeNormal,
}


def initializer_array(init, shape, dtype):
    """A NumPy array of `shape` in `dtype`'s NumPy type, filled as `init` says."""
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower())
        if cls is None:
            raise ValueError(f"initializer: unknown name {init!r}; known: {', '.join(sorted(set(_BY_NAME)))}")
        init = cls()
    if isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    nptype = mstype.dtype_to_nptype(dtype)
    if isinstance(init, Initializer):
        arr = np.zeros(shape, dtype=np.float64)
        init(arr)
        return arr.astype(nptype)
    if isinstance(init, np.ndarray) or hasattr(init, "asnumpy"):
        arr = init.asnumpy() if hasattr(init, "asnumpy") else init
        if tuple(arr.shape) != shape:
            raise ValueError(f"initializer: the given array has shape {arr.shape}, expected {shape}")
        return arr.astype(nptype)
    raise TypeError(f"initializer: 'init' must be an Initializer, a name, a number or an array, but got "
                    f"{type(init).__name__}")


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of `shape` and `dtype` initialized by `init`."""
    from sprout.common.tensor import Tensor
    if shape is None:
        if not (isinstance(init, np.ndarray) or hasattr(init, "asnumpy")):
            raise ValueError("initializer: 'shape' is required unless 'init' is an array or Tensor")
        shape = init.shape
    return Tensor(initializer_array(init, shape, dtype), dtype)


__all__ = ["Initializer", "initializer", "Zero", "One", "Constant", "Normal", "Uniform", "TruncatedNormal",
           "XavierUniform", "XavierNormal", "HeUniform", "HeNormal"]
