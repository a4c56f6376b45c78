"""mindspore.numpy.array_creations: NumPy's array-creation functions on Sprout tensors, with MindSpore's
arguments and dtype rules (Python ints give int32, floats float32, and float32 is the default dtype).

Tables that depend only on arguments known when the code is written or compiled (eye, tri, index tables,
grids) are built with NumPy and become constants; everything computed from a tensor's values goes through
sprout.ops, so it differentiates and compiles.
"""
import builtins
import numbers

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.numpy._numpy_args import (check_axis, check_bool, check_dtype, check_int, check_ints, check_shape,
                                      is_python_number, optional_dtype, to_tensor)

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _constant(values, dtype):
    """A NumPy table as a tensor of `dtype` (a constant when compiled)."""
    return Tensor(np.asarray(values).astype(mstype.dtype_to_nptype(dtype)))


def _is_float(dtype):
    return dtype in _FLOATS or dtype == mstype.bfloat16


# ---- from data ------------------------------------------------------------------------------------

def array(obj, dtype=None, copy=True, ndmin=0):
    """`obj` (a Tensor, number, or nested list/tuple) as a Tensor of `dtype`, with at least `ndmin` axes
    (new axes in front). Lists of Python ints give int32 and of floats float32. With copy=True a Tensor
    input is copied, so writing to the result leaves it alone."""
    out = asarray(obj, dtype)
    ndmin = check_int(ndmin, "array", "ndmin")
    if out.ndim < ndmin:
        out = ops.reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    if check_bool(copy, "array", "copy") and out is obj:
        out = ops.Identity()(out)
    return out


def asarray(a, dtype=None):
    """`a` as a Tensor (the Tensor itself when it is one of `dtype` already)."""
    out = to_tensor(a, "asarray", "a")
    dtype = optional_dtype(dtype, "asarray")
    return out if dtype is None or out.dtype == dtype else ops.cast(out, dtype)


def asfarray(a, dtype=mstype.float32):
    """`a` as a floating Tensor: `dtype` when it is a float dtype, else float32."""
    if dtype is None:
        return asarray(a)
    dtype = check_dtype(dtype, "asfarray")
    if dtype not in _FLOATS:
        dtype = mstype.float32
    return asarray(a, dtype)


def copy(a):
    """A new Tensor with the values of `a`."""
    return ops.Identity()(to_tensor(a, "copy", "a"))


# ---- filled ---------------------------------------------------------------------------------------

def _filled(api, shape, value, dtype):
    return ops.fill(dtype, check_shape(shape, api), value)


def ones(shape, dtype=mstype.float32):
    """A Tensor of `shape` (an int or a tuple of ints) filled with ones."""
    return _filled("ones", shape, 1, check_dtype(dtype, "ones"))


def zeros(shape, dtype=mstype.float32):
    """A Tensor of `shape` (an int or a tuple of ints) filled with zeros."""
    return _filled("zeros", shape, 0, check_dtype(dtype, "zeros"))


def empty(shape, dtype=mstype.float32):
    """A Tensor of `shape`; its values are unspecified by NumPy: here zeros, as MindSpore gives."""
    return _filled("empty", shape, 0, check_dtype(dtype, "empty"))


def _value_dtype(value):
    """The dtype mindspore.numpy gives a Python scalar: bool, int32 or float32."""
    if isinstance(value, (bool, np.bool_)):
        return mstype.bool_
    if isinstance(value, (int, np.integer)):
        return mstype.int32
    return mstype.float32


def full(shape, fill_value, dtype=None):
    """A Tensor of `shape` filled with `fill_value`: a number, or an array broadcast to `shape`. The dtype
    is `dtype`, else the value's (int32 for a Python int, float32 for a float)."""
    shape = check_shape(shape, "full")
    dtype = optional_dtype(dtype, "full")
    if is_python_number(fill_value):
        return ops.fill(dtype or _value_dtype(fill_value), shape, fill_value)
    value = to_tensor(fill_value, "full", "fill_value")
    if dtype is not None and value.dtype != dtype:
        value = ops.cast(value, dtype)
    try:
        np.broadcast_shapes(tuple(value.shape), shape)
    except ValueError:
        raise ValueError(f"full: 'fill_value' of shape {tuple(value.shape)} does not broadcast to shape "
                         f"{shape}") from None
    return ops.broadcast_to(value, shape)


def _like(api, a, dtype, shape):
    a = to_tensor(a, api, "a" if api != "empty_like" else "prototype")
    dtype = optional_dtype(dtype, api) or a.dtype
    shape = tuple(a.shape) if shape is None else check_shape(shape, api)
    return dtype, shape


