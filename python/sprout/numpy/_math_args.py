"""Argument handling shared by sprout.numpy's math functions, with MindSpore's rules: which Python values
are array-likes and the dtype they become, the `dtype=` cast every elementwise function offers, and axis
checks. Only compile-time values are handled here (shapes, axes, dtypes), so this runs unchanged while a
graph is being built.
"""
import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast

FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)
INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)

# MindSpore's array-likes: numbers, nested lists/tuples and tensors. Python values become 32-bit tensors
# (mindspore.numpy's _to_tensor narrows the int64/float64 that Tensor(5)/Tensor(5.0) would give).
_NARROWED = {mstype.int64: mstype.int32, mstype.float64: mstype.float32}


def as_tensor(api, name, x):
    """`x` as a Tensor: tensors as they are, bool/int/float/list/tuple as a 32-bit tensor."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, list, tuple)):
        if isinstance(x, (list, tuple)) and not x:
            return Tensor(np.zeros((0,), np.float32))
        t = Tensor(x)
        narrow = _NARROWED.get(t.dtype)
        return cast(t, narrow) if narrow is not None else t
    raise TypeError(f"{api}: '{name}' must be a Tensor, a number or a list/tuple of numbers (array-like), "
                    f"but got {type(x).__name__}")


def as_tensors(api, names, *xs):
    return tuple(as_tensor(api, n, x) for n, x in zip(names, xs))


def check_tensor(api, name, x):
    """MindSpore's functions that take only tensors (fix, diff, cumsum, ...) refuse other values."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{name}' must be a Tensor, but got {type(x).__name__}")
    return x


def to_dtype(api, dtype, name="dtype"):
    """A MindSpore dtype from a MindSpore dtype, a NumPy dtype or type, or its name ('float32')."""
    if isinstance(dtype, mstype.Type):
        return dtype
    if isinstance(dtype, str) and dtype in ("bool", "bool_"):
        return mstype.bool_
    try:
        return mstype.nptype_to_dtype(np.dtype(dtype).type)
    except (TypeError, KeyError, ValueError):
        raise TypeError(f"{api}: '{name}' must be a data type (e.g. mindspore.float32 or 'float32'), "
                        f"but got {dtype!r}") from None


def finish(api, result, dtype):
    """The `dtype=` argument of MindSpore's elementwise functions: the result cast to it when given."""
    if dtype is None:
        return result
    dtype = to_dtype(api, dtype)
    return result if result.dtype == dtype else cast(result, dtype)


def promote(*dtypes):
    """The common dtype of several, MindSpore's promotion table (that of mindspore.numpy.promote_types)."""
    out = dtypes[0]
    for d in dtypes[1:]:
        out = _C.promote_types(out, d)
    return out


def is_float(dtype):
    return dtype in FLOATS


def to_float32_unless_float(x):
    """Integer and bool tensors as float32 (how MindSpore computes divisions and roundings of them)."""
    return x if is_float(x.dtype) else cast(x, mstype.float32)


def check_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: '{name}' must be an int, but got {value!r}")
    return value


def axis_in_range(api, axis, ndim, name="axis"):
    """One axis as a non-negative int; TypeError for a non-int, ValueError outside [-ndim, ndim)."""
    check_int(api, name, axis)
    if not (axis in (0, -1) if ndim == 0 else -ndim <= axis < ndim):  # a 0-d tensor's one pseudo-axis
        raise ValueError(f"{api}: '{name}' {axis} is out of range for a tensor of {ndim} dimensions "
                         f"(expected an axis in [{-ndim}, {ndim}))")
    return axis % ndim if ndim else 0


def axes_tuple(api, axis, ndim, name="axis"):
    """An axis, a tuple/list of axes or None (every axis) as a sorted tuple of distinct non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(axis_in_range(api, a, ndim, name) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"{api}: '{name}' {tuple(axis)} names an axis twice")
        return axes
    return (axis_in_range(api, axis, ndim, name),)
