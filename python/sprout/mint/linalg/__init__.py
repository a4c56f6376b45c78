"""mindspore.mint.linalg: inv, norm, vector_norm, matrix_norm and qr with PyTorch's arguments (`A`, `ord`,
`dim`, `keepdim`). Compositions of sprout.ops, so they differentiate and compile."""
import numbers

from sprout import ops
from sprout.mint._checks import check_bool, check_dims, check_dtype, tensor
from sprout.ops.function.math_reduce_func import _matrix_norm, _vector_norm

__all__ = ["inv", "vector_norm", "matrix_norm", "norm", "qr"]

_INF = float("inf")


def _prepare(api, x, dtype):
    x = tensor(x, api, "A")
    if check_dtype(dtype, api) is not None and x.dtype != dtype:
        x = ops.cast(x, dtype)
    return x


def inv(input):
    """The inverse of each square matrix in the last two dimensions."""
    x = tensor(input, "mint.linalg.inv")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"mint.linalg.inv: 'input' must be square matrices (..., n, n), but got shape {x.shape}")
    return ops.inverse(x)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The `ord`-norm (a number; inf, -inf and 0 included) of the elements along `dim` (all when None)."""
    api = "mint.linalg.vector_norm"
    x = _prepare(api, x, dtype)
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise TypeError(f"{api}: 'ord' must be a number, but got {ord!r}")
    dims = check_dims(dim, x.ndim, api)
    dims = tuple(range(x.ndim)) if dims is None or dims == () else dims
    if x.ndim == 0:
        return ops.abs(x)
    return _vector_norm(x, ord, dims, check_bool(keepdim, api, "keepdim"))


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm ('fro', 'nuc', 1, -1, 2, -2, inf, -inf) over the two dimensions of `dim`."""
    api = "mint.linalg.matrix_norm"
    x = _prepare(api, A, dtype)
    if ord not in ("fro", "nuc", 1, -1, 2, -2, _INF, -_INF):
        raise ValueError(f"{api}: 'ord' must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but got {ord!r}")
    if x.ndim < 2:
        raise ValueError(f"{api}: 'A' must have at least 2 dimensions, but got shape {x.shape}")
    dims = check_dims(dim, x.ndim, api)
    if dims is None or len(dims) != 2:
        raise ValueError(f"{api}: 'dim' must be a pair of dimensions, but got {dim!r}")
    return _matrix_norm(x, ord, dims[0], dims[1], check_bool(keepdim, api, "keepdim"))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm (`dim` an int, or 1-d `A`), a matrix norm (`dim` a pair, or 2-d `A` with `ord` given), or
    with `ord` and `dim` both None the 2-norm of all elements."""
    api = "mint.linalg.norm"
    x = _prepare(api, A, dtype)
    if isinstance(dim, int) and not isinstance(dim, bool) or (dim is None and ord is not None and x.ndim == 1):
        return vector_norm(x, 2 if ord is None else ord, dim, keepdim)
    if dim is None and ord is None:
        return vector_norm(x, 2, None, keepdim)
    if dim is None:
        if x.ndim != 2:
            raise ValueError(f"{api}: with 'ord' given and 'dim' None, 'A' must be 1-d or 2-d, but got shape "
                             f"{x.shape}")
        dim = (-2, -1)
    if isinstance(dim, (tuple, list)) and len(dim) == 1:
        return vector_norm(x, 2 if ord is None else ord, dim, keepdim)
    return matrix_norm(x, "fro" if ord is None else ord, dim, keepdim)


def qr(A, mode="reduced"):
    """(Q, R) of each matrix in the last two dimensions: 'reduced', 'complete', or 'r' (Q empty)."""
    x = tensor(A, "mint.linalg.qr", "A")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"mint.linalg.qr: 'mode' must be 'reduced', 'complete' or 'r', but got {mode!r}")
    if x.ndim < 2:
        raise ValueError(f"mint.linalg.qr: 'A' must have at least 2 dimensions, but got shape {x.shape}")
    if mode == "r":
        q, r = ops.qr(x, "reduced")
        return ops.zeros((0,), x.dtype), r
    return ops.qr(x, mode)
