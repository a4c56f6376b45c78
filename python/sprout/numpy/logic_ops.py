"""mindspore.numpy.logic_ops: NumPy's comparisons, element tests, logical functions and set membership on
Sprout tensors, with MindSpore's arguments: results are bool Tensors (cast to `dtype` where the function
takes one), operands are promoted together as MindSpore's tensors are, and Python numbers become int32 or
float32 tensors.
"""
import numbers

import numpy as np

from sprout import _C, ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.numpy._numpy_args import check_axes, check_bool, optional_dtype, to_tensor

_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _with_dtype(out, dtype, api):
    dtype = optional_dtype(dtype, api)
    return out if dtype is None or dtype == out.dtype else ops.cast(out, dtype)


def _pair(api, x1, x2):
    """Both operands as tensors of their promoted dtype, checked to broadcast."""
    x1, x2 = to_tensor(x1, api, "x1"), to_tensor(x2, api, "x2")
    try:
        np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
    except ValueError:
        raise ValueError(f"{api}: shapes {tuple(x1.shape)} and {tuple(x2.shape)} do not broadcast together") \
            from None
    dtype = _C.promote_types(x1.dtype, x2.dtype)
    return (x1 if x1.dtype == dtype else ops.cast(x1, dtype)), (x2 if x2.dtype == dtype else ops.cast(x2, dtype))


def _comparison(api, op):
    def compare(x1, x2, dtype=None):
        a, b = _pair(api, x1, x2)
        return _with_dtype(op(a, b), dtype, api)
    compare.__name__ = compare.__qualname__ = api
    return compare


equal = _comparison("equal", ops.equal)
equal.__doc__ = "x1 == x2 elementwise (broadcast), as bool or `dtype`."
not_equal = _comparison("not_equal", ops.not_equal)
not_equal.__doc__ = "x1 != x2 elementwise (broadcast), as bool or `dtype`."
less = _comparison("less", ops.less)
less.__doc__ = "x1 < x2 elementwise (broadcast), as bool or `dtype`."
less_equal = _comparison("less_equal", ops.less_equal)
less_equal.__doc__ = "x1 <= x2 elementwise (broadcast), as bool or `dtype`."
greater = _comparison("greater", ops.greater)
greater.__doc__ = "x1 > x2 elementwise (broadcast), as bool or `dtype`."
greater_equal = _comparison("greater_equal", ops.greater_equal)
greater_equal.__doc__ = "x1 >= x2 elementwise (broadcast), as bool or `dtype`."


def _is_float(x):
    return x.dtype in _FLOATS


def isfinite(x, dtype=None):
    """True where `x` is neither infinite nor NaN (always, for integers and bools)."""
    x = to_tensor(x, "isfinite", "x")
    out = ops.isfinite(x) if _is_float(x) else ops.ones_like(x, dtype=mstype.bool_)
    return _with_dtype(out, dtype, "isfinite")


def isnan(x, dtype=None):
    """True where `x` is NaN (never, for integers and bools)."""
    x = to_tensor(x, "isnan", "x")
    out = ops.isnan(x) if _is_float(x) else ops.zeros_like(x, dtype=mstype.bool_)
    return _with_dtype(out, dtype, "isnan")


def isinf(x, dtype=None):
    """True where `x` is +inf or -inf (never, for integers and bools)."""
    x = to_tensor(x, "isinf", "x")
    out = ops.isinf(x) if _is_float(x) else ops.zeros_like(x, dtype=mstype.bool_)
    return _with_dtype(out, dtype, "isinf")


def isposinf(x):
    """True where `x` is +inf."""
    x = to_tensor(x, "isposinf", "x")
    return ops.isposinf(x) if _is_float(x) else ops.zeros_like(x, dtype=mstype.bool_)


def isneginf(x):
    """True where `x` is -inf."""
    x = to_tensor(x, "isneginf", "x")
    return ops.isneginf(x) if _is_float(x) else ops.zeros_like(x, dtype=mstype.bool_)


def isscalar(element):
    """Whether `element` is a Python or NumPy scalar (a number, bool or string); a Tensor, even 0-d, is
    not, as in NumPy. A Python bool."""
    return isinstance(element, (numbers.Number, str, bytes, np.generic)) and not isinstance(element, Tensor)


def signbit(x, dtype=None):
    """True where the sign bit of `x` is set (negative numbers, -0.0 and NaNs with the bit set)."""
    x = to_tensor(x, "signbit", "x")
    if _is_float(x):
        # 1 / -0.0 is -inf: the reciprocal's sign also catches negative zero.
        out = ops.logical_or(ops.signbit(x), ops.less(ops.reciprocal(x), 0))
    elif x.dtype in (mstype.uint8, mstype.bool_):
        out = ops.zeros_like(x, dtype=mstype.bool_)
    else:
        out = ops.less(x, 0)
    return _with_dtype(out, dtype, "signbit")


def _as_bool(x):
    return x if x.dtype == mstype.bool_ else ops.cast(x, mstype.bool_)


def _logical(api, op):
    def logical(x1, x2, dtype=None):
        a, b = to_tensor(x1, api, "x1"), to_tensor(x2, api, "x2")
        return _with_dtype(op(_as_bool(a), _as_bool(b)), dtype, api)
    logical.__name__ = logical.__qualname__ = api
    return logical


