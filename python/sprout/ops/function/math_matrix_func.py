"""Functions of matrices, MindSpore 2.x names and arguments: matrix_power (negative powers through the
inverse), pinv (through the SVD) and matrix_band_part. Batches of matrices (..., m, n); compositions of
BatchMatMul, MatrixInverse, Svd and elementwise primitives, so they differentiate and compile through
their rules."""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, cast, eye, tril
from sprout.ops.function.array_view_func import broadcast_to, swapaxes
from sprout.ops.function.math_func import matmul
from sprout.ops.function.math_linalg_more_func import _bool, _matrices, inverse, svd


def matrix_power(input, n):
    """Each square matrix of `input` (..., m, m) to the integer power `n`: the identity for 0, powers of
    the inverse for n < 0 (a singular matrix is then a ValueError)."""
    x = _matrices(input, "matrix_power", "input")
    n = _int(n, "matrix_power", "n")
    if n < 0:
        if x.dtype not in mstype.float_type:
            raise TypeError(f"matrix_power: a negative 'n' needs a floating-point 'input', but got {x.dtype}")
        x, n = inverse(x), -n
    if n == 0:
        return broadcast_to(eye(x.shape[-1], x.shape[-1], x.dtype), x.shape)
    # Square-and-multiply: about 2 log2(n) products.
    result, square = None, x
    while True:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if not n:
            return result
        square = matmul(square, square)


def _tolerance(api, arg, value, dtype):
    if value is None or isinstance(value, Tensor):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a float, a Tensor or None, but got {value!r}")
    return Tensor(float(value), dtype)


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse of each matrix of `x` (..., M, N), shape (..., N, M): V diag(1/s) U^T
    over the singular values s above max(atol, rtol * s_max). rtol defaults to max(M, N) * eps of x's dtype,
    or to 0 when only a positive atol is given. Tensor tolerances broadcast against the batch shape (a (K, B)
    tolerance for (B, M, N) gives (K, B, N, M)). With `hermitian`, x is taken as symmetric from its lower
    triangle."""
    a = _tensor(x, "pinv", "x")
    if a.ndim < 2:
        raise ValueError(f"pinv: 'x' must be a batch of matrices (..., M, N), but got shape {a.shape}")
    if a.dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"pinv: 'x' must be float32 or float64, but got {a.dtype}")
    if _bool(hermitian, "pinv", "hermitian"):
        if a.shape[-1] != a.shape[-2]:
            raise ValueError(f"pinv: hermitian=True needs square matrices, but got shape {a.shape}")
        a = tril(a) + swapaxes(tril(a, -1), -1, -2)  # the lower triangle mirrored, as MindSpore reads it
    atol_t, rtol_t = _tolerance("pinv", "atol", atol, a.dtype), _tolerance("pinv", "rtol", rtol, a.dtype)
    s, u, v = svd(a)
    s_max = prim("ReduceMax", keep_dims=False)(s, (-1,)) if s.shape[-1] else prim("ReduceSum", keep_dims=False)(
        s, (-1,))
    if rtol_t is None:
        default = Tensor(max(a.shape[-2:]) * float(np.finfo(np.float32 if a.dtype == mstype.float32 else
                                                             np.float64).eps), a.dtype)
        # Only a positive atol turns the default rtol off.
        rtol_t = default if atol_t is None else prim("Select")(prim("Greater")(atol_t, Tensor(0.0, a.dtype)),
                                                               Tensor(0.0, a.dtype), default)
    threshold = s_max * cast(rtol_t, a.dtype)
    if atol_t is not None:
        threshold = prim("Maximum")(cast(atol_t, a.dtype), threshold)
    keep = prim("Greater")(s, prim("ExpandDims")(threshold, threshold.ndim))
    if s.shape != keep.shape:  # tolerances with more axes than the batch
        s = broadcast_to(s, keep.shape)
    # 1/s where kept; the first Select keeps a discarded zero's inf out of the values and the gradient.
    safe = prim("Select")(keep, s, prim("OnesLike")(s))
    inverse_s = prim("Select")(keep, prim("Reciprocal")(safe), prim("ZerosLike")(s))
    return matmul(v * prim("ExpandDims")(inverse_s, inverse_s.ndim - 1), swapaxes(u, -1, -2))


def matrix_band_part(x, lower, upper):
    """x with everything outside the band of `lower` diagonals below the main one and `upper` above it set to
    0 in each innermost matrix; a negative bound keeps that whole triangle. The bounds are ints or 0-d
    integer tensors."""
    a = _tensor(x, "matrix_band_part", "x")
    if a.ndim < 2:
        raise ValueError(f"matrix_band_part: 'x' must have rank >= 2, but got shape {a.shape}")
    m, n = a.shape[-2:]
    below = Tensor(np.subtract.outer(np.arange(m), np.arange(n)).astype(np.int64))  # i - j

    def within(bound, arg, distance):
        if isinstance(bound, Tensor):
            if bound.dtype not in (mstype.int32, mstype.int64) or bound.ndim != 0:
                raise TypeError(f"matrix_band_part: '{arg}' must be an int or a 0-d integer tensor, but got "
                                f"{bound.dtype} of shape {bound.shape}")
            bound = cast(bound, mstype.int64)
        else:
            bound = Tensor(_int(bound, "matrix_band_part", arg), mstype.int64)
        return prim("LogicalOr")(prim("Less")(bound, Tensor(0, mstype.int64)), prim("LessEqual")(distance, bound))

    keep = prim("LogicalAnd")(within(lower, "lower", below), within(upper, "upper", -below))
    return prim("Select")(broadcast_to(keep, a.shape), a, prim("ZerosLike")(a))


__all__ = ["matrix_power", "pinv", "matrix_band_part"]
TENSOR_METHODS = ["matrix_power"]
