"""mindspore.numpy.math_ops: NumPy's math functions on Sprout tensors, MindSpore's names, arguments and
result dtypes. The functions live by family in private modules (_math_elementwise, _math_reductions,
_math_products, _math_series, _math_statistics); this module gathers them, with MindSpore's aliases
(abs, fabs, mod, round, max, min, sum, divmod, bitwise_not) and the dtype queries promote_types and
result_type.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.numpy import _math_elementwise, _math_products, _math_reductions, _math_series, _math_statistics
from sprout.numpy._math_args import promote, to_dtype
from sprout.numpy._math_elementwise import *  # noqa: F401,F403
from sprout.numpy._math_elementwise import absolute, around, divmod_, invert, remainder
from sprout.numpy._math_products import *  # noqa: F401,F403
from sprout.numpy._math_reductions import *  # noqa: F401,F403
from sprout.numpy._math_reductions import amax, amin, sum_
from sprout.numpy._math_series import *  # noqa: F401,F403
from sprout.numpy._math_statistics import *  # noqa: F401,F403


def promote_types(type1, type2):
    """The dtype both convert to without loss (MindSpore's table): e.g. int32 and float16 give float16."""
    return promote(to_dtype("promote_types", type1, "type1"), to_dtype("promote_types", type2, "type2"))


def _dtype_of(value):
    if isinstance(value, Tensor):
        return value.dtype
    if isinstance(value, bool):
        return mstype.bool_
    if isinstance(value, int):
        return mstype.int32  # Python numbers count as 32-bit, as mindspore.numpy converts them
    if isinstance(value, float):
        return mstype.float32
    if isinstance(value, (mstype.Type, str, type, np.dtype)):
        return to_dtype("result_type", value, "arrays_and_dtypes")
    raise TypeError(f"result_type: expected tensors, numbers or data types, but got {value!r}")


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on all the given tensors, numbers and dtypes (promote_types over them)."""
    if not arrays_and_dtypes:
        raise ValueError("result_type: give at least one tensor, number or dtype")
    return promote(*(_dtype_of(x) for x in arrays_and_dtypes))


# MindSpore's aliases (mindspore/numpy/__init__.py)
mod = remainder
fabs = absolute
round = around  # noqa: A001 (NumPy's name)
divmod = divmod_  # noqa: A001
abs = absolute  # noqa: A001
max = amax  # noqa: A001
min = amin  # noqa: A001
sum = sum_  # noqa: A001
bitwise_not = invert

_ALIASES = ["mod", "fabs", "round", "divmod", "abs", "max", "min", "sum", "bitwise_not"]
_INTERNAL_NAMES = {"divmod_", "sum_"}
__all__ = sorted(n for n in (_math_elementwise.__all__ + _math_reductions.__all__ + _math_products.__all__
                             + _math_series.__all__ + _math_statistics.__all__ + _ALIASES
                             + ["promote_types", "result_type"]) if n not in _INTERNAL_NAMES)