logical_and = _logical("logical_and", ops.logical_and)
logical_and.__doc__ = "x1 AND x2 elementwise, each taken as truth values (nonzero is True)."
logical_or = _logical("logical_or", ops.logical_or)
logical_or.__doc__ = "x1 OR x2 elementwise, each taken as truth values (nonzero is True)."
logical_xor = _logical("logical_xor", ops.logical_xor)
logical_xor.__doc__ = "x1 XOR x2 elementwise, each taken as truth values (nonzero is True)."


def logical_not(a, dtype=None):
    """NOT `a` elementwise, taken as truth values (nonzero is True)."""
    a = to_tensor(a, "logical_not", "a")
    return _with_dtype(ops.logical_not(_as_bool(a)), dtype, "logical_not")


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True where |a - b| <= atol + rtol * |b| (broadcast), infinities equal only to themselves, NaN equal
    to NaN only with `equal_nan`."""
    for value, arg in ((rtol, "rtol"), (atol, "atol")):
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
            raise TypeError(f"isclose: '{arg}' must be a number, but got {value!r}")
    equal_nan = check_bool(equal_nan, "isclose", "equal_nan")
    x, y = _pair("isclose", a, b)
    if not _is_float(x):
        x, y = ops.cast(x, mstype.float32), ops.cast(y, mstype.float32)
    finite = ops.logical_and(ops.isfinite(x), ops.isfinite(y))
    # Differences of infinities are NaN; a where keeps them out of the arithmetic.
    safe_x, safe_y = ops.where(finite, x, ops.zeros_like(x)), ops.where(finite, y, ops.zeros_like(y))
    close = ops.less_equal(ops.abs(safe_x - safe_y), atol + rtol * ops.abs(safe_y))
    out = ops.where(finite, close, ops.equal(x, y))
    if equal_nan:
        out = ops.logical_or(out, ops.logical_and(ops.isnan(x), ops.isnan(y)))
    return out


def sometrue(a, axis=None, keepdims=False):
    """Whether any element of `a` (along `axis`, an int or a tuple) is nonzero."""
    a = _as_bool(to_tensor(a, "sometrue", "a"))
    keepdims = check_bool(keepdims, "sometrue", "keepdims")
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = check_axes(axis, max(a.ndim, 1), "sometrue")
    if a.ndim == 0:
        return a
    return ops.any(a, axes, keepdims)


def array_equal(a1, a2, equal_nan=False):
    """Whether `a1` and `a2` have the same shape and elements (NaNs equal with `equal_nan`); a 0-d bool
    Tensor."""
    x, y = to_tensor(a1, "array_equal", "a1"), to_tensor(a2, "array_equal", "a2")
    equal_nan = check_bool(equal_nan, "array_equal", "equal_nan")
    if tuple(x.shape) != tuple(y.shape):
        return Tensor(False)
    x, y = _pair("array_equal", x, y)
    same = ops.equal(x, y)
    if equal_nan and _is_float(x):
        same = ops.logical_or(same, ops.logical_and(ops.isnan(x), ops.isnan(y)))
    return ops.all(same)


def array_equiv(a1, a2):
    """Whether `a1` and `a2` broadcast together and are equal elementwise; a 0-d bool Tensor."""
    x, y = to_tensor(a1, "array_equiv", "a1"), to_tensor(a2, "array_equiv", "a2")
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        return Tensor(False)
    x, y = _pair("array_equiv", x, y)
    return ops.all(ops.equal(x, y))


def _membership(api, values, test_elements):
    """For each element of `values`, whether it is among `test_elements` (flattened)."""
    tests = ops.reshape(to_tensor(test_elements, api, "test_elements"), (-1,))
    dtype = _C.promote_types(values.dtype, tests.dtype)
    values = values if values.dtype == dtype else ops.cast(values, dtype)
    tests = tests if tests.dtype == dtype else ops.cast(tests, dtype)
    if tests.shape[0] == 0:
        return ops.zeros_like(values, dtype=mstype.bool_)
    return ops.any(ops.equal(ops.expand_dims(values, -1), tests), -1)


def isin(element, test_elements, invert=False):
    """True where an element of `element` is one of `test_elements` (flattened); the shape of `element`.
    With `invert`, True where it is not."""
    element = to_tensor(element, "isin", "element")
    out = _membership("isin", element, test_elements)
    return ops.logical_not(out) if check_bool(invert, "isin", "invert") else out


def in1d(ar1, ar2, invert=False):
    """isin of the flattened `ar1`: a 1-d bool Tensor."""
    ar1 = ops.reshape(to_tensor(ar1, "in1d", "ar1"), (-1,))
    out = _membership("in1d", ar1, to_tensor(ar2, "in1d", "ar2"))
    return ops.logical_not(out) if check_bool(invert, "in1d", "invert") else out


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of `ar1` that are not in `ar2`."""
    ar1 = ops.reshape(to_tensor(ar1, "setdiff1d", "ar1"), (-1,))
    ar2 = to_tensor(ar2, "setdiff1d", "ar2")
    check_bool(assume_unique, "setdiff1d", "assume_unique")
    values = ops.unique(ar1)[0]
    return ops.masked_select(values, ops.logical_not(_membership("setdiff1d", values, ar2)))


__all__ = ['not_equal', 'less_equal', 'less', 'greater_equal', 'greater', 'equal', 'isfinite', 'isnan', 'isinf',
           'isposinf', 'isneginf', 'isscalar', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'in1d',
           'isin', 'isclose', 'signbit', 'sometrue', 'array_equal', 'array_equiv', 'setdiff1d']