def ones_like(a, dtype=None, shape=None):
    """Ones of the shape and dtype of `a` (or the `dtype` and `shape` given)."""
    dtype, shape = _like("ones_like", a, dtype, shape)
    return ops.fill(dtype, shape, 1)


def zeros_like(a, dtype=None, shape=None):
    """Zeros of the shape and dtype of `a` (or the `dtype` and `shape` given)."""
    dtype, shape = _like("zeros_like", a, dtype, shape)
    return ops.fill(dtype, shape, 0)


def empty_like(prototype, dtype=None, shape=None):
    """A Tensor of the shape and dtype of `prototype` (or those given); zeros, as MindSpore gives."""
    dtype, shape = _like("empty_like", prototype, dtype, shape)
    return ops.fill(dtype, shape, 0)


def full_like(a, fill_value, dtype=None, shape=None):
    """`fill_value` broadcast to the shape of `a`, with the dtype of `a` (or the `dtype` and `shape` given)."""
    dtype, shape = _like("full_like", a, dtype, shape)
    return full(shape, fill_value, dtype)


# ---- ranges ---------------------------------------------------------------------------------------

def _scalar(value, api, arg):
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}: '{arg}' must be a number or a one-element Tensor, but got shape {value.shape}")
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {value!r}")
    return value


def arange(start, stop=None, step=None, dtype=None):
    """Values from `start` up to, not including, `stop`, `step` apart (one argument: from 0 up to it).
    The dtype is int32 when every argument is an int, else float32, unless `dtype` is given."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    start, stop, step = (_scalar(v, "arange", a) for v, a in ((start, "start"), (stop, "stop"), (step, "step")))
    if step == 0:
        raise ValueError("arange: 'step' must not be zero")
    if dtype is None:
        dtype = mstype.int32 if builtins.all(isinstance(v, (int, np.integer)) for v in (start, stop, step)) \
            else mstype.float32
    else:
        dtype = check_dtype(dtype, "arange")
    if builtins.max(0, int(np.ceil((stop - start) / step))) == 0:
        return zeros((0,), dtype)
    return ops.arange(start, stop, step, dtype=dtype)


def _space_ends(api, start, stop, dtype):
    """start and stop as float tensors (the compute dtype: float32, or float64 when asked for)."""
    compute = mstype.float64 if dtype == mstype.float64 else mstype.float32
    ends = []
    for value, arg in ((start, "start"), (stop, "stop")):
        t = to_tensor(value, api, arg)
        ends.append(t if t.dtype == compute else ops.cast(t, compute))
    return ends


def _check_num(api, num):
    num = check_int(num, api, "num")
    if num < 0:
        raise ValueError(f"{api}: 'num' must be non-negative, but got {num}")
    return num


def _moved_in(values, axis, api):
    """Samples made along axis 0 moved to `axis` of the result."""
    axis = check_axis(axis, values.ndim, api)
    return values if axis == 0 else ops.moveaxis(values, 0, axis)


def _linspace(api, start, stop, num, endpoint, dtype, axis):
    """(samples along `axis`, step): start + i * step, the last one exactly `stop` when endpoint=True."""
    num = _check_num(api, num)
    endpoint = check_bool(endpoint, api, "endpoint")
    start, stop = _space_ends(api, start, stop, dtype)
    shape = np.broadcast_shapes(tuple(start.shape), tuple(stop.shape))
    divisions = num - 1 if endpoint else num
    step = (stop - start) / divisions if divisions > 0 else (stop - start) * float('nan')
    index = _constant(np.arange(num).reshape((num,) + (1,) * len(shape)), start.dtype)
    samples = ops.broadcast_to(start, (num,) + shape) + index * (step if divisions > 0 else 0 * step)
    if endpoint and num > 1:  # the last sample is `stop` exactly, as NumPy's
        samples = ops.concat((samples[:-1], ops.expand_dims(ops.broadcast_to(stop, shape), 0)), 0)
    return _moved_in(samples, axis, api), step


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced samples from `start` to `stop` (included when `endpoint`); start and stop may be
    arrays, whose samples go along `axis`. Float32 unless `dtype` is given (integer dtypes truncate, as
    NumPy's). With `retstep`, also the spacing."""
    dtype = optional_dtype(dtype, "linspace") or mstype.float32
    samples, step = _linspace("linspace", start, stop, num, endpoint, dtype, axis)
    out = samples if samples.dtype == dtype else ops.cast(samples, dtype)
    return (out, step) if check_bool(retstep, "linspace", "retstep") else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`base` to the power of linspace(start, stop, num, endpoint): samples evenly spaced on a log scale."""
    dtype = optional_dtype(dtype, "logspace") or mstype.float32
    exponents, _ = _linspace("logspace", start, stop, num, endpoint, dtype, axis)
    base = to_tensor(base, "logspace", "base")
    out = ops.pow(ops.cast(base, exponents.dtype), exponents)
    return out if out.dtype == dtype else ops.cast(out, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` samples from `start` to `stop` evenly spaced on a log scale (a geometric progression); both
    ends must be nonzero and of one sign (two negative ends give negative samples)."""
    dtype = optional_dtype(dtype, "geomspace") or mstype.float32
    start_t, stop_t = _space_ends("geomspace", start, stop, dtype)
    sign = ops.sign(start_t)
    exponents, _ = _linspace("geomspace", ops.log(ops.abs(start_t)), ops.log(ops.abs(stop_t)), num, endpoint,
                             dtype, 0)
    samples = ops.exp(exponents) * sign
    num = samples.shape[0]
    if num > 0:  # the ends exactly, as NumPy's
        shape = tuple(samples.shape[1:])
        pieces = [ops.expand_dims(ops.broadcast_to(start_t, shape), 0), samples[1:]]
        if endpoint and num > 1:
            pieces[1] = samples[1:-1]
            pieces.append(ops.expand_dims(ops.broadcast_to(stop_t, shape), 0))
        samples = ops.concat(pieces, 0)
    samples = _moved_in(samples, axis, "geomspace")
    return samples if samples.dtype == dtype else ops.cast(samples, dtype)


