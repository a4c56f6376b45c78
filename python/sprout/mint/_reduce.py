"""mint's reductions, scans, sorting and searching: PyTorch's `dim`/`keepdim`, int64 indices, and
(values, indices) pairs where PyTorch returns them (max/min/median over a dim, sort, topk, kthvalue, cummax)."""
import numbers

from sprout import ops
from sprout.common import dtype as mstype
from sprout.mint._checks import (INDEX_DTYPE, check_bool, check_dim, check_dims, check_dtype, check_int,
                                 is_tensor, tensor)
from sprout.ops import bincount, histc, searchsorted, sum  # noqa: F401 (same arguments as mint's)

__all__ = ["all", "any", "amax", "amin", "argmax", "argmin", "argsort", "bincount", "count_nonzero", "cummax",
           "cummin", "cumprod", "cumsum", "histc", "kthvalue", "logsumexp", "max", "mean", "median", "min",
           "nansum", "norm", "prod", "searchsorted", "sort", "std", "std_mean", "sum", "topk", "unique",
           "unique_consecutive", "var", "var_mean"]

_NO_DIM = object()  # tells max(input) from max(input, dim)


def _axes(input, dim, api):
    """`dim` normalized for a reduction over `input`: None (all axes) for None or ()."""
    x = tensor(input, api)
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        return x, None
    dims = check_dims(dim, x.ndim, api)
    return x, dims


def _cast(x, dtype, api):
    return x if check_dtype(dtype, api) is None or x.dtype == dtype else ops.cast(x, dtype)


def _indices(i):
    return i if i.dtype == INDEX_DTYPE else ops.cast(i, INDEX_DTYPE)


def all(input, dim=None, keepdim=False):
    """True where every element along `dim` (all of them when None) is nonzero."""
    x, dims = _axes(input, dim, "mint.all")
    return ops.all(x, dims, check_bool(keepdim, "mint.all", "keepdim"))


def any(input, dim=None, keepdim=False):
    """True where some element along `dim` (all of them when None) is nonzero."""
    x, dims = _axes(input, dim, "mint.any")
    return ops.any(x, dims, check_bool(keepdim, "mint.any", "keepdim"))


def amax(input, dim=(), keepdim=False):
    """The largest values along `dim` (every dimension for ())."""
    x, dims = _axes(input, dim, "mint.amax")
    return ops.amax(x, dims, check_bool(keepdim, "mint.amax", "keepdim"))


def amin(input, dim=(), keepdim=False):
    """The smallest values along `dim` (every dimension for ())."""
    x, dims = _axes(input, dim, "mint.amin")
    return ops.amin(x, dims, check_bool(keepdim, "mint.amin", "keepdim"))


def _arg_extreme(op, api, input, dim, keepdim):
    x = tensor(input, api)
    check_bool(keepdim, api, "keepdim")
    if dim is None:
        out = op(ops.reshape(x, (-1,)), 0, False)
        return ops.reshape(out, (1,) * x.ndim) if keepdim else out
    return _indices(op(x, check_dim(dim, x.ndim, api), keepdim))


def argmax(input, dim=None, keepdim=False):
    """The index (int64) of the largest value along `dim`, or in the flattened input when dim is None."""
    return _indices(_arg_extreme(lambda x, d, k: ops.argmax(x, d, k), "mint.argmax", input, dim, keepdim))


def argmin(input, dim=None, keepdim=False):
    """The index (int64) of the smallest value along `dim`, or in the flattened input when dim is None."""
    return _indices(_arg_extreme(lambda x, d, k: ops.argmin(x, d, k), "mint.argmin", input, dim, keepdim))


def sort(input, *, dim=-1, descending=False, stable=False):
    """(values, indices) sorted along `dim`; equal elements keep their order (the sort is stable either way)."""
    x = tensor(input, "mint.sort")
    check_bool(descending, "mint.sort", "descending")
    check_bool(stable, "mint.sort", "stable")
    values, indices = ops.sort(x, check_dim(dim, x.ndim, "mint.sort"), descending)
    return values, _indices(indices)


