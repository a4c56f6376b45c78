"""Linear-algebra primitives carried out by functional ops (``ops.CholeskySolve()``, ``ops.Lstsq()``,
``ops.MatrixTriangularSolve()``, ``ops.MatrixDiagV3()`` ...)."""
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function import array_index_more_func as _diag
from sprout.ops.function_primitives._attr_checks import check_bool, check_int
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["CholeskyInverse", "CholeskySolve", "Lstsq", "LuSolve", "MatrixPower", "MatrixTriangularSolve",
           "MatrixDiagV3", "MatrixDiagPartV3"]

_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


class CholeskyInverse(Primitive):
    """``CholeskyInverse(upper=False)(x)``: the inverse of A from its Cholesky factor x (A = x x^T, or x^T x
    when `upper`)."""

    @prim_attr_register
    def __init__(self, upper=False):
        check_bool("CholeskyInverse", "upper", upper)
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return F.cholesky_inverse(x, self.upper)


class CholeskySolve(Primitive):
    """``CholeskySolve(upper=False)(x1, x2)``: the solution of A y = x1 given A's Cholesky factor x2."""

    @prim_attr_register
    def __init__(self, upper=False):
        check_bool("CholeskySolve", "upper", upper)
        self.init_prim_io_names(["x1", "x2"], ["y"])

    def __call__(self, x1, x2):
        return F.cholesky_solve(x1, x2, self.upper)


class Lstsq(Primitive):
    """``Lstsq(fast=True, l2_regularizer=0.0)(x, a)``: the least-squares (or minimum-norm) solution of
    x @ y = a. MindSpore accepts only l2_regularizer 0.0; so does this."""

    @prim_attr_register
    def __init__(self, fast=True, l2_regularizer=0.0):
        check_bool("Lstsq", "fast", fast)
        if isinstance(l2_regularizer, bool) or not isinstance(l2_regularizer, (int, float)):
            raise TypeError(f"Lstsq: 'l2_regularizer' must be a float, but got {l2_regularizer!r}")
        if l2_regularizer != 0:
            raise ValueError(f"Lstsq: 'l2_regularizer' must be 0.0, but got {l2_regularizer}")
        self.init_prim_io_names(["matrix", "rhs"], ["y"])

    def __call__(self, x, a):
        return F.lstsq(x, a)


class LuSolve(Primitive):
    """``LuSolve()(x, lu_data, lu_pivots)``: the solution of A y = x given A's LU factorization."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "lu_data", "lu_pivots"], ["output"])

    def __call__(self, x, lu_data, lu_pivots):
        return F.lu_solve(x, lu_data, lu_pivots)


class MatrixPower(Primitive):
    """``MatrixPower(n)(x)``: each square matrix of x to the integer power n (the inverse's for n < 0)."""

    @prim_attr_register
    def __init__(self, n):
        check_int("MatrixPower", "n", n)
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return F.matrix_power(x, self.n)


class MatrixTriangularSolve(Primitive):
    """``MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: the solution of matrix @ y = rhs
    (matrix^T @ y = rhs with `adjoint`), reading only matrix's lower (or upper) triangle."""

    @prim_attr_register
    def __init__(self, lower=True, adjoint=False):
        check_bool("MatrixTriangularSolve", "lower", lower)
        check_bool("MatrixTriangularSolve", "adjoint", adjoint)
        self.init_prim_io_names(["matrix", "rhs"], ["y"])

    def __call__(self, matrix, rhs):
        matrix = _tensor("MatrixTriangularSolve", "matrix", matrix)
        rhs = _tensor("MatrixTriangularSolve", "rhs", rhs)
        return rhs.triangular_solve(matrix, upper=not self.lower, transpose=self.adjoint)[0]


def _check_align(api, align):
    if align not in _ALIGNS:
        raise ValueError(f"{api}: 'align' must be one of {', '.join(_ALIGNS)}, but got {align!r}")


class MatrixDiagV3(Primitive):
    """``MatrixDiagV3(align='RIGHT_LEFT')(x, k, num_rows, num_cols, padding_value)``: matrices with the
    diagonals k taken from x (see ops.matrix_diag)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        _check_align("MatrixDiagV3", align)
        self.init_prim_io_names(["x", "k", "num_rows", "num_cols", "padding_value"], ["y"])

    def __call__(self, x, k, num_rows, num_cols, padding_value):
        return _diag.matrix_diag(x, k, num_rows, num_cols, padding_value, self.align)


class MatrixDiagPartV3(Primitive):
    """``MatrixDiagPartV3(align='RIGHT_LEFT')(x, k, padding_value)``: the diagonals k of x's matrices as rows
    (see ops.matrix_diag_part)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        _check_align("MatrixDiagPartV3", align)
        self.init_prim_io_names(["x", "k", "padding_value"], ["y"])

    def __call__(self, x, k, padding_value):
        return _diag.matrix_diag_part(x, k, padding_value, self.align)