# ---- matrices -------------------------------------------------------------------------------------

def eye(N, M=None, k=0, dtype=mstype.float32):
    """An N x M matrix (N x N when M is None) with ones on diagonal `k` (positive: above the main one)."""
    N = check_int(N, "eye", "N")
    M = N if M is None else check_int(M, "eye", "M")
    if N < 0 or M < 0:
        raise ValueError(f"eye: 'N' and 'M' must be non-negative, but got {N} and {M}")
    return _constant(np.eye(N, M, check_int(k, "eye", "k")), check_dtype(dtype, "eye"))


def identity(n, dtype=mstype.float32):
    """The n x n identity matrix."""
    return eye(check_int(n, "identity", "n"), dtype=dtype)


def tri(N, M=None, k=0, dtype=mstype.float32):
    """An N x M matrix (N x N when M is None) of ones on and below diagonal `k`, zeros above."""
    N = check_int(N, "tri", "N")
    M = N if M is None else check_int(M, "tri", "M")
    if N < 0 or M < 0:
        raise ValueError(f"tri: 'N' and 'M' must be non-negative, but got {N} and {M}")
    return _constant(np.tri(N, M, check_int(k, "tri", "k")), check_dtype(dtype, "tri"))


def _triangle(api, m, k, keep_lower):
    m = to_tensor(m, api, "m")
    k = check_int(k, api, "k")
    if m.ndim == 0:
        raise ValueError(f"{api}: 'm' must have at least one dimension, but got a 0-d tensor")
    if m.ndim == 1:  # NumPy: a vector is taken as the rows of a square matrix
        m = ops.broadcast_to(m, (m.shape[0], m.shape[0]))
    return ops.tril(m, k) if keep_lower else ops.triu(m, k)


def tril(m, k=0):
    """`m` with the elements above diagonal `k` of its last two axes zeroed (a 1-d `m` is first repeated
    into a square matrix)."""
    return _triangle("tril", m, k, True)


def triu(m, k=0):
    """`m` with the elements below diagonal `k` of its last two axes zeroed (a 1-d `m` is first repeated
    into a square matrix)."""
    return _triangle("triu", m, k, False)


def _index_tensors(indices):
    return tuple(_constant(i, mstype.int32) for i in indices)


def tril_indices(n, k=0, m=None):
    """(rows, columns) of the lower triangle, on and below diagonal `k`, of an n x m matrix (m = n when
    None), as int32 Tensors."""
    n = check_int(n, "tril_indices", "n")
    m = n if m is None else check_int(m, "tril_indices", "m")
    return _index_tensors(np.tril_indices(n, check_int(k, "tril_indices", "k"), m))


def triu_indices(n, k=0, m=None):
    """(rows, columns) of the upper triangle, on and above diagonal `k`, of an n x m matrix (m = n when
    None), as int32 Tensors."""
    n = check_int(n, "triu_indices", "n")
    m = n if m is None else check_int(m, "triu_indices", "m")
    return _index_tensors(np.triu_indices(n, check_int(k, "triu_indices", "k"), m))


