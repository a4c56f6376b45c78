"""mindspore.numpy's products: dot, inner, outer, tensordot, matmul, kron, cross, multi_dot and
matrix_power, with NumPy's shape rules. Operands of different dtypes are promoted (MindSpore's MatMul would
refuse them). Compositions of sprout.ops: they differentiate and compile.
"""
import math

from sprout import ops
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast
from sprout.numpy._math_args import (as_tensor, as_tensors, axis_in_range, check_int, check_tensor, finish,
                                     promote)

__all__ = ["dot", "inner", "outer", "tensordot", "matmul", "kron", "cross", "multi_dot", "matrix_power"]


def _same_dtype(a, b):
    dtype = promote(a.dtype, b.dtype)
    return cast(a, dtype), cast(b, dtype)


def _swap_last_two(x):
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return ops.transpose(x, perm)


def dot(a, b):
    """NumPy's dot: a product with a scalar, the inner product of vectors, and otherwise the sum over a's
    last axis and b's second-to-last (b's only axis if 1-D): shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:]."""
    check_tensor("dot", "a", a)
    check_tensor("dot", "b", b)
    a, b = _same_dtype(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    contracted = -2 if b.ndim >= 2 else -1
    if a.shape[-1] != b.shape[contracted]:
        raise ValueError(f"dot: shapes {tuple(a.shape)} and {tuple(b.shape)} are not aligned: a.shape[-1] must "
                         f"equal b.shape[{contracted}]")
    if b.ndim >= 2:
        b = _swap_last_two(b)  # contracted axis last, as a's
    rows = ops.reshape(a, (-1, a.shape[-1]))
    cols = ops.reshape(b, (-1, b.shape[-1]))
    result = ops.MatMul(transpose_b=True)(rows, cols)
    return ops.reshape(result, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def inner(a, b):
    """The sum over the last axes of a and b: shape a.shape[:-1] + b.shape[:-1] (a product for scalars)."""
    check_tensor("inner", "a", a)
    check_tensor("inner", "b", b)
    a, b = _same_dtype(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: the last dimensions of a {tuple(a.shape)} and b {tuple(b.shape)} must be equal")
    rows = ops.reshape(a, (-1, a.shape[-1]))
    cols = ops.reshape(b, (-1, b.shape[-1]))
    result = ops.MatMul(transpose_b=True)(rows, cols)
    return ops.reshape(result, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def outer(a, b):
    """The outer product of the flattened a and b: shape (a.size, b.size)."""
    check_tensor("outer", "a", a)
    check_tensor("outer", "b", b)
    a, b = _same_dtype(a, b)
    return ops.matmul(ops.reshape(a, (-1, 1)), ops.reshape(b, (1, -1)))


def tensordot(a, b, axes=2):
    """The sum over axes of a and b: `axes` an int N (a's last N with b's first N) or a pair of
    sequences (a's axes, b's axes)."""
    check_tensor("tensordot", "a", a)
    check_tensor("tensordot", "b", b)
    a, b = _same_dtype(a, b)
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: 'axes' {axes} must be in [0, {min(a.ndim, b.ndim)}] for tensors of "
                             f"{a.ndim} and {b.ndim} dimensions")
        axes_a, axes_b = tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        axes_a, axes_b = ((ax,) if isinstance(ax, int) else tuple(ax) for ax in axes)
        if len(axes_a) != len(axes_b):
            raise ValueError(f"tensordot: 'axes' must name as many axes of a as of b, but got {axes!r}")
        axes_a = tuple(axis_in_range("tensordot", ax, a.ndim, "axes") for ax in axes_a)
        axes_b = tuple(axis_in_range("tensordot", ax, b.ndim, "axes") for ax in axes_b)
    else:
        raise TypeError(f"tensordot: 'axes' must be an int or a pair of axis sequences, but got {axes!r}")
    for ax_a, ax_b in zip(axes_a, axes_b):
        if a.shape[ax_a] != b.shape[ax_b]:
            raise ValueError(f"tensordot: a's axis {ax_a} has {a.shape[ax_a]} elements and b's axis {ax_b} has "
                             f"{b.shape[ax_b]}; summed axes must match")
    free_a = tuple(i for i in range(a.ndim) if i not in axes_a)
    free_b = tuple(i for i in range(b.ndim) if i not in axes_b)
    size = math.prod(a.shape[i] for i in axes_a)
    rows = ops.reshape(ops.transpose(a, free_a + axes_a), (-1, size))
    cols = ops.reshape(ops.transpose(b, axes_b + free_b), (size, -1))
    result = ops.matmul(rows, cols)
    return ops.reshape(result, tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def matmul(x1, x2, dtype=None):
    """The matrix product with NumPy's broadcasting of leading axes (1-D operands as vectors)."""
    check_tensor("matmul", "x1", x1)
    check_tensor("matmul", "x2", x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: 'x1' and 'x2' must not be scalars (0-d); use multiply")
    x1, x2 = _same_dtype(x1, x2)
    return finish("matmul", ops.matmul(x1, x2), dtype)


def kron(a, b):
    """The Kronecker product: blocks a[i, j] * b, shape a.shape * b.shape (aligned from the right)."""
    a, b = as_tensors("kron", ("a", "b"), a, b)
    a, b = _same_dtype(a, b)
    ndim = max(a.ndim, b.ndim)
    if ndim == 0:
        return ops.mul(a, b)
    a = ops.reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
    b = ops.reshape(b, (1,) * (ndim - b.ndim) + tuple(b.shape))
    interleaved_a, interleaved_b = [], []
    for da, db in zip(a.shape, b.shape):  # a's axis i then b's axis i: (a0, b0, a1, b1, ...)
        interleaved_a += [da, 1]
        interleaved_b += [1, db]
    product = ops.mul(ops.reshape(a, tuple(interleaved_a)), ops.reshape(b, tuple(interleaved_b)))
    return ops.reshape(product, tuple(da * db for da, db in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of vectors of 2 or 3 components along `axisa`/`axisb` (both `axis` if given),
    broadcast over the other axes; 2-component vectors give the z component only (when both are)."""
    a, b = as_tensors("cross", ("a", "b"), a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = ops.moveaxis(a, axis_in_range("cross", axisa, a.ndim, "axisa"), -1)
    b = ops.moveaxis(b, axis_in_range("cross", axisb, b.ndim, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"cross: the vectors must have 2 or 3 components, but got {a.shape[-1]} and "
                         f"{b.shape[-1]}")
    a, b = _same_dtype(a, b)

    def component(x, i):
        return ops.squeeze(ops.narrow(x, -1, i, 1), -1)
    a0, a1, b0, b1 = component(a, 0), component(a, 1), component(b, 0), component(b, 1)
    cz = ops.sub(ops.mul(a0, b1), ops.mul(a1, b0))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return cz
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = component(a, 2), component(b, 2)
        cx = ops.sub(ops.mul(a1, b2), ops.mul(a2, b1))
        cy = ops.sub(ops.mul(a2, b0), ops.mul(a0, b2))
    elif a.shape[-1] == 3:
        a2 = component(a, 2)
        cx, cy = ops.neg(ops.mul(a2, b1)), ops.mul(a2, b0)
    else:
        b2 = component(b, 2)
        cx, cy = ops.mul(a1, b2), ops.neg(ops.mul(a0, b2))
    result = ops.stack((cx, cy, cz), -1)  # every component has the broadcast shape of a's and b's other axes
    return ops.moveaxis(result, -1, axis_in_range("cross", axisc, result.ndim, "axisc"))


def _chain_order(dims):
    """The cheapest parenthesization of a chain of matrix products (dims: n+1 sizes for n matrices), as the
    split table s[i][j]: the classic dynamic program on compile-time shapes."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(arrays):
    """dot of two or more tensors in the cheapest order; the first and last may be 1-D, the others 2-D."""
    if isinstance(arrays, Tensor):
        arrays = tuple(arrays[i] for i in range(arrays.shape[0]))
    if not isinstance(arrays, (tuple, list)) or len(arrays) < 2:
        raise ValueError("multi_dot: 'arrays' must be a sequence of at least 2 tensors")
    arrays = [as_tensor("multi_dot", "arrays", x) for x in arrays]
    if len(arrays) == 2:
        return dot(arrays[0], arrays[1])
    shape_out = ()
    if arrays[0].ndim == 1:
        arrays[0] = ops.reshape(arrays[0], (1, -1))
    else:
        shape_out += (arrays[0].shape[0],)
    if arrays[-1].ndim == 1:
        arrays[-1] = ops.reshape(arrays[-1], (-1, 1))
    else:
        shape_out += (arrays[-1].shape[1],)
    for i, x in enumerate(arrays):
        if x.ndim != 2:
            raise ValueError(f"multi_dot: array {i} must be 2-D, but got shape {tuple(x.shape)}")
        if i and arrays[i - 1].shape[1] != x.shape[0]:
            raise ValueError(f"multi_dot: shapes {tuple(arrays[i - 1].shape)} and {tuple(x.shape)} (arrays {i - 1} "
                             f"and {i}) are not aligned")
    split = _chain_order(tuple(x.shape[0] for x in arrays) + (arrays[-1].shape[1],))

    def product(i, j):
        return arrays[i] if i == j else dot(product(i, split[i][j]), product(split[i][j] + 1, j))
    return ops.reshape(product(0, len(arrays) - 1), shape_out)


def matrix_power(a, n):
    """a @ a @ ... (n times) for square matrices in the last two axes; n = 0 gives identities. Negative n
    (the inverse's powers) is refused, as MindSpore's."""
    a = as_tensor("matrix_power", "a", a)
    check_int("matrix_power", "n", n)
    if a.ndim < 2:
        raise ValueError(f"matrix_power: 'a' must be at least 2-D, but got shape {tuple(a.shape)}")
    if a.shape[-2] != a.shape[-1]:
        raise ValueError(f"matrix_power: the last 2 dimensions of 'a' must be square, but got shape "
                         f"{tuple(a.shape)}")
    if n < 0:
        raise ValueError(f"matrix_power: 'n' must be >= 0 (negative powers are not supported), but got {n}")
    if n == 0:
        return ops.broadcast_to(ops.eye(a.shape[-1], a.shape[-1], a.dtype), a.shape)
    result, square, first = None, a, True
    while n:  # binary powering: log2(n) products
        if n & 1:
            result = square if first else ops.matmul(result, square)
            first = False
        n >>= 1
        if n:
            square = ops.matmul(square, square)
    return result
