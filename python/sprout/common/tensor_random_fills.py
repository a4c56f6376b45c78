"""MindSpore 2.x Tensor methods that fill the tensor in place with random numbers: uniform_, normal_,
random_, exponential_, bernoulli_. Their seeds are drawn from the global generator (ms.set_seed), as the
ops of random_func do, so a seeded script repeats its numbers and successive calls differ.

An ms.Generator given as `generator` is handled by the wrappers of tensor_methods_wave3.py, which make these
methods draw from it; here `generator` is always None.
"""
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.tensor_inplace import _check_tensor, _write


def _ops():
    from sprout import ops
    return ops


def _seeds(api):
    from sprout.ops.function import random_func
    return random_func._seeds(api, None)


def _uniform01(api, shape):
    """Float32 samples uniform in [0, 1)."""
    s0, s1 = _seeds(api)
    return _C.Primitive("UniformReal", {"seed": s0, "seed2": s1})(tuple(shape))


def _check_generator(api, generator):
    if generator is not None:
        raise TypeError(f"{api}: 'generator' must be None: Sprout draws from the global generator, seeded with "
                        f"ms.set_seed, but got {type(generator).__name__}")


def _check_float_tensor(api, self):
    if self.dtype not in mstype.float_type:
        raise TypeError(f"{api}: the tensor must be of a floating-point dtype, but got {self.dtype}")


def _bound(api, arg, value):
    """A distribution parameter: a number, or a one-element Tensor read as a 0-d tensor."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}: a Tensor '{arg}' must have one element, but got shape {value.shape}")
        return value.reshape(())
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a number or a one-element Tensor, but got {type(value).__name__}")
    return value


def uniform_(self, from_=0, to=1, *, generator=None):
    """Fills the tensor with samples uniform in [from_, to); returns it."""
    api = "Tensor.uniform_"
    _check_generator(api, generator)
    _check_float_tensor(api, self)
    low, high = _bound(api, "from_", from_), _bound(api, "to", to)
    if not isinstance(low, Tensor) and not isinstance(high, Tensor) and low > high:
        raise ValueError(f"{api}: 'from_' must not exceed 'to', but got from_={low} and to={high}")
    ops = _ops()
    u = _uniform01(api, self.shape)
    return _write(api, self, ops.add(ops.mul(u, ops.sub(high, low)), low))


def normal_(self, mean=0, std=1, *, generator=None):
    """Fills the tensor with samples of N(mean, std^2); returns it."""
    api = "Tensor.normal_"
    _check_generator(api, generator)
    _check_float_tensor(api, self)
    mean, std = _bound(api, "mean", mean), _bound(api, "std", std)
    if not isinstance(std, Tensor) and std < 0:
        raise ValueError(f"{api}: 'std' must be non-negative, but got {std}")
    from sprout.ops.function import random_func
    return _write(api, self, random_func.normal(self.shape, mean, std))


def exponential_(self, lambd=1, *, generator=None):
    """Fills the tensor with samples of the exponential distribution of rate lambd (density
    lambd * exp(-lambd x)); returns it."""
    api = "Tensor.exponential_"
    _check_generator(api, generator)
    _check_float_tensor(api, self)
    if isinstance(lambd, bool) or not isinstance(lambd, numbers.Real):
        raise TypeError(f"{api}: 'lambd' must be a number, but got {type(lambd).__name__}")
    if lambd <= 0:
        raise ValueError(f"{api}: 'lambd' must be positive, but got {lambd}")
    ops = _ops()
    u = _uniform01(api, self.shape)
    # Inverse CDF on 1 - u, which lies in (0, 1]: log never sees 0.
    return _write(api, self, ops.div(ops.neg(ops.log(ops.sub(1.0, u))), float(lambd)))


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills the tensor with 1 (probability p, a number or a floating Tensor broadcasting to the tensor) or 0;
    returns it."""
    api = "Tensor.bernoulli_"
    _check_generator(api, generator)
    if isinstance(p, Tensor):
        if p.dtype not in mstype.float_type:
            raise TypeError(f"{api}: a Tensor 'p' must be of a floating-point dtype, but got {p.dtype}")
    elif isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{api}: 'p' must be a number or a Tensor, but got {type(p).__name__}")
    elif not 0.0 <= p <= 1.0:
        raise ValueError(f"{api}: 'p' must be in [0, 1], but got {p}")
    from sprout.ops.function import random_func
    draws = random_func.bernoulli(_ops().zeros(self.shape, mstype.float32), p)
    return _write(api, self, _ops().cast(draws, self.dtype))  # 0 and 1 are exact in every dtype


# The largest value random_ draws by default (to=None): a float dtype's integers stay exact up to 2^mantissa
# (PyTorch's choice); an integer dtype's largest value.
_DEFAULT_HIGH = {mstype.float16: 2**11, mstype.bfloat16: 2**8, mstype.float32: 2**24, mstype.float64: 2**53,
                 mstype.bool_: 1}


def _default_high(dtype):
    if dtype in _DEFAULT_HIGH:
        return _DEFAULT_HIGH[dtype]
    return int(np.iinfo(mstype.dtype_to_nptype(dtype)).max)


def _int_arg(api, arg, value):
    if isinstance(value, Tensor):
        if value.size != 1 or value.dtype not in mstype.int_type + mstype.uint_type:
            raise TypeError(f"{api}: '{arg}' must be an int or a one-element integer Tensor, but got a "
                            f"{value.dtype} Tensor of shape {value.shape}")
        return int(value.asnumpy().reshape(-1)[0])  # a bound decides how the draw is built
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {type(value).__name__}")
    return int(value)


_INT31 = 2**31 - 1


def _uniform_ints(api, shape, low, high):
    """Int64 samples uniform in [low, high]. One UniformInt draw (int32 bounds) covers spans below 2^31;
    wider spans take three draws combined into a 63-bit number reduced modulo the span, whose bias (span /
    2^63) is negligible."""
    span = high - low + 1
    ops = _ops()

    def draw(lo, hi):
        s0, s1 = _seeds(api)
        bounds = Tensor(lo, mstype.int64), Tensor(hi, mstype.int64)
        return ops.cast(_C.Primitive("UniformInt", {"seed": s0, "seed2": s1})(*bounds, tuple(shape)),
                        mstype.int64)
    if span <= _INT31 and -2**31 <= low and high < _INT31:
        return draw(low, high + 1)
    big = ops.add(ops.add(ops.mul(draw(0, 2), 2**62), ops.mul(draw(0, _INT31), 2**31)), draw(0, _INT31))
    if span < 2**63:
        big = ops.remainder(big, span)
    return ops.add(big, low)


def random_(self, from_=0, to=None, *, generator=None):
    """Fills the tensor with integers uniform in [from_, to - 1] (to=None: up to the dtype's largest value,
    for float dtypes the largest integer they hold exactly); returns it."""
    api = "Tensor.random_"
    _check_generator(api, generator)
    low = _int_arg(api, "from_", from_)
    high = _default_high(self.dtype) if to is None else _int_arg(api, "to", to) - 1
    if low > high:
        raise ValueError(f"{api}: 'from_' must be less than 'to', but got from_={low} and to={high + 1}")
    return _write(api, self, _ops().cast(_uniform_ints(api, self.shape, low, high), self.dtype))


def attach():
    for fn in (uniform_, normal_, random_, exponential_, bernoulli_):
        if not hasattr(Tensor, fn.__name__):
            setattr(Tensor, fn.__name__, fn)


__all__ = ["attach"]