def _matrix_shape(api, arr):
    arr = to_tensor(arr, api, "arr")
    if arr.ndim != 2:
        raise ValueError(f"{api}: 'arr' must be 2-d, but got shape {tuple(arr.shape)}")
    return arr.shape


def tril_indices_from(arr, k=0):
    """tril_indices for the shape of the 2-d `arr`."""
    n, m = _matrix_shape("tril_indices_from", arr)
    return tril_indices(n, k, m)


def triu_indices_from(arr, k=0):
    """triu_indices for the shape of the 2-d `arr`."""
    n, m = _matrix_shape("triu_indices_from", arr)
    return triu_indices(n, k, m)


def diag_indices(n, ndim=2):
    """`ndim` copies of arange(n) (int32): the indices of the main diagonal of an n x ... x n array."""
    n = check_int(n, "diag_indices", "n")
    ndim = check_int(ndim, "diag_indices", "ndim")
    if n < 0 or ndim < 0:
        raise ValueError(f"diag_indices: 'n' and 'ndim' must be non-negative, but got {n} and {ndim}")
    return _index_tensors([np.arange(n)] * ndim)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """Diagonal `offset` of the matrices that axes `axis1` and `axis2` of `a` form, along a new last axis."""
    a = to_tensor(a, "diagonal", "a")
    if a.ndim < 2:
        raise ValueError(f"diagonal: 'a' must have at least two dimensions, but got shape {tuple(a.shape)}")
    axis1 = check_axis(axis1, a.ndim, "diagonal", "axis1")
    axis2 = check_axis(axis2, a.ndim, "diagonal", "axis2")
    if axis1 == axis2:
        raise ValueError(f"diagonal: 'axis1' and 'axis2' must differ, but both are {axis1}")
    return ops.diagonal(a, check_int(offset, "diagonal", "offset"), axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Sum along diagonal `offset` of the matrices of axes `axis1`, `axis2` (integer and bool inputs are
    summed as int64, as MindSpore's; `dtype` casts the result)."""
    d = diagonal(a, offset, axis1, axis2)
    if not _is_float(d.dtype) and d.dtype != mstype.int64:
        d = ops.cast(d, mstype.int64)
    out = ops.sum(d, -1)
    dtype = optional_dtype(dtype, "trace")
    return out if dtype is None or out.dtype == dtype else ops.cast(out, dtype)


def diag(v, k=0):
    """A 1-d `v` as a square matrix with `v` on diagonal `k`; of a 2-d `v`, its diagonal `k`."""
    v = to_tensor(v, "diag", "v")
    k = check_int(k, "diag", "k")
    if v.ndim == 1:
        return ops.diagflat(v, k)
    if v.ndim == 2:
        return ops.diagonal(v, k, 0, 1)
    raise ValueError(f"diag: 'v' must be 1-d or 2-d, but got shape {tuple(v.shape)}")


def diagflat(v, k=0):
    """A square matrix with the flattened `v` on diagonal `k`."""
    v = to_tensor(v, "diagflat", "v")
    return ops.diagflat(ops.reshape(v, (-1,)), check_int(k, "diagflat", "k"))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d `x`: column j is x ** (N - 1 - j) (x ** j when `increasing`);
    N defaults to len(x)."""
    x = to_tensor(x, "vander", "x")
    if x.ndim != 1:
        raise ValueError(f"vander: 'x' must be 1-d, but got shape {tuple(x.shape)}")
    N = x.shape[0] if N is None else check_int(N, "vander", "N")
    if N < 0:
        raise ValueError(f"vander: 'N' must be non-negative, but got {N}")
    powers = np.arange(N) if check_bool(increasing, "vander", "increasing") else np.arange(N)[::-1]
    if x.dtype == mstype.bool_:
        x = ops.cast(x, mstype.int32)
    if N == 0:
        return zeros((x.shape[0], 0), x.dtype)
    # Products of columns rather than pow, so integer results are exact and the gradient is defined at 0.
    columns = [ops.ones_like(x)]
    for _ in builtins.range(1, N):
        columns.append(columns[-1] * x)
    return ops.stack([columns[p] for p in powers], 1)


# ---- grids and index arrays ----------------------------------------------------------------------

def meshgrid(*xi, sparse=False, indexing='xy'):
    """Coordinate matrices from the 1-d coordinate vectors `xi` (their flattened contents): 'xy' indexing
    swaps the first two axes of the output (Cartesian), 'ij' does not (matrix). With sparse=True the outputs
    keep size 1 along the other axes. A list, as MindSpore's."""
    if indexing not in ('xy', 'ij'):
        raise ValueError(f"meshgrid: 'indexing' must be 'xy' or 'ij', but got {indexing!r}")
    sparse = check_bool(sparse, "meshgrid", "sparse")
    vectors = [ops.reshape(to_tensor(x, "meshgrid", "xi"), (-1,)) for x in xi]
    ndim = len(vectors)
    sizes = [v.shape[0] for v in vectors]
    if indexing == 'xy' and ndim > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, v in enumerate(vectors):
        axis = {0: 1, 1: 0}.get(i, i) if indexing == 'xy' and ndim > 1 else i
        shape = [1] * ndim
        shape[axis] = v.shape[0]
        grid = ops.reshape(v, tuple(shape))
        grids.append(grid if sparse else ops.broadcast_to(grid, tuple(sizes)))
    return grids


def _grid_axes(api, key):
    """NumPy's values of each slice of an mgrid/ogrid key, and whether any is float."""
    slices = key if isinstance(key, tuple) else (key,)
    axes, floating = [], False
    for s in slices:
        if not isinstance(s, builtins.slice):
            raise TypeError(f"{api}: each index must be a slice such as 0:5 or 0:1:5j, but got {s!r}")
        start = 0 if s.start is None else s.start
        step = 1 if s.step is None else s.step
        for value in (start, s.stop, step):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (numbers.Number, np.number))):
                raise TypeError(f"{api}: slice bounds and steps must be numbers, but got {s!r}")
        if s.stop is None:
            raise ValueError(f"{api}: each slice needs a stop, but got {s!r}")
        if isinstance(step, complex):  # a complex step is a count of points, both ends included
            axes.append(np.linspace(start, s.stop, int(abs(step))))
            floating = True
        else:
            axes.append(np.arange(start, s.stop, step))
            floating = floating or builtins.any(isinstance(v, (float, np.floating)) for v in (start, s.stop, step))
    return axes, isinstance(key, tuple), floating


