"""mindspore.numpy's statistics and binning: cov, corrcoef, searchsorted, digitize, bincount, the
histograms, interp and ravel_multi_index. MindSpore's result dtypes: counts are float32, indices int32.
Compositions of sprout.ops (they differentiate where that means something and compile); NumPy builds only
constant tables. A count's length that depends on the data (bincount without `length`, histogram edges from
the data's range are fine) is read eagerly and must be given when compiling.
"""
import builtins

import numpy as np

from sprout import ops
from sprout import _frontend
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast
from sprout.ops.function.math_stats_more_func import bincount_fixed
from sprout.numpy._math_args import INTS, as_tensor, as_tensors, check_int, finish, is_float, promote
from sprout.numpy._math_elementwise import remainder
from sprout.numpy._math_products import dot
from sprout.numpy._math_reductions import average
from sprout.numpy._math_series import diff

__all__ = ["cov", "corrcoef", "searchsorted", "digitize", "bincount", "histogram", "histogramdd", "histogram2d",
           "interp", "ravel_multi_index"]


# --- covariance ---------------------------------------------------------------------------------------

def _variables(api, name, x, rowvar):
    """Observations as a 2-D float32 tensor with one variable per row."""
    x = as_tensor(api, name, x)
    if x.ndim > 2:
        raise ValueError(f"{api}: '{name}' must have at most 2 dimensions, but got shape {tuple(x.shape)}")
    if x.size == 0:
        raise ValueError(f"{api}: '{name}' must not be empty")
    if not isinstance(rowvar, bool):
        raise TypeError(f"{api}: 'rowvar' must be a bool, but got {rowvar!r}")
    x = cast(x, mstype.float32) if x.dtype != mstype.float64 else x
    x = x.reshape((1,) * (2 - x.ndim) + tuple(x.shape))
    if not rowvar and x.shape[0] != 1:
        x = ops.transpose(x, (1, 0))
    return x


