"""Linear algebra on batches of matrices (..., m, n), MindSpore 2.x names and arguments: inverse, det
(matrix_determinant), slogdet (log_matrix_determinant), logdet, cholesky, cholesky_solve, cholesky_inverse,
matrix_solve, svd and qr. Float32 and Float64. Each is a registry primitive (MatrixInverse, MatrixDeterminant,
LogMatrixDeterminant, Cholesky, MatrixSolve, Svd, Qr) or a composition of them, so it differentiates and compiles
through their rules."""
from sprout.ops.function._prims import op_function, prim
from sprout.ops.function.array_func import _tensor

_log, _add = prim("Log"), prim("Add")

inverse = op_function("MatrixInverse", "inverse(input)",
                      "The inverse of each square matrix of `input` (..., n, n); a singular matrix is a ValueError.")
det = op_function("MatrixDeterminant", "det(input)",
                  "The determinant of each square matrix of `input` (..., n, n), shape (...).")
matrix_determinant = op_function("MatrixDeterminant", "matrix_determinant(input)",
                                 "The determinant of each square matrix of `input`: the same as det.")
slogdet = op_function("LogMatrixDeterminant", "slogdet(input)",
                      "(sign, log|det|) of each square matrix of `input` (..., n, n); a singular matrix gives sign 0 "
                      "and -inf. Only log|det| has a gradient.")
log_matrix_determinant = op_function("LogMatrixDeterminant", "log_matrix_determinant(input)",
                                     "(sign, log|det|) of each square matrix of `input`: the same as slogdet.")


def _bool(value, api, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {value!r}")
    return value


def _matrices(x, api, arg):
    x = _tensor(x, api, arg)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{api}: '{arg}' must be a batch of square matrices (..., n, n), but got shape {x.shape}")
    return x


def logdet(input):
    """log(det) of each square matrix of `input` (..., n, n): NaN where the determinant is negative, -inf where
    it is 0."""
    sign, log_abs = slogdet(input)
    # log(sign) is 0, NaN or -inf: the sum is log|det|, NaN for a negative determinant and -inf for a zero one.
    return _add(log_abs, _log(sign))


def cholesky(input_x, upper=False):
    """The Cholesky factor of each symmetric positive-definite matrix of `input_x` (..., n, n): lower L with
    A = L L^T, or with `upper` U with A = U^T U. A matrix that is not positive-definite is a ValueError."""
    return prim("Cholesky", upper=_bool(upper, "cholesky", "upper"))(_tensor(input_x, "cholesky", "input_x"))


def matrix_solve(matrix, rhs, adjoint=False):
    """X with matrix @ X = rhs (matrix^T @ X = rhs with `adjoint`) for `matrix` (..., M, M) and `rhs`
    (..., M, K) of the same batch shape. A singular matrix is a ValueError."""
    return prim("MatrixSolve", adjoint=_bool(adjoint, "matrix_solve", "adjoint"))(
        _tensor(matrix, "matrix_solve", "matrix"), _tensor(rhs, "matrix_solve", "rhs"))


def cholesky_solve(input, input2, upper=False):
    """X with A @ X = input, given A's Cholesky factor `input2` (..., N, N): lower L with A = L L^T, or with
    `upper` U with A = U^T U. `input` is (..., N, M) with the batch shape of `input2`."""
    upper = _bool(upper, "cholesky_solve", "upper")
    factor = _matrices(input2, "cholesky_solve", "input2")
    b = _tensor(input, "cholesky_solve", "input")
    if b.ndim != factor.ndim or b.shape[:-2] != factor.shape[:-2] or b.shape[-2] != factor.shape[-1]:
        raise ValueError(f"cholesky_solve: 'input' must have shape (..., N, M) for 'input2' of shape (..., N, N) "
                         f"(the same batch shape and N), but got shapes {b.shape} and {factor.shape}")
    # A = L L^T: solve L Y = B, then L^T X = Y. A = U^T U: U^T Y = B, then U X = Y.
    y = matrix_solve(factor, b, adjoint=upper)
    return matrix_solve(factor, y, adjoint=not upper)


def cholesky_inverse(input_x, upper=False):
    """inv(A) from A's Cholesky factor `input_x` (..., n, n): lower L with A = L L^T, or with `upper` U with
    A = U^T U."""
    upper = _bool(upper, "cholesky_inverse", "upper")
    factor_inverse = inverse(_matrices(input_x, "cholesky_inverse", "input_x"))
    # inv(L L^T) = inv(L)^T inv(L); inv(U^T U) = inv(U) inv(U)^T.
    return prim("BatchMatMul", transpose_a=not upper, transpose_b=upper)(factor_inverse, factor_inverse)


def svd(input, full_matrices=False, compute_uv=True):
    """Singular value decomposition input = U diag(S) V^T of each matrix of `input` (..., M, N): (s, u, v) with s
    (..., P) descending, u (..., M, P) and v (..., N, P), P = min(M, N) (M x M and N x N with `full_matrices`); s
    alone without `compute_uv`. The singular vectors' signs are LAPACK's (they may differ from MindSpore's)."""
    full_matrices = _bool(full_matrices, "svd", "full_matrices")
    compute_uv = _bool(compute_uv, "svd", "compute_uv")
    s, u, v = prim("Svd", full_matrices=full_matrices, compute_uv=compute_uv)(_tensor(input, "svd", "input"))
    return (s, u, v) if compute_uv else s


def qr(input, mode="reduced"):
    """QR decomposition input = Q R of each matrix of `input` (..., M, N): (Q, R) with Q (..., M, P) orthonormal
    and R (..., P, N) upper-triangular, P = min(M, N); `mode` 'complete': Q (..., M, M) and R (..., M, N). The signs
    are LAPACK's (R's diagonal may be negative)."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: 'mode' must be 'reduced' or 'complete', but got {mode!r}")
    return prim("Qr", full_matrices=mode == "complete")(_tensor(input, "qr", "input"))


__all__ = ["inverse", "det", "matrix_determinant", "slogdet", "log_matrix_determinant", "logdet", "cholesky",
           "matrix_solve", "cholesky_solve", "cholesky_inverse", "svd", "qr"]

TENSOR_METHODS = ["inverse", "det", "matrix_determinant", "slogdet", "log_matrix_determinant", "logdet", "cholesky",
                  "cholesky_solve", "cholesky_inverse", "svd"]