class _Grid:
    """mgrid / ogrid: indexed with slices, they give the grids NumPy's do (int32, or float32 when a bound,
    step or a complex step count makes them fractional)."""

    def __init__(self, name, sparse):
        self._name, self._sparse = name, sparse

    def __getitem__(self, key):
        axes, multi, floating = _grid_axes(self._name, key)
        dtype = mstype.float32 if floating else mstype.int32
        if not multi:
            return _constant(axes[0], dtype)
        grids = np.meshgrid(*axes, indexing='ij', sparse=self._sparse)
        if self._sparse:
            return [_constant(g, dtype) for g in grids]
        return _constant(np.stack(grids), dtype)

    def __repr__(self):
        return f"sprout.numpy.{self._name}"


mgrid = _Grid("mgrid", sparse=False)
ogrid = _Grid("ogrid", sparse=True)


def indices(dimensions, dtype=mstype.int32, sparse=False):
    """For a grid of shape `dimensions`, one Tensor per axis holding each point's index along that axis
    (a list, as MindSpore's; with sparse=True each keeps size 1 along the other axes)."""
    dimensions = check_shape(dimensions, "indices", "dimensions")
    dtype = check_dtype(dtype, "indices")
    grids = np.indices(dimensions, sparse=check_bool(sparse, "indices", "sparse"))
    return [_constant(g, dtype) for g in grids]


def ix_(*args):
    """Open-mesh index arrays from 1-d integer sequences: the i-th reshaped to size 1 on every other axis,
    so together they index the cross product."""
    ndim = len(args)
    out = []
    for i, arg in enumerate(args):
        if not isinstance(arg, Tensor):
            raise TypeError(f"ix_: each argument must be a Tensor, but argument {i} is {type(arg).__name__}")
        if arg.ndim != 1:
            raise ValueError(f"ix_: each argument must be 1-d, but argument {i} has shape {tuple(arg.shape)}")
        shape = [1] * ndim
        shape[i] = arg.shape[0]
        out.append(ops.reshape(arg, tuple(shape)))
    return tuple(out)


# ---- windows --------------------------------------------------------------------------------------

def _window(api, M, terms):
    """sum_j c_j * cos(j * 2 pi n / (M - 1)) for n in 0..M-1, in float32 as MindSpore computes it."""
    M = check_int(M, api, "M")
    if M <= 0:
        return zeros((0,))
    if M == 1:
        return ones((1,))
    n = ops.arange(0, M, 1, dtype=mstype.float32)
    out = None
    for j, c in enumerate(terms):
        term = c * ops.cos(n * (2 * j * np.pi / (M - 1))) if j else ops.fill(mstype.float32, (M,), c)
        out = term if out is None else out + term
    return out


def hamming(M):
    """The Hamming window of M points (symmetric), float32."""
    return _window("hamming", M, (0.54, -0.46))