def argsort(input, dim=-1, descending=False, stable=False):
    """The int64 indices that sort `input` along `dim`."""
    return sort(input, dim=dim, descending=descending, stable=stable)[1]


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, int64 indices) of the k largest (or smallest) elements along `dim`."""
    x = tensor(input, "mint.topk")
    values, indices = ops.topk(x, check_int(k, "mint.topk", "k"), check_dim(dim, x.ndim, "mint.topk"),
                               check_bool(largest, "mint.topk", "largest"), check_bool(sorted, "mint.topk", "sorted"))
    return values, _indices(indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, int64 indices) of the k-th smallest element (k from 1) along `dim`."""
    x = tensor(input, "mint.kthvalue")
    d = check_dim(dim, x.ndim, "mint.kthvalue")
    k = check_int(k, "mint.kthvalue", "k")
    n = x.shape[d] if x.ndim else 1
    if not 1 <= k <= n:
        raise ValueError(f"mint.kthvalue: 'k' must be in [1, {n}] for a dimension of size {n}, but got {k}")
    values, indices = sort(x, dim=d)
    values, indices = ops.narrow(values, d, k - 1, 1), ops.narrow(indices, d, k - 1, 1)
    if not check_bool(keepdim, "mint.kthvalue", "keepdim") and x.ndim:
        values, indices = ops.squeeze(values, d), ops.squeeze(indices, d)
    return values, indices


def _extreme(api, reduce_all, with_dim, elementwise, input, dim, keepdim):
    x = tensor(input, api)
    if dim is _NO_DIM:
        return reduce_all(x)
    if is_tensor(dim):
        return elementwise(x, dim)  # max(input, other)
    values, indices = with_dim(x, check_dim(dim, x.ndim, api), check_bool(keepdim, api, "keepdim"))
    return values, _indices(indices)


def max(input, dim=_NO_DIM, keepdim=False):
    """max(input): the largest element (0-d). max(input, dim, keepdim=False): (values, int64 indices) along
    `dim`. max(input, other): the elementwise maximum."""
    return _extreme("mint.max", lambda x: ops.amax(x), lambda x, d, k: ops.max(x, d, k), ops.maximum,
                    input, dim, keepdim)


def min(input, dim=_NO_DIM, keepdim=False):
    """min(input): the smallest element (0-d). min(input, dim, keepdim=False): (values, int64 indices) along
    `dim`. min(input, other): the elementwise minimum."""
    return _extreme("mint.min", lambda x: ops.amin(x), lambda x, d, k: ops.min(x, d, k), ops.minimum,
                    input, dim, keepdim)


