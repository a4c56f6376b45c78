"""Python data -> NumPy arrays ready to copy into a Tensor: the rules of ``Tensor(...)`` in one place.

Called from C++ (src/python/tensor.cc). MindSpore's rules: Python floats become Float32, Python ints
Int64, bools Bool; NumPy arrays keep their dtype; a dtype argument converts.
"""
import numbers

import numpy as np

from sprout.common import dtype as mstype


def _describe(obj):
    return f"{type(obj).__name__} {obj!r}" if not isinstance(obj, np.ndarray) else f"ndarray of dtype {obj.dtype}"


def _default_dtype(array, from_python):
    if array.dtype == np.float64 and from_python:
        return mstype.float32  # Python floats are Float32 in MindSpore
    if array.dtype.kind in "iu" and from_python:
        return mstype.int64
    try:
        return mstype.nptype_to_dtype(array.dtype)
    except TypeError:
        raise TypeError(f"Tensor: 'input_data' has NumPy dtype {array.dtype}, which Sprout does not support; "
                        f"supported: bool, int8/16/32/64, uint8/16/32/64, float16, float32, float64") from None


def to_array(obj, dtype=None, api="Tensor"):
    """(contiguous ndarray, target dtype) for any array-like: scalar, nested list/tuple, ndarray, Tensor."""
    from sprout._C import Tensor
    if isinstance(obj, Tensor):
        return np.asarray(obj.asnumpy(), order="C"), dtype or obj.dtype
    from_python = not isinstance(obj, (np.ndarray, np.generic))
    if isinstance(obj, (list, tuple)):
        if any(isinstance(x, Tensor) for x in obj):  # a list of tensors stacks them
            obj = [x.asnumpy() if isinstance(x, Tensor) else x for x in obj]
    elif from_python and not isinstance(obj, (numbers.Number, bool)):
        raise TypeError(f"{api}: 'input_data' must be a Tensor, NumPy array, Python number or a (nested) "
                        f"list/tuple of numbers, but got {_describe(obj)}")
    try:
        array = np.asarray(obj)
    except ValueError as e:
        raise ValueError(f"{api}: 'input_data' is not a rectangular array of numbers: {e}") from None
    if array.dtype == object or array.dtype.kind in "USVOc":
        raise TypeError(f"{api}: 'input_data' must hold numbers, but converting it gives {_describe(array)}")
    target = dtype if dtype is not None else _default_dtype(array, from_python)
    if array.dtype.kind == "i" and from_python and array.dtype != np.int64:
        array = array.astype(np.int64)
    if array.dtype == np.float64 and from_python and target != mstype.float64:
        array = array.astype(np.float32)
    if array.dtype.kind not in "biuf" or array.dtype.itemsize > 8:  # longdouble: through a type Sprout holds
        array = array.astype(np.float64 if array.dtype.kind == "f" else np.int64)
    return np.asarray(array, order="C"), target


def tensor_init_array(input_data, dtype, shape, init):
    """Arguments of ``Tensor(input_data, dtype, shape, init)`` -> (ndarray, dtype)."""
    if dtype is not None and not isinstance(dtype, mstype.Type):
        raise TypeError(f"Tensor: 'dtype' must be a sprout dtype such as ms.float32, but got {dtype!r}")
    if input_data is not None and (shape is not None or init is not None):
        raise ValueError("Tensor: give either 'input_data', or 'shape' and 'dtype' (with 'init'), not both")
    if input_data is None:
        if shape is None:
            raise ValueError("Tensor: give 'input_data', or 'shape' and 'dtype'")
        shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
        if any(not isinstance(d, numbers.Integral) or d < 0 for d in shape):
            raise ValueError(f"Tensor: 'shape' must be non-negative ints, but got {shape}")
        dtype = dtype if dtype is not None else mstype.float32
        if init is None:
            array = np.zeros(shape, dtype=mstype.dtype_to_nptype(dtype))
        else:
            from sprout.common.initializer import initializer_array
            array = initializer_array(init, shape, dtype)
        return np.asarray(array, order="C"), dtype
    return to_array(input_data, dtype)
