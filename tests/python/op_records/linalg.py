"""Records of the linear-algebra ops: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, MatrixSolve,
Cholesky, Svd and Qr. Their inputs must be invertible (or positive-definite) and well conditioned for the NumPy
comparison and the finite-difference check to mean anything, so samplers build them: diagonally dominant matrices
for the LU ops, M M^T + (n + 1) I for Cholesky. Singular vectors are unique only up to sign, so Svd's records
compare them with each column's sign fixed (the first row of U non-negative); so do Qr's (the first row of Q
non-negative, R's rows flipped to match)."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

FLOATS = (ms.float32, ms.float64)
# Float32 results against a float64 reference: a well-conditioned factorization loses a few ulps per element.
TOL = {ms.float32: (1e-5, 1e-5)}


def _invertible(rng, shape):
    """Uniform entries in [-1, 1] plus n + 1 on the diagonal: strictly diagonally dominant, so invertible with a
    condition number below 2n + 3. The first row is negated in about half the matrices: determinants of both
    signs."""
    n = shape[-1]
    a = rng.uniform(-1, 1, shape) + (n + 1) * np.eye(n)
    if n:
        a[..., 0, :] *= np.where(rng.random(shape[:-2]) < 0.5, -1.0, 1.0)[..., None]
    return a


def _spd(rng, shape):
    """M M^T + (n + 1) I, exactly symmetric (so every dtype's rounding keeps it symmetric)."""
    n = shape[-1]
    m = rng.uniform(-1, 1, shape)
    a = m @ np.swapaxes(m, -1, -2) + (n + 1) * np.eye(n)
    return (a + np.swapaxes(a, -1, -2)) / 2


def _invertible_sampler(rng, shapes, dtype):
    return [_invertible(rng, shapes[0])] + [rng.uniform(-3, 3, s) for s in shapes[1:]]


def _spd_sampler(rng, shapes, dtype):
    return [_spd(rng, shapes[0])]


def _t(a, dtype=ms.float32):
    return ms.Tensor(np.asarray(a, np.float64), dtype)


def _swap(x):
    return np.swapaxes(x, -1, -2)


_SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
_BATCH_SECOND_SINGULAR = [np.eye(2), _SINGULAR]
_NOT_SQUARE_BAD = [
    (lambda op: op(_t(np.ones((2, 3)))), ValueError, r"'{arg}' must be a batch of square matrices .* are 2 and 3"),
    (lambda op: op(_t(np.ones(3))), ValueError, r"'{arg}' must be a batch of square matrices \(rank >= 2.*\(3,\)"),
    (lambda op: op(ms.Tensor(np.eye(2, dtype=np.int32))), TypeError,
     r"'{arg}' must have dtype in \[Float32, Float64\], but got Int32"),
]


def _square_bad(api, op_name, arg):
    """The shape and dtype errors every op on square matrices raises, through the function `api`."""
    return [(lambda make=make: make(api), error, f"{op_name}: " + match.format(arg=arg))
            for make, error, match in _NOT_SQUARE_BAD]


def _svd_signs_fixed(s, u, v):
    """(s, u, v) with column j of u and v negated where u[..., 0, j] < 0, in Sprout ops (the call also compiles)."""
    flip = ops.sign(u[..., 0:1, :]) + ops.equal(u[..., 0:1, :], 0).astype(u.dtype)  # 1 where u is 0: keep
    return s, u * flip, v * flip


def _svd_ref(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    flip = np.where(u[..., 0:1, :] < 0, -1.0, 1.0)
    return [s, u * flip, _swap(vh) * flip]


def _svd_leading(x):
    """Svd with full_matrices=True, keeping the unique parts: s and the leading min(M, N) singular vectors (the
    reduced factors)."""
    s, u, v = ops.svd(x, full_matrices=True)
    p = s.shape[-1]
    return _svd_signs_fixed(s, u[..., :p], v[..., :p])


def _qr_signs_fixed(q, r):
    """(q, r) with column j of q and row j of r negated where q[..., 0, j] < 0, in Sprout ops."""
    p = min(q.shape[-2], r.shape[-1])  # min(M, N)
    q, r = q[..., :p], r[..., :p, :]
    flip = ops.sign(q[..., 0:1, :]) + ops.equal(q[..., 0:1, :], 0).astype(q.dtype)
    return q * flip, r * ops.swapaxes(flip, -1, -2)


def _qr_ref(x):
    q, r = np.linalg.qr(x)
    flip = np.where(q[..., 0:1, :] < 0, -1.0, 1.0)
    return [q * flip, r * _swap(flip)]


_SQUARE_SHAPES = [((3, 3),), ((2, 4, 4),), ((2, 1, 3, 3),), ((1, 1),), ((6, 6),), ((0, 0),), ((0, 2, 2),)]
_GRAD_SHAPES = [((3, 3),), ((2, 3, 3),)]

RECORDS = [
    OpRecord("MatrixInverse", lambda x: ops.inverse(x), np.linalg.inv, _SQUARE_SHAPES, FLOATS, tol=TOL,
             sampler=_invertible_sampler, grad_shapes=_GRAD_SHAPES,
             prim=lambda: _C.Primitive("MatrixInverse", {"adjoint": False}),
             bad=_square_bad(ops.inverse, "MatrixInverse", "x") + [
                 (lambda: ops.inverse(_t(_SINGULAR)), ValueError,
                  r"MatrixInverse: 'x' must hold invertible matrices, but the matrix is singular \(its LU "
                  r"factorization has an exact zero pivot at U\[1, 1\]\)"),
                 (lambda: ops.inverse(_t(_BATCH_SECOND_SINGULAR, ms.float64)), ValueError,
                  r"MatrixInverse: .* the matrix at batch index \(1,\) is singular")]),
    OpRecord("MatrixInverse", lambda x: ops.MatrixInverse(adjoint=True)(x), lambda x: np.linalg.inv(_swap(x)),
             [((3, 3),), ((2, 4, 4),)], FLOATS, tol=TOL, sampler=_invertible_sampler, grad_shapes=_GRAD_SHAPES,
             prim=lambda: _C.Primitive("MatrixInverse", {"adjoint": True})),
    OpRecord("MatrixDeterminant", lambda x: ops.det(x), np.linalg.det, _SQUARE_SHAPES, FLOATS, tol=TOL,
             sampler=_invertible_sampler, grad_shapes=_GRAD_SHAPES,
             prim=lambda: _C.Primitive("MatrixDeterminant"), bad=_square_bad(ops.det, "MatrixDeterminant", "x")),
    OpRecord("MatrixDeterminant", lambda x: ops.det(x), np.linalg.det,  # singular: 0, not an error
             [((2, 2),)], FLOATS, sampler=lambda rng, shapes, dtype: [np.array(_SINGULAR)]),
    OpRecord("LogMatrixDeterminant", lambda x: ops.slogdet(x), lambda x: list(np.linalg.slogdet(x)),
             _SQUARE_SHAPES, FLOATS, tol=TOL, sampler=_invertible_sampler, grad_shapes=_GRAD_SHAPES,
             grad_outputs=(1,), prim=lambda: _C.Primitive("LogMatrixDeterminant"),
             bad=_square_bad(ops.slogdet, "LogMatrixDeterminant", "x")),
    OpRecord("LogMatrixDeterminant", lambda x: ops.slogdet(x), lambda x: list(np.linalg.slogdet(x)),
             [((2, 2),)], FLOATS, sampler=lambda rng, shapes, dtype: [np.array(_SINGULAR)]),  # sign 0, -inf
    OpRecord("MatrixSolve", lambda a, b: ops.matrix_solve(a, b), np.linalg.solve,
             [((3, 3), (3, 2)), ((2, 4, 4), (2, 4, 1)), ((2, 1, 3, 3), (2, 1, 3, 5)), ((1, 1), (1, 3)),
              ((3, 3), (3, 0)), ((0, 0), (0, 2)), ((0, 2, 2), (0, 2, 3))],
             FLOATS, tol=TOL, sampler=_invertible_sampler, grad_shapes=[((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 2))],
             prim=lambda: _C.Primitive("MatrixSolve", {"adjoint": False}),
             bad=_square_bad(lambda m: ops.matrix_solve(m, _t(np.ones((2, 1)))), "MatrixSolve", "matrix") + [
                 (lambda: ops.matrix_solve(_t(np.eye(2)), _t(np.ones((3, 1)))), ValueError,
                  r"MatrixSolve: 'rhs' must have shape \(\.\.\., M, K\) .* got shapes \(3, 1\) and \(2, 2\)"),
                 (lambda: ops.matrix_solve(_t(np.ones((2, 2, 2))), _t(np.ones((3, 2, 1)))), ValueError,
                  r"MatrixSolve: 'rhs' must have shape .*\(the same batch dimensions and M\), but got shapes "
                  r"\(3, 2, 1\)"),
                 (lambda: ops.matrix_solve(_t(np.eye(2)), _t(np.ones(2))), ValueError,
                  r"MatrixSolve: 'rhs' must have the rank of 'matrix'"),
                 (lambda: ops.matrix_solve(_t(np.eye(2)), _t(np.ones((2, 1)), ms.float64)), TypeError,
                  r"MatrixSolve: 'rhs' must have the dtype of 'matrix', Float32, but got Float64"),
                 (lambda: ops.matrix_solve(_t(_BATCH_SECOND_SINGULAR), _t(np.ones((2, 2, 1)))), ValueError,
                  r"MatrixSolve: 'matrix' must hold invertible matrices, but the matrix at batch index \(1,\) is "
                  r"singular"),
                 (lambda: ops.matrix_solve(_t(np.eye(2)), _t(np.ones((2, 1))), adjoint=1), TypeError,
                  r"matrix_solve: 'adjoint' must be a bool, but got 1")]),
    OpRecord("MatrixSolve", lambda a, b: ops.MatrixSolve(adjoint=True)(a, b), lambda a, b: np.linalg.solve(_swap(a), b),
             [((3, 3), (3, 2)), ((2, 4, 4), (2, 4, 3))], FLOATS, tol=TOL, sampler=_invertible_sampler,
             grad_shapes=[((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 2))],
             prim=lambda: _C.Primitive("MatrixSolve", {"adjoint": True})),
    OpRecord("Cholesky", lambda x: ops.cholesky(x), np.linalg.cholesky, _SQUARE_SHAPES, FLOATS, tol=TOL,
             sampler=_spd_sampler, grad_shapes=_GRAD_SHAPES, prim=lambda: _C.Primitive("Cholesky", {"upper": False}),
             bad=_square_bad(ops.cholesky, "Cholesky", "input_x") + [
                 (lambda: ops.cholesky(_t([[1.0, 2.0], [2.0, 1.0]])), ValueError,
                  r"Cholesky: 'input_x' must hold symmetric positive-definite matrices, but the matrix is not \(its "
                  r"leading minor of order 2 is not positive-definite\)"),
                 (lambda: ops.cholesky(_t([np.eye(3), -np.eye(3)])), ValueError,
                  r"Cholesky: .* the matrix at batch index \(1,\) is not \(its leading minor of order 1"),
                 (lambda: ops.cholesky(_t(np.eye(2)), upper=1), TypeError, "cholesky: 'upper' must be a bool")]),
    OpRecord("Svd", lambda x: _svd_signs_fixed(*ops.svd(x)), _svd_ref,
             [((4, 3),), ((3, 4),), ((2, 5, 5),), ((2, 1, 6, 2),), ((1, 1),)], FLOATS, tol={ms.float32: (1e-4, 1e-5)},
             grad_shapes=[((4, 3),), ((3, 4),), ((2, 3, 3),)], prim=lambda: _C.Primitive("Svd"),
             bad=[(lambda: ops.svd(_t(np.ones(3))), ValueError,
                   r"Svd: 'input' must be a batch of matrices \(rank >= 2, shape \(\.\.\., M, N\)\), but got "
                   r"shape \(3,\)"),
                  (lambda: ops.svd(ms.Tensor(np.eye(2, dtype=np.int64))), TypeError,
                   r"Svd: 'input' must have dtype in \[Float32, Float64\], but got Int64"),
                  (lambda: ops.svd(_t([np.eye(2), [[np.nan, 0.0], [0.0, 1.0]]])), ValueError,
                   r"Svd: 'input' must hold finite values, but the matrix at batch index \(1,\) holds NaN or infinity"),
                  (lambda: ops.svd(_t(np.eye(2)), compute_uv=0), TypeError, "svd: 'compute_uv' must be a bool")]),
    OpRecord("Svd", lambda x: ops.svd(x, compute_uv=False), lambda x: np.linalg.svd(x, compute_uv=False),
             [((4, 3),), ((2, 3, 5),), ((0, 3),), ((2, 0, 0),), ((0, 2, 2),)], FLOATS, tol={ms.float32: (1e-5, 1e-5)},
             grad_shapes=[((4, 3),), ((2, 3, 3),)], prim=lambda: _C.Primitive("Svd", {"compute_uv": False})),
    OpRecord("Svd", _svd_leading, _svd_ref, [((4, 3),), ((3, 4),), ((2, 3, 3),)], FLOATS,
             tol={ms.float32: (1e-4, 1e-5)}),
    OpRecord("Svd", lambda x: _svd_signs_fixed(*ops.svd(x, full_matrices=True)), _svd_ref,
             [((3, 3),)], FLOATS, tol={ms.float32: (1e-4, 1e-5)},
             prim=lambda: _C.Primitive("Svd", {"full_matrices": True})),  # square: the full factors are the reduced
    OpRecord("Qr", lambda x: _qr_signs_fixed(*ops.qr(x)), _qr_ref,
             [((4, 3),), ((3, 4),), ((2, 5, 5),), ((2, 1, 6, 2),), ((1, 1),)], FLOATS, tol={ms.float32: (1e-4, 1e-5)},
             grad_shapes=[((4, 3),), ((3, 4),), ((2, 3, 3),)], prim=lambda: _C.Primitive("Qr"),
             bad=[(lambda: ops.qr(_t(np.ones(3))), ValueError,
                   r"Qr: 'x' must be a batch of matrices \(rank >= 2, shape \(\.\.\., M, N\)\), but got shape \(3,\)"),
                  (lambda: ops.qr(ms.Tensor(np.eye(2, dtype=np.int32))), TypeError,
                   r"Qr: 'x' must have dtype in \[Float32, Float64\], but got Int32"),
                  (lambda: ops.qr(_t(np.eye(2)), "full"), ValueError,
                   "qr: 'mode' must be 'reduced' or 'complete', but got 'full'")]),
    OpRecord("Qr", lambda x: ops.qr(x, "complete"), lambda x: list(np.linalg.qr(x, "complete")),
             [((0, 3),), ((3, 0),), ((2, 0, 0),)], FLOATS),
    # Complete factors, compared on their unique parts: Q's first P columns and R's first P rows.
    OpRecord("Qr", lambda x: _qr_signs_fixed(*ops.qr(x, "complete")), _qr_ref, [((4, 3),), ((3, 4),), ((3, 3),)],
             FLOATS, tol={ms.float32: (1e-4, 1e-5)}),
    OpRecord("Qr", lambda x: _qr_signs_fixed(*ops.qr(x, "complete")), _qr_ref, [((3, 4),), ((3, 3),)], FLOATS,
             tol={ms.float32: (1e-4, 1e-5)}, prim=lambda: _C.Primitive("Qr", {"full_matrices": True})),
    OpRecord("Cholesky", lambda x: ops.cholesky(x, upper=True), lambda x: _swap(np.linalg.cholesky(x)),
             [((3, 3),), ((2, 4, 4),)], FLOATS, tol=TOL, sampler=_spd_sampler, grad_shapes=_GRAD_SHAPES,
             prim=lambda: _C.Primitive("Cholesky", {"upper": True})),
]
