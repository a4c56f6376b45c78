"""LAPACK's compact factorizations unpacked or built as compositions: lu_unpack (P, L, U out of getrf's
packed LU and pivots), geqrf (Householder QR: R on and above the diagonal, the reflectors' vectors below it,
their scale factors tau) and orgqr (the explicit Q of such reflectors).

geqrf follows LAPACK's dgeqrf/dlarfg conventions (beta = -sign(alpha) ||x||, tau = (beta - alpha) / beta,
tau = 0 for a column with nothing below the diagonal), so its packed result matches MindSpore's and
PyTorch's. The loops run over columns, a count known from the shape, so they compile as straight-line code
and differentiate as compositions of elementwise ops and sums.
"""
import numbers

import numpy as np

from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import one_hot, tril, triu

__all__ = ["lu_unpack", "geqrf", "orgqr"]

_FLOATS = (mstype.float32, mstype.float64)
_INTS = (mstype.int8, mstype.uint8, mstype.int16, mstype.int32, mstype.int64)
_select, _equal, _sub = prim("Select"), prim("Equal"), prim("Sub")


def _matrices(api, arg, x, dtypes, what):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in dtypes:
        raise TypeError(f"{api}: '{arg}' must be a {what} tensor, but got {x.dtype}")
    if x.ndim < 2:
        raise ValueError(f"{api}: '{arg}' must have at least 2 dimensions (..., M, N), but got shape {x.shape}")
    return x


def _slice(x, begin, size):
    """x[..., begin:begin+size] on the last len(begin) axes, every batch axis whole."""
    lead = x.ndim - len(begin)
    return prim("Slice")(x, (0,) * lead + tuple(begin), tuple(x.shape[:lead]) + tuple(size))


def _bool(api, arg, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {type(value).__name__}")
    return value


# --- lu_unpack --------------------------------------------------------------------------------------------

def _row_order(pivots, m):
    """The row order LAPACK's sequential swaps (row i with row pivots[i] - 1, i = 0 .. k-1) leave among m rows:
    P^T A = A[order]. One select per swap, on the pivots' values, so it compiles."""
    pivots = prim("Cast")(pivots, mstype.int64)
    positions = Tensor(np.arange(m, dtype=np.int64))
    order = prim("BroadcastTo", shape=tuple(pivots.shape[:-1]) + (m,))(positions)
    for i in range(pivots.shape[-1]):
        j = _sub(_slice(pivots, (i,), (1,)), Tensor(1, mstype.int64))        # (..., 1)
        at_i = _slice(order, (i,), (1,))
        at_j = prim("GatherElements")(order, j, order.ndim - 1)
        order = _select(_equal(positions, Tensor(i, mstype.int64)), prim("BroadcastTo", shape=order.shape)(at_j),
                        _select(_equal(positions, j), prim("BroadcastTo", shape=order.shape)(at_i), order))
    return order


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) with A = P L U from getrf's packed `LU_data` (..., M, N) and 1-based `LU_pivots` (..., k),
    k = min(M, N): L (..., M, k) unit lower triangular, U (..., k, N) upper triangular, P (..., M, M) a
    permutation matrix of LU_data's dtype. L and U are None unless `unpack_data`, P unless `unpack_pivots`."""
    api = "lu_unpack"
    lu = _matrices(api, "LU_data", LU_data, _FLOATS + _INTS + (mstype.float16,), "numeric")
    if not isinstance(LU_pivots, Tensor) or LU_pivots.dtype not in _INTS:
        raise TypeError(f"{api}: 'LU_pivots' must be an integer tensor, but got "
                        f"{LU_pivots.dtype if isinstance(LU_pivots, Tensor) else type(LU_pivots).__name__}")
    unpack_data, unpack_pivots = _bool(api, "unpack_data", unpack_data), _bool(api, "unpack_pivots", unpack_pivots)
    m, n = lu.shape[-2:]
    k = min(m, n)
    if tuple(LU_pivots.shape) != tuple(lu.shape[:-2]) + (k,):
        raise ValueError(f"{api}: 'LU_pivots' must have shape {tuple(lu.shape[:-2]) + (k,)} (LU_data's batch and "
                         f"min(M, N)), but got {LU_pivots.shape}")
    if not is_building_graph() and LU_pivots.size:  # eager: the pivots must name rows (compiled code cannot read)
        values = LU_pivots.asnumpy()
        if values.min() < 1 or values.max() > m:
            raise ValueError(f"{api}: 'LU_pivots' must hold row numbers in [1, {m}], but got values from "
                             f"{values.min()} to {values.max()}")
    p = l = u = None
    if unpack_data:
        unit = Tensor(np.eye(m, k, dtype=mstype.dtype_to_nptype(lu.dtype)))
        l = prim("Add")(tril(_slice(lu, (0, 0), (m, k)), -1), unit)
        u = triu(_slice(lu, (0, 0), (k, n)))
    if unpack_pivots:
        # one_hot(order)[i, order[i]] = 1, so its transpose has P[order[i], i] = 1: P^T A = A[order].
        rows = one_hot(_row_order(LU_pivots, m), m, Tensor(1, mstype.float32), Tensor(0, mstype.float32))
        p = prim("Cast")(prim("Transpose")(rows, tuple(range(rows.ndim - 2)) + (rows.ndim - 1, rows.ndim - 2)),
                         lu.dtype)
    return p, l, u