def _weights(name, w, count, dtype, integer):
    w = as_tensor("cov", name, w)
    if integer and w.dtype not in INTS:
        raise TypeError(f"cov: '{name}' must be integers (frequency weights), but got {w.dtype}")
    if w.ndim != 1:
        raise ValueError(f"cov: '{name}' must be 1-D, but got shape {tuple(w.shape)}")
    if w.shape[0] != count:
        raise ValueError(f"cov: '{name}' has {w.shape[0]} weights for {count} observations")
    return cast(w, dtype)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """The covariance matrix of the variables of m (rows, or columns when rowvar is False) and y, normalized
    by N - 1 (N with `bias`, N - ddof with `ddof`); `fweights` are integer repeat counts, `aweights`
    observation weights. A single variable gives a 0-d result."""
    m = _variables("cov", "m", m, rowvar)
    if y is not None:
        y = _variables("cov", "y", y, rowvar)
        dtype_xy = promote(m.dtype, y.dtype)
        m = ops.concat((cast(m, dtype_xy), cast(y, dtype_xy)), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    count = m.shape[1]
    w = None
    if fweights is not None:
        w = _weights("fweights", fweights, count, m.dtype, True)
    if aweights is not None:
        aw = _weights("aweights", aweights, count, m.dtype, False)
        w = aw if w is None else ops.mul(w, aw)
    avg = average(m, axis=1, weights=w)
    if w is None:
        fact = count - ddof
    else:
        w_sum = ops.ReduceSum()(w, -1)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = ops.sub(w_sum, ddof)
        else:
            fact = ops.sub(w_sum, ops.div(ops.mul(ops.ReduceSum()(ops.mul(w, aw)), ddof), w_sum))
    centred = ops.sub(m, ops.expand_dims(avg, -1))
    weighted = centred if w is None else ops.mul(centred, w)
    result = ops.div(dot(centred, ops.transpose(weighted, (1, 0))), fact)
    result = ops.squeeze(result) if result.shape == (1, 1) else result
    return finish("cov", result, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """The Pearson correlation coefficients: cov(x, y) / (std_i std_j), clipped to [-1, 1]."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return finish("corrcoef", ops.div(c, c), dtype)
    stddev = ops.sqrt(ops.diagonal(c))
    c = ops.div(ops.div(c, ops.expand_dims(stddev, -1)), ops.expand_dims(stddev, 0))
    return finish("corrcoef", ops.clamp(c, -1.0, 1.0), dtype)


# --- searching and binning -------------------------------------------------------------------------------

def _search(a, v, side):
    """Insertion indices (int32) of v into the sorted 1-D a; `side` 'left' (before equal values) or 'right'."""
    dtype = promote(a.dtype, v.dtype)
    dtype = dtype if dtype != mstype.bool_ else mstype.int32
    a, v = cast(a, dtype), cast(v, dtype)
    flat = v.reshape((-1,)) if v.ndim == 0 else v
    index = ops.searchsorted(a, flat, side=side, out_int32=True)
    return index.reshape(()) if v.ndim == 0 else index


def searchsorted(a, v, side="left", sorter=None):
    """Where v's elements would be inserted into the sorted 1-D `a` to keep it sorted (int32); `sorter`
    the indices that sort `a` if it is not."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: 'side' must be 'left' or 'right', but got {side!r}")
    a, v = as_tensors("searchsorted", ("a", "v"), a, v)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: 'a' must be 1-D, but got shape {tuple(a.shape)}")
    if sorter is not None:
        sorter = as_tensor("searchsorted", "sorter", sorter)
        if sorter.ndim != 1 or sorter.shape[0] != a.shape[0]:
            raise ValueError(f"searchsorted: 'sorter' must be 1-D of a's length {a.shape[0]}, but got shape "
                             f"{tuple(sorter.shape)}")
        a = ops.gather(a, sorter, 0)
    return _search(a, v, side)


def digitize(x, bins, right=False):
    """The index of the bin each x falls in: i with bins[i-1] <= x < bins[i] (bins increasing; `right`
    puts the equality on the right) or bins[i-1] > x >= bins[i] (bins decreasing). int32."""
    x, bins = as_tensors("digitize", ("x", "bins"), x, bins)
    if bins.ndim != 1:
        raise ValueError(f"digitize: 'bins' must be 1-D, but got shape {tuple(bins.shape)}")
    if x.size == 0:
        return x
    if bins.shape[0] == 0:
        return ops.zeros(x.shape, mstype.int32)
    side = "left" if right else "right"
    increasing = _search(bins, x, side)
    decreasing = ops.sub(Tensor(bins.shape[0], mstype.int32), _search(ops.flip(bins, (0,)), x, side))
    ascending = ops.less_equal(bins[0], bins[bins.shape[0] - 1])
    return ops.select(ops.broadcast_to(ascending, increasing.shape), increasing, decreasing)


def bincount(x, weights=None, minlength=0, length=None):
    """How often each value 0, 1, ... occurs in the 1-D integer x (or the sum of the `weights` at its
    positions), float32, over max(x) + 1 (at least `minlength`) bins, or exactly `length` bins (which
    compiled code must give); negative values count as 0."""
    x = as_tensor("bincount", "x", x)
    if x.ndim != 1:
        raise ValueError(f"bincount: 'x' must be 1-D, but got shape {tuple(x.shape)}")
    if x.dtype not in INTS:
        raise TypeError(f"bincount: 'x' must be an integer tensor, but got {x.dtype}")
    check_int("bincount", "minlength", minlength)
    x = ops.clamp(x, 0, None)
    if length is None:
        if _frontend.is_building_graph():
            raise ValueError("bincount: give 'length' in compiled code (the number of bins cannot depend on the "
                             "data there)")
        length = max(int(x.max().asnumpy()) + 1 if x.size else 0, minlength)
    else:
        check_int("bincount", "length", length)
    if weights is not None:
        weights = as_tensor("bincount", "weights", weights)
        if weights.shape != x.shape:
            raise ValueError(f"bincount: 'weights' must have x's shape {tuple(x.shape)}, but got "
                             f"{tuple(weights.shape)}")
        weights = cast(weights, mstype.float32)
    if length == 0:
        return ops.zeros((0,), mstype.float32)
    return cast(bincount_fixed(x, length, weights), mstype.float32)


def _bin_edges(api, a, bins, range_):
    """Edges as a 1-D tensor: `bins` itself when a sequence, else bins + 1 evenly spaced edges over `range_`
    (the data's range when None; a zero-width range widened by 0.5 on each side, as NumPy)."""
    if isinstance(bins, (tuple, list, Tensor)):
        edges = as_tensor(api, "bins", bins)
        if edges.ndim != 1:
            raise ValueError(f"{api}: 'bins' must be 1-D when a sequence, but got shape {tuple(edges.shape)}")
        return edges
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise TypeError(f"{api}: 'bins' must be a positive int or a sequence of edges, but got {bins!r}")
    fractions = Tensor(np.arange(bins + 1, dtype=np.float32) / bins)
    if range_ is None:
        a = cast(a.reshape((-1,)), mstype.float32)
        start, end = ops.ReduceMin()(a, ()), ops.ReduceMax()(a, ())
        flat = ops.equal(start, end)
        start = ops.select(flat, ops.sub(start, 0.5), start)
        end = ops.select(flat, ops.add(end, 0.5), end)
        edges = ops.add(start, ops.mul(ops.sub(end, start), fractions))
        return ops.concat((edges[:bins], ops.reshape(end, (1,))), 0)  # the last edge exactly the maximum
    if not isinstance(range_, (tuple, list)) or len(range_) != 2:
        raise ValueError(f"{api}: 'range' must be a pair (start, end), but got {range_!r}")
    start, end = (float(v) for v in range_)
    if start > end:
        raise ValueError(f"{api}: 'range' must have start <= end, but got {range_!r}")
    if start == end:
        start, end = start - 0.5, end + 0.5
    return Tensor((start + (end - start) * np.arange(bins + 1, dtype=np.float64) / bins).astype(np.float32))


def _bin_indices(values, edges):
    """1 + the bin of each value (0 below the first edge, len(edges) above the last; the last edge in the
    last bin), for bincount to drop the out-of-range ones."""
    index = _search(edges, values, "right")
    last = edges[edges.shape[0] - 1]
    at_last = ops.equal(cast(values, promote(values.dtype, last.dtype)), cast(last, promote(values.dtype, last.dtype)))
    return ops.select(at_last, ops.full_like(index, edges.shape[0] - 1), index)


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002 (NumPy's name)
    """The counts (float32; sums of `weights`) of a's elements in `bins` bins (or between the given edges),
    and the edges; `density` scales the counts to integrate to 1."""
    a = as_tensor("histogram", "a", a)
    if weights is not None:
        weights = as_tensor("histogram", "weights", weights)
        if weights.shape != a.shape:
            raise ValueError(f"histogram: 'weights' must have a's shape {tuple(a.shape)}, but got "
                             f"{tuple(weights.shape)}")
        weights = weights.reshape((-1,))
    a = a.reshape((-1,))
    edges = _bin_edges("histogram", a, bins, range)
    size = edges.shape[0]
    count = bincount(_bin_indices(a, edges), weights, length=size)[1:]
    if density and count.size:
        count = ops.div(ops.div(count, cast(diff(edges), mstype.float32)), ops.ReduceSum()(count, ()))
    return count, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002 (NumPy's name)
    """The D-dimensional histogram of N points: `sample` an (N, D) tensor or a sequence of D tensors of N
    coordinates; `bins` an int or one per dimension (a count or the edges); `range` one (start, end) per
    dimension. Returns the counts (float32, shape of the bins) and the list of edges."""
    if isinstance(sample, (tuple, list)):
        sample = ops.stack(tuple(cast(as_tensor("histogramdd", "sample", s), mstype.float32) for s in sample), -1)
    elif not isinstance(sample, Tensor):
        raise TypeError(f"histogramdd: 'sample' must be an (N, D) Tensor or a sequence of D tensors, but got "
                        f"{type(sample).__name__}")
    if sample.ndim != 2:
        raise ValueError(f"histogramdd: 'sample' must be 2-D (N, D), but got shape {tuple(sample.shape)}")
    ndim = sample.shape[1]
    if isinstance(bins, int) and not isinstance(bins, bool):
        bins = (bins,) * ndim
    if not isinstance(bins, (tuple, list, Tensor)) or len(bins) != ndim:
        raise ValueError(f"histogramdd: 'bins' must be an int or have one entry per dimension ({ndim}), but got "
                         f"{bins!r}")
    if range is None:
        range = (None,) * ndim
    elif len(range) != ndim:
        raise ValueError(f"histogramdd: 'range' must have one (start, end) per dimension ({ndim})")
    if weights is not None:
        weights = cast(as_tensor("histogramdd", "weights", weights), mstype.float32)
        if weights.shape != (sample.shape[0],):
            raise ValueError(f"histogramdd: 'weights' must have one weight per point ({sample.shape[0]}), but got "
                             f"shape {tuple(weights.shape)}")
    edges, flat_index, stride, nbin = [], None, 1, []
    for i in reversed(builtins.range(ndim)):  # row-major flat index over (bins + 2) cells per dimension
        column = sample[:, i]
        e = _bin_edges("histogramdd", column, bins[i], range[i])
        edges.insert(0, e)
        index = ops.mul(_bin_indices(column, e), stride)
        flat_index = index if flat_index is None else ops.add(flat_index, index)
        nbin.insert(0, e.shape[0] + 1)
        stride *= e.shape[0] + 1
    count = bincount(cast(flat_index, mstype.int32), weights, length=stride).reshape(tuple(nbin))
    count = count[tuple(slice(1, -1) for _ in builtins.range(ndim))]
    if density:
        total = ops.ReduceSum()(count, ())
        for i, e in enumerate(edges):
            widths = cast(diff(e), mstype.float32)
            count = ops.div(count, widths.reshape(tuple(-1 if j == i else 1 for j in builtins.range(ndim))))
        count = ops.div(count, total)
    return count, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002 (NumPy's name)
    """The 2-D histogram of the points (x, y): (counts, x edges, y edges); see histogramdd."""
    count, edges = histogramdd((x, y), bins=bins, range=range, weights=weights, density=density)
    return count, edges[0], edges[1]


def interp(x, xp, fp, left=None, right=None):
    """The piecewise-linear interpolant through the points (xp, fp) at x (xp increasing); `left`/`right`
    the values below xp[0] / above xp[-1] (fp's ends by default). float32 (float64 for float64 inputs)."""
    x, xp, fp = as_tensors("interp", ("x", "xp", "fp"), x, xp, fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError(f"interp: 'xp' and 'fp' must be 1-D, but got shapes {tuple(xp.shape)} and "
                         f"{tuple(fp.shape)}")
    size = xp.shape[0]
    if fp.shape[0] != size:
        raise ValueError(f"interp: 'fp' has {fp.shape[0]} values for {size} points 'xp'")
    work = promote(x.dtype, xp.dtype, fp.dtype)
    work = work if work == mstype.float64 else mstype.float32  # float32 unless an input is float64
    x, xp, fp = cast(x, work), cast(xp, work), cast(fp, work)
    upper = ops.clamp(_search(xp, x, "left"), 0, size - 1)
    lower = ops.clamp(ops.sub(upper, 1), 0, size - 1)
    x0, x1 = ops.gather(xp, lower, 0), ops.gather(xp, upper, 0)
    y0, y1 = ops.gather(fp, lower, 0), ops.gather(fp, upper, 0)
    result = ops.div(ops.add(ops.mul(y0, ops.sub(x1, x)), ops.mul(y1, ops.sub(x, x0))), ops.sub(x1, x0))
    result = ops.select(ops.equal(x0, x1), y0, result)
    left = fp[0] if left is None else cast(as_tensor("interp", "left", left), work)
    right = fp[size - 1] if right is None else cast(as_tensor("interp", "right", right), work)
    result = ops.select(ops.less(x, xp[0]), ops.broadcast_to(left, x.shape), result)
    return ops.select(ops.greater(x, xp[size - 1]), ops.broadcast_to(right, x.shape), result)


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """The flat indices into an array of shape `dims` of the index tuples in `multi_index` (one row per
    dimension); out-of-range indices clipped ('clip') or wrapped ('wrap'), or refused ('raise', eager
    only). float32, as MindSpore's."""
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = (dims,)
    if not isinstance(dims, (tuple, list)) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"ravel_multi_index: 'dims' must be an int or a sequence of ints, but got {dims!r}")
    if mode not in ("raise", "clip", "wrap"):
        raise ValueError(f"ravel_multi_index: 'mode' must be 'raise', 'clip' or 'wrap', but got {mode!r}")
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: 'order' must be 'C' or 'F', but got {order!r}")
    multi_index = as_tensor("ravel_multi_index", "multi_index", multi_index)
    if is_float(multi_index.dtype):
        raise TypeError(f"ravel_multi_index: 'multi_index' must hold integers, but got {multi_index.dtype}")
    if multi_index.shape[0] != len(dims):
        raise ValueError(f"ravel_multi_index: 'multi_index' must have one row per dimension ({len(dims)}), but "
                         f"got {multi_index.shape[0]}")
    bounds = Tensor(np.array(dims, np.int32).reshape((-1,) + (1,) * (multi_index.ndim - 1)))
    if mode == "raise":
        if _frontend.is_building_graph():
            raise ValueError("ravel_multi_index: mode='raise' needs the index values; use 'clip' or 'wrap' in "
                             "compiled code")
        values = multi_index.asnumpy().reshape(len(dims), -1)
        for row, d in zip(values, dims):
            if ((row < 0) | (row >= d)).any():
                raise ValueError(f"ravel_multi_index: an index in {row.tolist()} is out of range for a dimension "
                                 f"of {d}")
    elif mode == "clip":
        multi_index = ops.minimum(ops.maximum(multi_index, 0), ops.sub(bounds, 1))
    else:
        multi_index = remainder(multi_index, bounds)
    strides = np.ones(len(dims), np.int64)
    sizes = dims if order == "C" else tuple(reversed(dims))
    for i in builtins.range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    if order == "F":
        strides = strides[::-1]
    strides = Tensor(strides.astype(np.float32).reshape((-1,) + (1,) * (multi_index.ndim - 1)))
    return ops.ReduceSum()(ops.mul(cast(multi_index, mstype.float32), strides), 0)
