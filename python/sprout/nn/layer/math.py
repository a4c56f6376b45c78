"""Math cells under their ``mindspore.nn`` names: MatMul, Norm, ClipByNorm, L1Regularizer, Moments,
ReduceLogSumExp, MatDet, MatInverse, MatrixDiag, MatrixDiagPart, MatrixSetDiag. Most are deprecated in
MindSpore 2.x in favour of an ops function; they stay for the code that uses them. Each is a composition of
ops functions, so gradients and graph mode come for free."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function.nn_loss_more_func import _check_bool, _check_int

_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)  # bfloat16 too: amp O2/O3 in it


def _check_tensor(api, arg, x, dtypes=None):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if dtypes is not None and x.dtype not in dtypes:
        raise TypeError(f"{api}: '{arg}' must have dtype in {[str(d) for d in dtypes]}, but got {x.dtype}")
    return x


def _axes(api, axis, allow_none=True):
    """An int or tuple/list of ints -> an int or a tuple; None or () -> None (every axis)."""
    if axis is None and allow_none:
        return None
    if isinstance(axis, (tuple, list)):
        axes = tuple(_check_int(api, "axis", a) for a in axis)
        return axes if axes else None
    return _check_int(api, "axis", axis)


class MatMul(Cell):
    """x1 @ x2 with NumPy's broadcasting and 1-d rules; `transpose_x1` / `transpose_x2` swap the last two axes
    of a 2-d or higher operand first."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = _check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = _check_bool("MatMul", "transpose_x2", transpose_x2)

    def construct(self, x1, x2):
        _check_tensor("MatMul", "x1", x1)
        _check_tensor("MatMul", "x2", x2)
        if self.transpose_x1 and x1.ndim >= 2:
            x1 = ops.swapaxes(x1, -1, -2)
        if self.transpose_x2 and x2.ndim >= 2:
            x2 = ops.swapaxes(x2, -1, -2)
        k1 = x1.shape[-1]
        k2 = x2.shape[0] if x2.ndim == 1 else x2.shape[-2]
        if k1 != k2:
            raise ValueError(f"MatMul: the columns of 'x1' ({k1}) must equal the rows of 'x2' ({k2}) (after the "
                             f"transposes), but got shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
        return ops.matmul(x1, x2)


class Norm(Cell):
    """The Euclidean norm sqrt(sum(x^2)) over `axis` (() means every axis)."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.keep_dims = _check_bool("Norm", "keep_dims", keep_dims)
        self.axis = _axes("Norm", axis, allow_none=False)

    def construct(self, x):
        _check_tensor("Norm", "x", x)
        return ops.sqrt(ops.sum(ops.square(x), self.axis, self.keep_dims))


class ClipByNorm(Cell):
    """x * clip_norm / max(||x||_2, clip_norm), the norm over `axis` (None: all axes): x scaled down to L2 norm
    clip_norm where it is longer, unchanged elsewhere."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = _axes("ClipByNorm", axis)

    def construct(self, x, clip_norm):
        _check_tensor("ClipByNorm", "x", x, _FLOATS)
        if isinstance(clip_norm, Tensor):
            if clip_norm.ndim > 1 or clip_norm.size != 1:
                raise ValueError(f"ClipByNorm: 'clip_norm' must have shape () or (1,), but got "
                                 f"{tuple(clip_norm.shape)}")
            clip = ops.cast(ops.reshape(clip_norm, ()), x.dtype)
        elif isinstance(clip_norm, (int, float)) and not isinstance(clip_norm, bool):
            clip = Tensor(float(clip_norm), x.dtype)
        else:
            raise TypeError(f"ClipByNorm: 'clip_norm' must be a Tensor or a number, but got "
                            f"{type(clip_norm).__name__}")
        norm = ops.sqrt(ops.sum(ops.square(x), self.axis, True))
        return x * clip / ops.maximum(norm, clip)


class L1Regularizer(Cell):
    """scale * sum(|weights|)."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"L1Regularizer: 'scale' must be an int or float, but got {type(scale).__name__}")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"L1Regularizer: 'scale' must be finite, but got {scale}")
        if scale <= 0:
            raise ValueError(f"L1Regularizer: 'scale' must be greater than 0, but got {scale}")
        self.scale = float(scale)

    def construct(self, weights):
        _check_tensor("L1Regularizer", "weights", weights)
        if weights.dtype == mstype.bool_:
            raise TypeError("L1Regularizer: 'weights' must be a numeric tensor, but got Bool")
        return self.scale * ops.sum(ops.abs(weights))


class Moments(Cell):
    """(mean, variance) of x over `axis` (None or (): every axis), the variance the population one; float16
    inputs are computed in float32 and the results cast back, as MindSpore."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        if isinstance(axis, list) or (axis is not None and not isinstance(axis, (int, tuple))):
            raise TypeError(f"Moments: 'axis' must be an int or a tuple of ints, but got {type(axis).__name__}")
        self.axis = _axes("Moments", axis)
        self.keep_dims = False if keep_dims is None else _check_bool("Moments", "keep_dims", keep_dims)

    def construct(self, x):
        _check_tensor("Moments", "x", x, _FLOATS)
        dtype = x.dtype
        if dtype == mstype.float16:
            x = ops.cast(x, mstype.float32)
        mean = ops.mean(x, self.axis, True)
        variance = ops.mean(ops.square(x - mean), self.axis, self.keep_dims)
        if not self.keep_dims:
            mean = ops.mean(x, self.axis, False)
        if dtype == mstype.float16:
            mean, variance = ops.cast(mean, dtype), ops.cast(variance, dtype)
        return mean, variance


class ReduceLogSumExp(Cell):
    """log(sum(exp(x))) over `axis`, computed stably (the maximum subtracted first)."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"ReduceLogSumExp: 'axis' must be an int, tuple or list, but got {type(axis).__name__}")
        self.axis = _axes("ReduceLogSumExp", axis)
        self.keep_dims = _check_bool("ReduceLogSumExp", "keep_dims", keep_dims)

    def construct(self, x):
        _check_tensor("ReduceLogSumExp", "x", x, _FLOATS)
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        return ops.logsumexp(x, axis, self.keep_dims)


def _check_square(api, a):
    _check_tensor(api, "a", a, _FLOATS)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{api}: 'a' must be a (batch of) square matrices (..., M, M), but got shape "
                         f"{tuple(a.shape)}")


class MatDet(Cell):
    """The determinant of symmetric positive definite matrices (..., M, M), as MindSpore computes it: the square
    of the product of the Cholesky factor's diagonal (a matrix that is not positive definite is refused by the
    factorization)."""

    def construct(self, a):
        _check_square("MatDet", a)
        factor = ops.cholesky(a)
        return ops.square(ops.prod(ops.diagonal(factor, 0, -2, -1), -1))


class MatInverse(Cell):
    """The inverse of symmetric positive definite matrices (..., M, M) through their Cholesky factor L:
    a^-1 = L^-T L^-1, as MindSpore computes it."""

    def construct(self, a):
        _check_square("MatInverse", a)
        factor_inverse = ops.inverse(ops.cholesky(a))
        return ops.matmul(ops.swapaxes(factor_inverse, -1, -2), factor_inverse)


def _eye(n, m, dtype):
    return ops.eye(n, m, dtype)


class MatrixDiag(Cell):
    """(..., N) -> (..., N, N): each vector on the diagonal of a zero matrix."""

    def construct(self, input_x):
        _check_tensor("MatrixDiag", "input_x", input_x)
        if input_x.ndim < 1:
            raise ValueError("MatrixDiag: 'input_x' must be at least 1-d, but got a 0-d tensor")
        n = input_x.shape[-1]
        return ops.expand_dims(input_x, -1) * _eye(n, n, input_x.dtype)


class MatrixDiagPart(Cell):
    """(..., M, N) -> (..., min(M, N)): the main diagonal of each matrix."""

    def construct(self, input_x):
        _check_tensor("MatrixDiagPart", "input_x", input_x)
        if input_x.ndim < 2:
            raise ValueError(f"MatrixDiagPart: 'input_x' must be at least 2-d, but got shape {tuple(input_x.shape)}")
        return ops.diagonal(input_x, 0, -2, -1)


class MatrixSetDiag(Cell):
    """(..., M, N) matrices with their main diagonal replaced by `diagonal` (..., min(M, N))."""

    def construct(self, input_x, diagonal):
        _check_tensor("MatrixSetDiag", "input_x", input_x)
        _check_tensor("MatrixSetDiag", "diagonal", diagonal)
        if input_x.ndim < 2:
            raise ValueError(f"MatrixSetDiag: 'input_x' must be at least 2-d, but got shape {tuple(input_x.shape)}")
        m, n = input_x.shape[-2:]
        k = min(m, n)
        expected = tuple(input_x.shape[:-2]) + (k,)
        if tuple(diagonal.shape) != expected:
            raise ValueError(f"MatrixSetDiag: 'diagonal' must have shape {expected}, but got {tuple(diagonal.shape)}")
        eye = _eye(m, n, input_x.dtype)
        # The diagonal as an (..., M, N) matrix: a (..., M, 1) column (zero-extended past k) times the identity.
        column = ops.expand_dims(ops.cast(diagonal, input_x.dtype), -1)
        if m > k:
            column = ops.pad(column, (0, 0, 0, m - k))
        return input_x * (1 - eye) + column * eye