def median(input, dim=None, keepdim=False):
    """median(input): the lower median of all elements (0-d). median(input, dim, keepdim=False):
    (values, int64 indices) of the lower median along `dim`."""
    x = tensor(input, "mint.median")
    if dim is None:
        flat = ops.reshape(x, (-1,))
        return kthvalue(flat, (flat.shape[0] + 1) // 2, 0)[0]
    d = check_dim(dim, x.ndim, "mint.median")
    n = x.shape[d] if x.ndim else 1
    return kthvalue(x, (n + 1) // 2, d, keepdim)


def count_nonzero(input, dim=None):
    """The number (int64) of nonzero elements along `dim` (all when None)."""
    x, dims = _axes(input, dim, "mint.count_nonzero")
    return ops.sum(ops.cast(ops.ne(x, 0), INDEX_DTYPE), dims)


def _scan_pair(op, api, input, dim):
    x = tensor(input, api)
    values, indices = op(x, check_dim(dim, x.ndim, api))
    return values, _indices(indices)


def cummax(input, dim):
    """(values, int64 indices) of the running maximum along `dim`."""
    return _scan_pair(ops.cummax, "mint.cummax", input, dim)


def cummin(input, dim):
    """(values, int64 indices) of the running minimum along `dim`."""
    return _scan_pair(ops.cummin, "mint.cummin", input, dim)


def cumsum(input, dim, dtype=None):
    """Running sums along `dim`, computed in `dtype` when given."""
    x = _cast(tensor(input, "mint.cumsum"), dtype, "mint.cumsum")
    return ops.cumsum(x, check_dim(dim, x.ndim, "mint.cumsum"))


def cumprod(input, dim, dtype=None):
    """Running products along `dim`, computed in `dtype` when given."""
    x = _cast(tensor(input, "mint.cumprod"), dtype, "mint.cumprod")
    return ops.cumprod(x, check_dim(dim, x.ndim, "mint.cumprod"))


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(input))) along `dim`, computed stably."""
    x, dims = _axes(input, dim, "mint.logsumexp")
    return ops.logsumexp(x, dims if dims is not None else tuple(range(x.ndim)),
                         check_bool(keepdim, "mint.logsumexp", "keepdim"))


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean along `dim` (all dimensions when None), computed in `dtype` when given."""
    x, dims = _axes(input, dim, "mint.mean")
    return ops.mean(_cast(x, dtype, "mint.mean"), dims, check_bool(keepdim, "mint.mean", "keepdim"))


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """The product along `dim` (an int, or all dimensions when None), computed in `dtype` when given."""
    x = tensor(input, "mint.prod")
    d = None if dim is None else check_dim(dim, x.ndim, "mint.prod")
    return ops.prod(_cast(x, dtype, "mint.prod"), d, check_bool(keepdim, "mint.prod", "keepdim"))


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum along `dim` with NaNs counted as zero."""
    x, dims = _axes(input, dim, "mint.nansum")
    return ops.nansum(x, dims, check_bool(keepdim, "mint.nansum", "keepdim"), dtype=check_dtype(dtype, "mint.nansum"))


def _correction(correction, api):
    if isinstance(correction, bool) or not isinstance(correction, numbers.Real):
        raise TypeError(f"{api}: 'correction' must be a number, but got {correction!r}")
    return correction


def var(input, dim=None, *, correction=1, keepdim=False):
    """The variance along `dim`, dividing by N - correction (Bessel's correction by default)."""
    x, dims = _axes(input, dim, "mint.var")
    return ops.var(x, dims, _correction(correction, "mint.var"), check_bool(keepdim, "mint.var", "keepdim"))


def std(input, dim=None, *, correction=1, keepdim=False):
    """The standard deviation along `dim`, dividing by N - correction."""
    return ops.sqrt(var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """(variance, mean) along `dim`."""
    return var(input, dim, correction=correction, keepdim=keepdim), mean(input, dim, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """(standard deviation, mean) along `dim`."""
    return std(input, dim, correction=correction, keepdim=keepdim), mean(input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """PyTorch's norm: 'fro' (the 2-norm of the elements along `dim`), 'nuc' (the nuclear norm of the matrices
    over the two dims of `dim`), or the p-norm of a number p (inf and -inf included) along `dim`."""
    from sprout.mint.linalg import matrix_norm, vector_norm
    x = _cast(tensor(input, "mint.norm"), dtype, "mint.norm")
    if p == "nuc":
        return matrix_norm(x, "nuc", (-2, -1) if dim is None else dim, keepdim)
    if p == "fro":
        p = 2
    if isinstance(p, str) or isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise ValueError(f"mint.norm: 'p' must be 'fro', 'nuc' or a number, but got {p!r}")
    return vector_norm(x, p, dim, keepdim)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements (sorted), with the int64 inverse indices and counts when asked; with `dim`, the
    distinct slices along it."""
    x = tensor(input, "mint.unique")
    if dim is None:
        values, inverse, counts = _unique_flat(x)
        inverse = ops.reshape(inverse, x.shape)
    else:
        d = check_dim(dim, x.ndim, "mint.unique")
        values, inverse, counts = _unique_slices(x, d)
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out[0] if len(out) == 1 else out


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapses runs of equal consecutive elements (of slices along `dim`); inverse indices and counts when
    asked."""
    return ops.unique_consecutive(tensor(input, "mint.unique_consecutive"), return_inverse, return_counts, dim)


def _unique_flat(x):
    flat = ops.reshape(x, (-1,))
    values, _ = ops.sort(flat)
    n = flat.shape[0]
    if n == 0:
        empty = ops.zeros((0,), INDEX_DTYPE)
        return values, empty, empty
    starts = ops.concat((ops.ones((1,), mstype.bool_), ops.ne(values[1:], values[:-1])))
    distinct = ops.masked_select(values, starts)
    inverse = ops.searchsorted(distinct, flat)
    counts = ops.bincount(ops.cast(inverse, mstype.int32), minlength=distinct.shape[0])
    return distinct, _indices(inverse), _indices(counts)


def _unique_slices(x, d):
    """The distinct slices of x along d, sorted lexicographically: stable sorts by each column from the last
    (ops.sort is stable, Note [Sort keys]), then runs of equal rows collapsed."""
    moved = ops.moveaxis(x, d, 0)
    rows = ops.reshape(moved, (moved.shape[0], -1))
    order = ops.arange(0, rows.shape[0], dtype=INDEX_DTYPE)
    for column in reversed(range(rows.shape[1])):
        keys = ops.gather(rows[:, column], order, 0)
        order = ops.gather(order, _indices(ops.sort(keys)[1]), 0)
    sorted_rows = ops.gather(rows, order, 0)
    distinct, inverse_sorted, counts = ops.unique_consecutive(sorted_rows, True, True, 0)
    inverse = ops.tensor_scatter_elements(ops.zeros_like(order), order, _indices(inverse_sorted), 0)
    values = ops.moveaxis(ops.reshape(distinct, (distinct.shape[0],) + moved.shape[1:]), 0, d)
    return values, inverse, _indices(counts)