def hanning(M):
    """The Hann window of M points (symmetric), float32."""
    return _window("hanning", M, (0.5, -0.5))


def blackman(M):
    """The Blackman window of M points (symmetric), float32."""
    return _window("blackman", M, (0.42, -0.5, 0.08))


def bartlett(M):
    """The Bartlett (triangular) window of M points (symmetric), float32."""
    M = check_int(M, "bartlett", "M")
    if M <= 0:
        return zeros((0,))
    if M == 1:
        return ones((1,))
    n = ops.arange(0, M, 1, dtype=mstype.float32)
    half = (M - 1) / 2.0
    return 1.0 - ops.abs(n - half) / half


# ---- histogram bins -------------------------------------------------------------------------------

def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002 (NumPy's argument name)
    """The edges of `bins` equal-width bins over `range` (default: the minimum to the maximum of `a`; a
    zero-width range widens to +-0.5), float32; `bins` given as a 1-d sequence is returned as the edges."""
    a = to_tensor(a, "histogram_bin_edges", "a")
    if weights is not None:
        weights = to_tensor(weights, "histogram_bin_edges", "weights")
        if tuple(weights.shape) != tuple(a.shape):
            raise ValueError(f"histogram_bin_edges: 'weights' must have the shape of 'a', {tuple(a.shape)}, but "
                             f"got {tuple(weights.shape)}")
    if isinstance(bins, (tuple, list, Tensor)):
        bins = to_tensor(bins, "histogram_bin_edges", "bins")
        if bins.ndim != 1:
            raise ValueError(f"histogram_bin_edges: 'bins' as an array must be 1-d, but got shape "
                             f"{tuple(bins.shape)}")
        return bins
    bins = check_int(bins, "histogram_bin_edges", "bins")
    if bins <= 0:
        raise ValueError(f"histogram_bin_edges: 'bins' must be positive, but got {bins}")
    if range is None:
        if a.size == 0:
            start, end = Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32)
        else:
            flat = ops.cast(ops.reshape(a, (-1,)), mstype.float32)
            start, end = ops.amin(flat), ops.amax(flat)
    else:
        if not isinstance(range, (tuple, list)) or len(range) != 2:
            raise ValueError(f"histogram_bin_edges: 'range' must be a pair (start, end), but got {range!r}")
        lo = _scalar(range[0], "histogram_bin_edges", "range")
        hi = _scalar(range[1], "histogram_bin_edges", "range")
        if lo > hi:
            raise ValueError(f"histogram_bin_edges: 'range' must have start <= end, but got {range!r}")
        start, end = Tensor(float(lo), mstype.float32), Tensor(float(hi), mstype.float32)
    empty_range = ops.equal(end, start)
    start = ops.where(empty_range, start - 0.5, start)
    end = ops.where(empty_range, end + 0.5, end)
    return linspace(start, end, bins + 1)


# ---- pad ------------------------------------------------------------------------------------------

def _per_axis_pairs(value, ndim, api, arg, kind=int):
    """NumPy's pad-width spellings (n, (n,), (before, after), ((b0, a0), ...)) as one (before, after)
    pair per axis."""
    table = np.asarray(value, dtype=object)
    try:
        table = np.broadcast_to(table, (ndim, 2))
    except ValueError:
        raise ValueError(f"{api}: '{arg}' must broadcast to ({ndim}, 2) (a (before, after) pair per axis), "
                         f"but got {value!r}") from None
    for v in table.reshape(-1):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer) if kind is int else (numbers.Real, np.number)):
            raise TypeError(f"{api}: '{arg}' must hold {'ints' if kind is int else 'numbers'}, but got {value!r}")
    return [tuple(row) for row in table.tolist()]


def _edge_slice(x, axis, start, length):
    return ops.narrow(x, axis, start, length)


def _repeat_along(piece, axis, count):
    shape = list(piece.shape)
    shape[axis] = count
    return ops.broadcast_to(piece, tuple(shape))


def _gather_axis(x, axis, index_table):
    return ops.gather(x, Tensor(np.asarray(index_table, np.int32)), axis)


