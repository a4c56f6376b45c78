"""Argument checks shared by the sparse tensor classes and their functions: each error names the API, the
argument, what was expected and what was given. They read only compile-time facts (types, dtypes, shapes),
so they run unchanged on the tensors of a graph being compiled."""
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor

# MindSpore's index dtypes for COOTensor, CSRTensor and RowTensor indices.
INDEX_DTYPES = (mstype.int16, mstype.int32, mstype.int64)


def check_tensor(api, arg, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(value).__name__}")
    return value


def check_index_tensor(api, arg, value, ndim):
    """An int16/int32/int64 tensor of `ndim` dimensions."""
    check_tensor(api, arg, value)
    if value.dtype not in INDEX_DTYPES:
        raise TypeError(f"{api}: '{arg}' must be an int16, int32 or int64 tensor, but got {value.dtype}")
    if value.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be a {ndim}-dimensional tensor, but got a {value.ndim}-dimensional "
                         f"tensor of shape {tuple(value.shape)}")
    return value


def check_dense_shape(api, arg, value, ndim=None):
    """A tuple (or list) of positive ints, as a tuple; `ndim` is the length it must have, if any."""
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in value):
        raise TypeError(f"{api}: '{arg}' must be a tuple of ints, but got {value!r}")
    shape = tuple(int(d) for d in value)
    if ndim is not None and len(shape) != ndim:
        raise ValueError(f"{api}: '{arg}' must have {ndim} elements, but got {shape}")
    if not shape or any(d <= 0 for d in shape):
        raise ValueError(f"{api}: the elements of '{arg}' must be positive, but got {shape}")
    return shape


def check_instance(api, arg, value, cls):
    if not isinstance(value, cls):
        raise TypeError(f"{api}: '{arg}' must be a {cls.__name__}, but got {type(value).__name__}")
    return value
