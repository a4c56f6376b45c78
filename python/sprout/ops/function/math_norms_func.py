"""Vector and matrix norms under MindSpore 2.x's names (vector_norm, matrix_norm) and the condition number
of a matrix (cond), over ops.norm, ops.svd and ops.inverse."""
import math
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.math_linalg_more_func import inverse, svd
from sprout.ops.function.math_reduce_func import norm

__all__ = ["vector_norm", "matrix_norm", "cond"]

_MATRIX_ORDS = (2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc")


def _input(api, arg, x, min_ndim):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.ndim < min_ndim:
        raise ValueError(f"{api}: '{arg}' must have at least {min_ndim} dimensions, but got shape {x.shape}")
    return x


def _cast_to(api, x, dtype):
    if dtype is None:
        return x
    if dtype not in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16):
        raise TypeError(f"{api}: 'dtype' must be a floating-point type or None, but got {dtype}")
    return x if x.dtype == dtype else prim("Cast")(x, dtype)


def _normalized_axes(api, axes, ndim):
    out = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, numbers.Integral):
            raise TypeError(f"{api}: 'axis' must hold ints, but got {a!r}")
        if not -ndim <= a < ndim:
            raise ValueError(f"{api}: 'axis' {a} is out of range for a tensor of {ndim} dimensions")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{api}: 'axis' must not repeat a dimension, but got {tuple(axes)}")
    return tuple(out)


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The vector `ord`-norm over `axis` (all elements when None): ord=inf max |x|, -inf min |x|, 0 the count
    of non-zeros, any other number (sum |x|^ord)^(1/ord)."""
    api = "vector_norm"
    x = _input(api, "x", x, 0)
    if isinstance(ord, bool) or not isinstance(ord, numbers.Number):
        raise ValueError(f"{api}: 'ord' must be an int or a float (inf and -inf included), but got {ord!r}")
    if axis is not None and not isinstance(axis, (int, tuple)) or isinstance(axis, bool):
        raise TypeError(f"{api}: 'axis' must be None, an int or a tuple of ints, but got {type(axis).__name__}")
    if not isinstance(keepdims, bool):
        raise TypeError(f"{api}: 'keepdims' must be a bool, but got {type(keepdims).__name__}")
    x = _cast_to(api, x, dtype)
    if axis is None:  # every element: the norm of the flattened tensor, kept as x.ndim ones if asked
        out = norm(prim("Reshape")(x, (x.size,)), ord)
        return prim("Reshape")(out, (1,) * x.ndim) if keepdims else out
    axes = _normalized_axes(api, (axis,) if isinstance(axis, int) else axis, max(x.ndim, 1))
    if len(axes) == 1:
        return norm(x, ord, axes[0], keepdims)
    # Several axes: moved to the end and merged into one, a vector per position of the others.
    rest = tuple(d for d in range(x.ndim) if d not in axes)
    moved = prim("Transpose")(x, rest + axes)
    merged = prim("Reshape")(moved, tuple(x.shape[d] for d in rest) + (-1,))
    out = norm(merged, ord, -1, False)
    if keepdims:
        out = prim("Reshape")(out, tuple(1 if d in axes else x.shape[d] for d in range(x.ndim)))
    return out


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """The matrix norm of the matrices spanned by the two axes `axis`: 'fro', 'nuc' (sum of singular values),
    inf / -inf (max / min absolute row sum), 1 / -1 (column sums), 2 / -2 (largest / smallest singular value)."""
    api = "matrix_norm"
    A = _input(api, "A", A, 2)
    if not isinstance(axis, tuple):
        raise TypeError(f"{api}: 'axis' must be a tuple of two ints, but got {type(axis).__name__}")
    if len(axis) != 2:
        raise ValueError(f"{api}: 'axis' must hold 2 dimensions, but got {len(axis)}")
    axes = _normalized_axes(api, axis, A.ndim)
    if isinstance(ord, bool) or ord not in _MATRIX_ORDS:
        raise ValueError(f"{api}: 'ord' must be one of 2, -2, 1, -1, inf, -inf, 'fro', 'nuc', but got {ord!r}")
    if not isinstance(keepdims, bool):
        raise TypeError(f"{api}: 'keepdims' must be a bool, but got {type(keepdims).__name__}")
    return norm(_cast_to(api, A, dtype), ord, axes, keepdims)


def cond(A, p=None):
    """The condition number of the square matrices of A (..., n, n) in the `p` norm: ||A|| ||A^-1||. p=None
    (the default) and 2 give the ratio of the largest to the smallest singular value, -2 its inverse; 'fro',
    'nuc', inf, -inf, 1 and -1 the product of the matrix norms of A and its inverse."""
    api = "cond"
    A = _input(api, "A", A, 2)
    if A.shape[-1] != A.shape[-2]:
        raise ValueError(f"{api}: 'A' must hold square matrices (..., n, n), but got shape {A.shape}")
    if p is not None and (isinstance(p, bool) or p not in _MATRIX_ORDS):
        raise ValueError(f"{api}: 'p' must be None or one of 2, -2, 1, -1, inf, -inf, 'fro', 'nuc', but got {p!r}")
    if p is None or p in (2, -2):  # singular values, without inverting A
        s = svd(A, compute_uv=False)  # descending
        n = A.shape[-1]
        largest = prim("Slice")(s, (0,) * s.ndim, s.shape[:-1] + (1,))
        smallest = prim("Slice")(s, (0,) * (s.ndim - 1) + (n - 1,), s.shape[:-1] + (1,))
        ratio = prim("Div")(smallest, largest) if p == -2 else prim("Div")(largest, smallest)
        return prim("Reshape")(ratio, s.shape[:-1])
    return prim("Mul")(norm(A, p, (-2, -1)), norm(inverse(A), p, (-2, -1)))