def _pad_axis(x, axis, before, after, mode, options):
    """`x` padded along one axis by mode `mode`."""
    n = x.shape[axis]
    if before == 0 and after == 0:
        return x
    if mode in ("constant", "empty"):
        lo, hi = options["constant_values"][axis] if mode == "constant" else (0, 0)
        pieces = [_repeat_along(ops.fill(x.dtype, (1,) * x.ndim, lo), axis, before), x,
                  _repeat_along(ops.fill(x.dtype, (1,) * x.ndim, hi), axis, after)]
        shape = list(x.shape)
        for i, p in enumerate(pieces):
            if i != 1:
                shape[axis] = p.shape[axis]
                pieces[i] = ops.broadcast_to(p, tuple(shape))
        return ops.concat(pieces, axis)
    if n == 0:
        raise ValueError(f"pad: mode {mode!r} cannot pad axis {axis}, which is empty")
    if mode == "edge":
        return ops.concat([_repeat_along(_edge_slice(x, axis, 0, 1), axis, before), x,
                           _repeat_along(_edge_slice(x, axis, n - 1, 1), axis, after)], axis)
    if mode in ("maximum", "minimum", "mean", "median"):
        lo_len, hi_len = options["stat_length"][axis] if options["stat_length"] is not None else (n, n)
        for length in (lo_len, hi_len):
            if length <= 0:
                raise ValueError(f"pad: 'stat_length' must be positive, but got {length}")
        lo = _statistic(_edge_slice(x, axis, 0, builtins.min(lo_len, n)), axis, mode)
        hi = _statistic(_edge_slice(x, axis, n - builtins.min(hi_len, n), builtins.min(hi_len, n)), axis, mode)
        return ops.concat([_repeat_along(lo, axis, before), x, _repeat_along(hi, axis, after)], axis)
    if mode == "linear_ramp":
        lo_end, hi_end = options["end_values"][axis]
        edge_lo, edge_hi = _edge_slice(x, axis, 0, 1), _edge_slice(x, axis, n - 1, 1)
        compute = x.dtype if _is_float(x.dtype) else mstype.float32
        shape = [1] * x.ndim
        pieces = []
        if before:
            shape[axis] = before
            w = _constant((np.arange(before) / before).reshape(shape), compute)  # end value ... near the edge
            pieces.append(lo_end + (ops.cast(edge_lo, compute) - lo_end) * w)
        pieces.append(ops.cast(x, compute))
        if after:
            shape[axis] = after
            w = _constant((np.arange(1, after + 1) / after).reshape(shape), compute)
            pieces.append(ops.cast(edge_hi, compute) + (hi_end - ops.cast(edge_hi, compute)) * w)
        out = ops.concat(pieces, axis)
        if not _is_float(x.dtype):
            out = ops.cast(ops.floor(out), x.dtype) if x.dtype != mstype.bool_ else ops.cast(out, x.dtype)
        return out
    if mode in ("reflect", "symmetric") and options["reflect_type"] == "odd":
        # Odd reflection is linear in the axis' values (2 * edge - mirrored value, reflected again past
        # the far end): NumPy padding the identity matrix gives that map, applied as a matmul.
        transform = np.pad(np.eye(n), ((before, after), (0, 0)), mode=mode, reflect_type="odd")
        compute = x.dtype if _is_float(x.dtype) else mstype.float64
        moved = ops.cast(ops.moveaxis(x, axis, -1), compute)
        out = ops.moveaxis(ops.matmul(moved, _constant(transform.T, compute)), -1, axis)
        return out if _is_float(x.dtype) else ops.cast(ops.round(out), x.dtype)
    # reflect, symmetric, wrap: which element of the axis each output position copies, a NumPy table.
    return _gather_axis(x, axis, np.pad(np.arange(n), (before, after), mode=mode))


def _statistic(piece, axis, mode):
    if mode == "maximum":
        return ops.amax(piece, axis, True)
    if mode == "minimum":
        return ops.amin(piece, axis, True)
    compute = piece if _is_float(piece.dtype) else ops.cast(piece, mstype.float32)
    value = ops.mean(compute, axis, True) if mode == "mean" else ops.quantile(compute, 0.5, axis, True)
    if not _is_float(piece.dtype):  # NumPy rounds the statistic back to the integer dtype
        value = ops.cast(ops.round(value), piece.dtype)
    return value


