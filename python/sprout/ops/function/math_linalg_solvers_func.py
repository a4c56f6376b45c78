"""Linear solvers built on the registry's MatrixSolve and Qr: lstsq (least squares / least norm), lu_solve
(a system from LAPACK's LU factors and pivots) and the triangular solve behind Tensor.triangular_solve.
MindSpore 2.x names and arguments. Every step is a differentiable primitive, so they have gradients and
compile.

MatrixSolve factors its matrix again (LU with partial pivoting); given a triangular matrix that factoring is
exact (no fill-in), so it solves a triangular system as accurately as a substitution would.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import cast, reshape, tril, triu
from sprout.ops.function.math_linalg_more_func import matrix_solve

_select, _equal, _sub = prim("Select"), prim("Equal"), prim("Sub")
_FLOATS = (mstype.float32, mstype.float64)


def _float_matrices(api, arg, x, min_ndim=2):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in mstype.float_type:
        raise TypeError(f"{api}: '{arg}' must be a float16, float32 or float64 tensor, but got {x.dtype}")
    if x.ndim < min_ndim:
        raise ValueError(f"{api}: '{arg}' must have at least {min_ndim} dimensions, but got shape {x.shape}")
    return x


def _wide(x):
    """float16/bfloat16 computed in float32 (LAPACK has no half precision)."""
    return x if x.dtype in _FLOATS else cast(x, mstype.float32)


def _broadcast_batch(api, *pairs):
    """The tensors broadcast to one batch shape (all but their last `core` axes); pairs are (tensor, core)."""
    try:
        batch = np.broadcast_shapes(*(t.shape[:t.ndim - core] for t, core in pairs))
    except ValueError:
        raise ValueError(f"{api}: the batch shapes {[t.shape[:t.ndim - core] for t, core in pairs]} do not "
                         f"broadcast") from None
    out = []
    for t, core in pairs:
        shape = tuple(batch) + t.shape[t.ndim - core:]
        out.append(t if t.shape == shape else prim("BroadcastTo", shape=shape)(t))
    return out


def _swap_last(x):
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return prim("Transpose")(x, perm)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """(X, A) with op(A) X = b for the upper (lower unless `upper`) triangle of `A` (..., M, M), op(A) = A^T
    with `transpose`, its diagonal taken as ones with `unitriangular`; `b` is (..., M, K), batch shapes
    broadcast. The other triangle of `A` is not read."""
    api = "triangular_solve"
    for arg, v in (("upper", upper), ("transpose", transpose), ("unitriangular", unitriangular)):
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{api}: '{arg}' must be a bool, but got {type(v).__name__}")
    b, A = _float_matrices(api, "b", b), _float_matrices(api, "A", A)
    if b.dtype != A.dtype:
        raise TypeError(f"{api}: 'b' and 'A' must have the same dtype, but got {b.dtype} and {A.dtype}")
    m = A.shape[-1]
    if A.shape[-2] != m or b.shape[-2] != m:
        raise ValueError(f"{api}: 'A' must be (..., M, M) and 'b' (..., M, K), but got shapes {A.shape} and "
                         f"{b.shape}")
    b, A_used = _broadcast_batch(api, (_wide(b), 2), (_wide(A), 2))
    t = triu(A_used) if upper else tril(A_used)
    if unitriangular:
        eye = Tensor(np.eye(m, dtype=bool))
        t = _select(eye, Tensor(1, t.dtype), t)
    x = matrix_solve(t, b, adjoint=bool(transpose))
    return (x if x.dtype == b.dtype else cast(x, A.dtype)), A


def lstsq(input, A):
    """The least-squares solution y of min ||input y - A|| when `input` (m, n) has m >= n, the least-norm
    solution of input y = A when m < n; `input` must have full rank. `A` is (m, k) or (m,); y is (n, k)
    ((n, 1) for a 1-d A, as MindSpore's)."""
    api = "lstsq"
    x, a = _float_matrices(api, "input", input), _float_matrices(api, "A", A, min_ndim=1)
    if x.ndim != 2:
        raise ValueError(f"{api}: 'input' must be 2-d, but got shape {x.shape}")
    if a.ndim > 2:
        raise ValueError(f"{api}: 'A' must be 1-d or 2-d, but got shape {a.shape}")
    if x.dtype != a.dtype:
        raise TypeError(f"{api}: 'input' and 'A' must have the same dtype, but got {x.dtype} and {a.dtype}")
    if a.shape[0] != x.shape[0]:
        raise ValueError(f"{api}: 'A' must have input.shape[0] = {x.shape[0]} rows, but got shape {a.shape}")
    dtype = x.dtype
    x, a = _wide(x), _wide(a)
    if a.ndim == 1:
        a = reshape(a, (a.shape[0], 1))
    m, n = x.shape
    if m >= n:  # input = Q R: y = R^-1 Q^T A
        q, r = prim("Qr", full_matrices=False)(x)
        y = matrix_solve(r, prim("MatMul", transpose_a=True)(q, a))
    else:  # input^T = Q R: y = Q R^-T A is the solution orthogonal to input's null space
        q, r = prim("Qr", full_matrices=False)(_swap_last(x))
        y = prim("MatMul")(q, matrix_solve(r, a, adjoint=True))
    return y if y.dtype == dtype else cast(y, dtype)


def _permutation(pivots, m):
    """The row order LAPACK's sequential swaps (row i with row pivots[i] - 1, i = 0, 1, ...) leave: P^T b =
    b[order]. One select per row, on the pivots' values, so it compiles."""
    pivots = cast(pivots, mstype.int64)
    positions = Tensor(np.arange(m, dtype=np.int64))
    order = prim("BroadcastTo", shape=pivots.shape)(positions)
    for i in range(m):
        j = _sub(prim("Slice")(pivots, (0,) * (pivots.ndim - 1) + (i,), pivots.shape[:-1] + (1,)),
                 Tensor(1, mstype.int64))                                   # (..., 1)
        at_i = prim("Slice")(order, (0,) * (order.ndim - 1) + (i,), order.shape[:-1] + (1,))
        at_j = prim("GatherElements")(order, j, order.ndim - 1)
        order = _select(_equal(positions, Tensor(i, mstype.int64)), at_j,
                        _select(_equal(positions, j), at_i, order))
    return order


def lu_solve(b, LU_data, LU_pivots):
    """X with A X = b, given A's LU factorization as LAPACK's getrf returns it: `LU_data` (..., m, m) holds
    L (unit lower, below the diagonal) and U, `LU_pivots` (..., m) the 1-based row swaps (int32). `b` is
    (..., m, k); batch shapes broadcast."""
    api = "lu_solve"
    b, lu = _float_matrices(api, "b", b), _float_matrices(api, "LU_data", LU_data)
    if not isinstance(LU_pivots, Tensor):
        raise TypeError(f"{api}: 'LU_pivots' must be a Tensor, but got {type(LU_pivots).__name__}")
    if LU_pivots.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'LU_pivots' must be an int32 tensor, but got {LU_pivots.dtype}")
    if b.dtype != lu.dtype:
        raise TypeError(f"{api}: 'b' and 'LU_data' must have the same dtype, but got {b.dtype} and {lu.dtype}")
    m = lu.shape[-1]
    if lu.shape[-2] != m or b.shape[-2] != m or LU_pivots.ndim < 1 or LU_pivots.shape[-1] != m:
        raise ValueError(f"{api}: 'b' must be (..., m, k), 'LU_data' (..., m, m) and 'LU_pivots' (..., m), but "
                         f"got shapes {b.shape}, {lu.shape} and {LU_pivots.shape}")
    dtype = b.dtype
    b, lu, pivots = _broadcast_batch(api, (_wide(b), 2), (_wide(lu), 2), (LU_pivots, 1))
    order = _permutation(pivots, m)
    rows = prim("BroadcastTo", shape=b.shape)(reshape(order, order.shape + (1,)))
    pb = prim("GatherElements")(b, rows, b.ndim - 2)
    unit_lower = _select(Tensor(np.eye(m, dtype=bool)), Tensor(1, lu.dtype), tril(lu))
    y = matrix_solve(unit_lower, pb)
    x = matrix_solve(triu(lu), y)
    return x if x.dtype == dtype else cast(x, dtype)


__all__ = ["lstsq", "lu_solve"]
TENSOR_METHODS = ["lstsq", "lu_solve"]
