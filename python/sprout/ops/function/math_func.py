"""Elementwise math, reductions and matrix products."""
import numbers

import numpy as np

from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_add, _sub, _mul, _div = prim("Add"), prim("Sub"), prim("Mul"), prim("Div")
_maximum, _minimum, _pow = prim("Maximum"), prim("Minimum"), prim("Pow")
_neg, _exp, _log, _sqrt = prim("Neg"), prim("Exp"), prim("Log"), prim("Sqrt")
_equal, _not_equal = prim("Equal"), prim("NotEqual")
_less, _less_equal, _greater, _greater_equal = prim("Less"), prim("LessEqual"), prim("Greater"), prim("GreaterEqual")
_matmul, _batch_matmul = prim("MatMul"), prim("BatchMatMul")


def add(input, other):
    """input + other, with broadcasting and implicit type promotion."""
    return _add(input, other)


def sub(input, other):
    """input - other, with broadcasting and implicit type promotion."""
    return _sub(input, other)


def mul(input, other):
    """input * other, with broadcasting and implicit type promotion."""
    return _mul(input, other)


def div(input, other):
    """True division input / other; integer inputs give Float32."""
    return _div(input, other)


def maximum(input, other):
    """Elementwise maximum; NaN propagates."""
    return _maximum(input, other)


def minimum(input, other):
    """Elementwise minimum; NaN propagates."""
    return _minimum(input, other)


def pow(input, exponent):
    """input ** exponent, elementwise."""
    return _pow(input, exponent)


def neg(input):
    return _neg(input)


def exp(input):
    return _exp(input)


def log(input):
    return _log(input)


def sqrt(input):
    return _sqrt(input)


def equal(input, other):
    return _equal(input, other)


def not_equal(input, other):
    return _not_equal(input, other)


def less(input, other):
    return _less(input, other)


def less_equal(input, other):
    return _less_equal(input, other)


def greater(input, other):
    return _greater(input, other)


def greater_equal(input, other):
    return _greater_equal(input, other)


eq, ne, lt, le, gt, ge = equal, not_equal, less, less_equal, greater, greater_equal
negative = neg
true_divide = div


def _to_tensor(x, api, arg):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple, np.ndarray)):
        return Tensor(x)
    raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")


def matmul(input, other):
    """Matrix product with NumPy's rules: 1-d operands are vectors, leading dims broadcast."""
    a, b = _to_tensor(input, "matmul", "input"), _to_tensor(other, "matmul", "other")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: 'input' and 'other' must not be 0-d, but got shapes {a.shape} and {b.shape}")
    a2 = a.reshape(1, -1) if a.ndim == 1 else a
    b2 = b.reshape(-1, 1) if b.ndim == 1 else b
    out = _matmul(a2, b2) if a2.ndim == 2 and b2.ndim == 2 else _batch_matmul(a2, b2)
    if a.ndim == 1:
        out = out.reshape(out.shape[:-2] + out.shape[-1:])
    if b.ndim == 1:
        out = out.reshape(out.shape[:-1])
    return out


def _axes(axis, api):
    if axis is None:
        return ()
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        return (int(axis),)
    if isinstance(axis, (tuple, list)) and all(isinstance(a, (int, np.integer)) for a in axis):
        return tuple(int(a) for a in axis)
    raise TypeError(f"{api}: 'axis' must be None, an int or a tuple of ints, but got {axis!r}")


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over `dim` (all dims when None); `dtype` casts the input first."""
    x = input.astype(dtype, copy=False) if dtype is not None else input
    return prim("ReduceSum", keep_dims=bool(keepdim))(x, _axes(dim, "sum"))


def mean(input, axis=None, keep_dims=False):
    """Mean over `axis` (all axes when None)."""
    return prim("ReduceMean", keep_dims=bool(keep_dims))(input, _axes(axis, "mean"))


def amax(input, axis=None, keepdims=False):
    """Maximum over `axis` (all axes when None)."""
    return prim("ReduceMax", keep_dims=bool(keepdims))(input, _axes(axis, "amax"))


def amin(input, axis=None, keepdims=False):
    """Minimum over `axis` (all axes when None)."""
    return prim("ReduceMin", keep_dims=bool(keepdims))(input, _axes(axis, "amin"))


__all__ = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "neg", "negative", "exp", "log", "sqrt",
           "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "eq", "ne", "lt", "le", "gt",
           "ge", "true_divide", "matmul", "sum", "mean", "amax", "amin"]

# Also Tensor methods (x.exp(), x.add(y) ...): same name, the tensor as first argument.
TENSOR_METHODS = ["exp", "log", "sqrt", "neg", "add", "sub", "mul", "div", "pow", "maximum", "minimum",
                  "matmul", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