_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect",
              "symmetric", "wrap", "empty")


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even",
        **kwargs):
    """`arr` padded along each axis by (before, after) from `pad_width`, as NumPy's pad: modes 'constant'
    (`constant_values`), 'edge', 'linear_ramp' (towards `end_values`), 'maximum', 'minimum', 'mean',
    'median' (over `stat_length` edge values, default the whole axis), 'reflect' and 'symmetric'
    (`reflect_type` 'even' or 'odd'), 'wrap', 'empty' (zeros here), or a function called as NumPy's is
    with a Tensor vector: func(vector, (before, after), axis, kwargs), returning the padded vector."""
    x = to_tensor(arr, "pad", "arr")
    if x.ndim == 0:
        return x
    widths = _per_axis_pairs(pad_width, x.ndim, "pad", "pad_width")
    if builtins.any(w < 0 for pair in widths for w in pair):
        raise ValueError(f"pad: 'pad_width' must be non-negative, but got {pad_width!r}")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"pad: 'reflect_type' must be 'even' or 'odd', but got {reflect_type!r}")
    if callable(mode):
        return _pad_with_function(x, widths, mode, kwargs)
    if mode not in _PAD_MODES:
        raise ValueError(f"pad: 'mode' must be one of {', '.join(_PAD_MODES)} or a function, but got {mode!r}")
    if kwargs:
        raise ValueError(f"pad: keyword arguments {sorted(kwargs)} are only for a function 'mode'")
    options = {"reflect_type": reflect_type,
               "constant_values": _per_axis_pairs(constant_values, x.ndim, "pad", "constant_values", float),
               "end_values": _per_axis_pairs(end_values, x.ndim, "pad", "end_values", float),
               "stat_length": None if stat_length is None else _per_axis_pairs(stat_length, x.ndim, "pad",
                                                                               "stat_length")}
    for axis, (before, after) in enumerate(widths):
        x = _pad_axis(x, axis, before, after, mode, options)
    return x


def _pad_with_function(x, widths, func, kwargs):
    """NumPy's function mode: the array padded with zeros, then each 1-d slice along each axis in turn
    given to `func(vector, (before, after), axis, kwargs)`, which returns it padded."""
    for axis, (before, after) in enumerate(widths):
        x = _pad_axis(x, axis, before, after, "constant", {"constant_values": [(0, 0)] * x.ndim})
    for axis, pair in enumerate(widths):
        moved = ops.moveaxis(x, axis, -1)
        rows = ops.reshape(moved, (-1, moved.shape[-1]))
        padded = [func(rows[i], pair, axis, kwargs) for i in builtins.range(rows.shape[0])]
        for i, row in enumerate(padded):
            if not isinstance(row, Tensor) or tuple(row.shape) != (moved.shape[-1],):
                raise ValueError(f"pad: the mode function must return a Tensor of shape ({moved.shape[-1]},), but "
                                 f"for row {i} of axis {axis} it returned {row!r}")
        stacked = ops.stack(padded, 0) if padded else rows
        x = ops.moveaxis(ops.reshape(ops.cast(stacked, x.dtype), moved.shape), -1, axis)
    return x


# ---- random ---------------------------------------------------------------------------------------

def _random_shape(api, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return check_shape(shape, api)


def rand(*shape, dtype=mstype.float32):
    """Samples uniform on [0, 1) in a Tensor of `shape` (ints, or one tuple); a float dtype."""
    dtype = check_dtype(dtype, "rand")
    if dtype not in _FLOATS:
        raise TypeError(f"rand: 'dtype' must be a float dtype, but got {dtype}")
    return ops.rand(*_random_shape("rand", shape), dtype=dtype)


def randn(*shape, dtype=mstype.float32):
    """Samples of the standard normal distribution in a Tensor of `shape` (ints, or one tuple)."""
    dtype = check_dtype(dtype, "randn")
    if dtype not in _FLOATS:
        raise TypeError(f"randn: 'dtype' must be a float dtype, but got {dtype}")
    return ops.randn(*_random_shape("randn", shape), dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Integers uniform on [minval, maxval) (on [0, minval) when `maxval` is None) in a Tensor of `shape`."""
    minval = check_int(minval, "randint", "minval")
    if maxval is None:
        minval, maxval = 0, minval
    maxval = check_int(maxval, "randint", "maxval")
    if maxval <= minval:
        raise ValueError(f"randint: 'maxval' must be greater than 'minval', but got {minval} and {maxval}")
    dtype = check_dtype(dtype, "randint")
    if dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8):
        raise TypeError(f"randint: 'dtype' must be an integer dtype, but got {dtype}")
    shape = () if shape is None else check_shape(shape, "randint")
    return ops.randint(minval, maxval, shape, dtype=dtype)


__all__ = ['array', 'asarray', 'asfarray', 'ones', 'zeros', 'full', 'randn', 'rand', 'randint', 'arange',
           'linspace', 'logspace', 'eye', 'identity', 'empty', 'empty_like', 'ones_like', 'zeros_like',
           'full_like', 'diagonal', 'tril', 'triu', 'tri', 'trace', 'meshgrid', 'mgrid', 'ogrid', 'diagflat',
           'diag', 'diag_indices', 'ix_', 'indices', 'geomspace', 'vander', 'hamming', 'hanning', 'bartlett',
           'blackman', 'triu_indices', 'tril_indices', 'triu_indices_from', 'tril_indices_from',
           'histogram_bin_edges', 'pad', 'copy']