# --- geqrf / orgqr ----------------------------------------------------------------------------------------

def _column_masks(m, j, dtype):
    """(m, 1) float masks of the rows above, at and below row j."""
    rows = np.arange(m).reshape(m, 1)
    nptype = mstype.dtype_to_nptype(dtype)
    return tuple(Tensor((cond).astype(nptype)) for cond in (rows < j, rows == j, rows > j))


def geqrf(input):
    """The QR factorization of input (..., M, N) as LAPACK's geqrf returns it: (y, tau), y holding R on and
    above the diagonal and the Householder vectors (their leading 1 implied) below it, tau (..., min(M, N))
    the reflectors' scale factors: Q = H_1 ... H_k, H_j = I - tau_j v_j v_j^T."""
    a = _matrices("geqrf", "input", input, _FLOATS, "float32 or float64")
    m, n = a.shape[-2:]
    dtype = a.dtype
    zero, one = Tensor(0, dtype), Tensor(1, dtype)
    taus = []
    for j in range(min(m, n)):
        above, at, below_mask = _column_masks(m, j, dtype)
        column = _slice(a, (0, j), (m, 1))                                  # (..., m, 1)
        alpha = _slice(a, (j, j), (1, 1))                                   # (..., 1, 1)
        below = prim("Mul")(column, below_mask)
        sq = prim("ReduceSum", keep_dims=True)(prim("Mul")(below, below), (-2,))
        reflects = prim("Greater")(sq, zero)  # nothing below the diagonal: H = I (tau 0), the column as it is
        length = prim("Sqrt")(prim("Add")(prim("Mul")(alpha, alpha), _select(reflects, sq, one)))
        beta = _select(reflects, _select(prim("GreaterEqual")(alpha, zero), prim("Neg")(length), length), alpha)
        safe_beta = _select(reflects, beta, one)
        tau = _select(reflects, prim("Div")(_sub(beta, alpha), safe_beta), prim("ZerosLike")(alpha))
        v_below = prim("Div")(below, _select(reflects, _sub(alpha, beta), prim("OnesLike")(alpha)))
        v = prim("Add")(v_below, at)                                        # (..., m, 1): 0 above row j, 1 at it
        # H_j applied to the columns right of j: A - tau v (v^T A).
        w = prim("ReduceSum", keep_dims=True)(prim("Mul")(v, a), (-2,))     # (..., 1, n)
        right = Tensor((np.arange(n) > j).astype(mstype.dtype_to_nptype(dtype)).reshape(1, n))
        a = _sub(a, prim("Mul")(prim("Mul")(prim("Mul")(tau, v), w), right))
        # Column j: kept above the diagonal, beta on it, the vector below it.
        new_column = prim("Add")(prim("Add")(prim("Mul")(column, above), prim("Mul")(beta, at)), v_below)
        pick = Tensor((np.arange(n) == j).astype(mstype.dtype_to_nptype(dtype)).reshape(1, n))
        a = prim("Add")(a, prim("Mul")(_sub(new_column, column), pick))
        taus.append(prim("Reshape")(tau, tuple(a.shape[:-2]) + (1,)))
    if not taus:
        return a, prim("Fill")(dtype, tuple(a.shape[:-2]) + (0,), 0)
    return a, (taus[0] if len(taus) == 1 else prim("Concat", axis=-1)(taus))


def orgqr(input, input2):
    """The first N columns of Q = H_1 ... H_K for Householder vectors below the diagonal of input (..., M, N)
    (M >= N) and their factors input2 (..., K), K <= N: geqrf's y and tau give its Q."""
    api = "orgqr"
    x = _matrices(api, "input", input, _FLOATS, "float32 or float64")
    tau = input2
    if not isinstance(tau, Tensor) or tau.dtype != x.dtype:
        raise TypeError(f"{api}: 'input2' must be a Tensor of input's dtype {x.dtype}, but got "
                        f"{tau.dtype if isinstance(tau, Tensor) else type(tau).__name__}")
    m, n = x.shape[-2:]
    if m < n:
        raise ValueError(f"{api}: 'input' must have at least as many rows as columns (M >= N), but got shape "
                         f"{x.shape}")
    if tau.ndim != x.ndim - 1 or tuple(tau.shape[:-1]) != tuple(x.shape[:-2]) or tau.shape[-1] > n:
        raise ValueError(f"{api}: 'input2' must have shape (..., K) with input's batch {tuple(x.shape[:-2])} and "
                         f"K <= {n}, but got {tau.shape}")
    dtype = x.dtype
    q = prim("BroadcastTo", shape=tuple(x.shape))(Tensor(np.eye(m, n, dtype=mstype.dtype_to_nptype(dtype))))
    for j in reversed(range(tau.shape[-1])):  # Q = H_1 (H_2 (... (H_k I)))
        _, at, below_mask = _column_masks(m, j, dtype)
        v = prim("Add")(prim("Mul")(_slice(x, (0, j), (m, 1)), below_mask), at)     # (..., m, 1)
        t = prim("Reshape")(_slice(tau, (j,), (1,)), tuple(tau.shape[:-1]) + (1, 1))
        w = prim("ReduceSum", keep_dims=True)(prim("Mul")(v, q), (-2,))            # (..., 1, n)
        q = _sub(q, prim("Mul")(prim("Mul")(t, v), w))
    return q
