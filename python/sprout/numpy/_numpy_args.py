"""Argument handling shared by sprout.numpy's array_creations, array_ops and logic_ops: array-likes to
tensors under mindspore.numpy's dtype rule, dtype names, axes. Errors name the API and the argument."""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.numpy.dtypes import dtype_map, dtype_tuple


def to_tensor(value, api, arg):
    """A Tensor as is; a Python number, list, tuple or ndarray as a Tensor with mindspore.numpy's rule:
    what NumPy would make int64 or float64 becomes int32 or float32 (MindSpore's _convert_64_to_32)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_, list, tuple, np.ndarray)):
        try:
            values = np.asarray(value)
        except ValueError as error:  # ragged nesting
            raise ValueError(f"{api}: '{arg}' must be a rectangular nest of numbers, but got {value!r}: {error}") \
                from None
        if values.dtype == np.int64 or values.dtype.kind == 'u' and values.dtype != np.uint8:
            values = values.astype(np.int32)
        elif values.dtype == np.float64:
            values = values.astype(np.float32)
        elif values.dtype.kind not in 'biuf':
            raise TypeError(f"{api}: '{arg}' must hold numbers or bools, but got elements of type {values.dtype}")
        return Tensor(values)
    raise TypeError(f"{api}: '{arg}' must be a Tensor, a number, or a list or tuple of numbers, but got "
                    f"{type(value).__name__}")


def to_tensors(values, api, arg):
    """A tuple or list of array-likes as a tuple of Tensors."""
    if isinstance(values, Tensor) or not isinstance(values, (tuple, list)):
        raise TypeError(f"{api}: '{arg}' must be a tuple or list of Tensors, but got {type(values).__name__}")
    return tuple(to_tensor(v, api, arg) for v in values)


def check_dtype(dtype, api, arg="dtype"):
    """A sprout dtype from a dtype, a NumPy type name ('float32', 'int'), a NumPy dtype or int/float/bool
    (Python's int and float are 32-bit here, as in mindspore.numpy)."""
    if isinstance(dtype, mstype.Type):
        return dtype
    if isinstance(dtype, str) and dtype.lower() in dtype_map:
        return dtype_map[dtype.lower()]
    if dtype is int:
        return mstype.int32
    if dtype is float:
        return mstype.float32
    if dtype is bool:
        return mstype.bool_
    try:
        as_np = np.dtype(dtype)
        converted = mstype.nptype_to_dtype(as_np.type)
        if converted in dtype_tuple:
            return converted
    except (TypeError, KeyError, ValueError):
        pass
    raise TypeError(f"{api}: '{arg}' must be one of mindspore.numpy's dtypes (int8 ... float64, bool_) or their "
                    f"names, but got {dtype!r}")


def optional_dtype(dtype, api, arg="dtype"):
    return None if dtype is None else check_dtype(dtype, api, arg)


def check_int(value, api, arg):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {value!r}")
    return int(value)


def check_ints(value, api, arg):
    """An int or a tuple/list of ints as a tuple."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, (tuple, list)) and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                for v in value):
        return tuple(int(v) for v in value)
    raise TypeError(f"{api}: '{arg}' must be an int or a tuple or list of ints, but got {value!r}")


def check_shape(shape, api, arg="shape"):
    """A shape (int or sequence of non-negative ints) as a tuple."""
    dims = check_ints(shape, api, arg)
    if any(d < 0 for d in dims):
        raise ValueError(f"{api}: '{arg}' must have non-negative entries, but got {shape!r}")
    return dims


def check_axis(axis, ndim, api, arg="axis"):
    """One axis of a rank-`ndim` array, made non-negative."""
    axis = check_int(axis, api, arg)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{api}: '{arg}' must be in [{-ndim}, {ndim}) for a {ndim}-d array, but got {axis}")
    return axis % ndim


def check_axes(axes, ndim, api, arg="axis"):
    """An axis or a tuple of distinct axes, made non-negative, as a tuple."""
    result = tuple(check_axis(a, ndim, api, arg) for a in check_ints(axes, api, arg))
    if len(set(result)) != len(result):
        raise ValueError(f"{api}: '{arg}' must not repeat an axis, but got {axes!r}")
    return result


def check_bool(value, api, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {value!r}")
    return bool(value)


def is_python_number(value):
    return isinstance(value, (numbers.Number, np.number, np.bool_)) and not isinstance(value, Tensor)
