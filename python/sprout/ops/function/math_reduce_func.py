"""Reductions beyond sum and mean: prod, all, any, and the composites logsumexp, norm, var, std.

The composites are built from registry primitives, so they need no gradient rule of their own.
"""
import builtins

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _axis, _narrow, _shift, expand_dims as _expand_dims, transpose as _transpose
from sprout.ops.function.math_func import _axes

_abs, _square, _sqrt, _exp, _log = prim("Abs"), prim("Square"), prim("Sqrt"), prim("Exp"), prim("Log")
_sub, _div, _mul, _pow, _clip = prim("Sub"), prim("Div"), prim("Mul"), prim("Pow"), prim("ClipByValue")
_add, _cast, _not_equal, _reshape = prim("Add"), prim("Cast"), prim("NotEqual"), prim("Reshape")

# The largest finite value of each float dtype: logsumexp clamps its shift into the finite range.
_FINITE_MAX = {mstype.float16: 65504.0, mstype.bfloat16: 3.3895313892515355e38, mstype.float32: 3.4028234663852886e38,
               mstype.float64: 1.7976931348623157e308}


def _reduce(op, x, axes, keep):
    return prim(op, keep_dims=bool(keep))(x, axes)


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")


def _check_floating(api, arg, x):
    _check_tensor(api, arg, x)
    if x.dtype not in _FINITE_MAX:
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {x.dtype}")


def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product over `axis` (all axes when None); `dtype` casts the input first."""
    x = _cast(input, dtype) if dtype is not None else input
    return _reduce("ReduceProd", x, _axes(axis, "prod"), keep_dims)


def _as_bool(x):
    return x if x.dtype == mstype.bool_ else _cast(x, mstype.bool_)


def all(input, axis=None, keep_dims=False):
    """Whether every element over `axis` is True (nonzero); all axes when None."""
    _check_tensor("all", "input", input)
    return _reduce("ReduceAll", _as_bool(input), _axes(axis, "all"), keep_dims)


def any(input, axis=None, keep_dims=False):
    """Whether any element over `axis` is True (nonzero); all axes when None."""
    _check_tensor("any", "input", input)
    return _reduce("ReduceAny", _as_bool(input), _axes(axis, "any"), keep_dims)


def _extreme(api, reduce_op, arg_op, input, axis, keepdims, initial, where):
    """(values, indices) of max or min: `where` False positions take `initial`, which also bounds the result."""
    _check_tensor(api, "input", input)
    x = input
    if where is not None:
        if initial is None:
            raise ValueError(f"{api}: 'initial' must be given with 'where' (the value of the masked-out elements)")
        x = prim("Select")(where if isinstance(where, Tensor) else Tensor(where), x, Tensor(initial, x.dtype))
    if axis is None:
        values = _reduce(reduce_op, x, (), False)
        indices = prim(arg_op, axis=0, output_type=mstype.int64)(_reshape(x, (-1,)))
    else:
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"{api}: 'axis' must be an int or None, but got {axis!r}")
        values = _reduce(reduce_op, x, (axis,), keepdims)
        indices = prim(arg_op, axis=axis, output_type=mstype.int64)(x)
        if keepdims and x.ndim > 0:
            indices = prim("ExpandDims")(indices, axis)
    if initial is not None:
        bound = prim("Maximum" if reduce_op == "ReduceMax" else "Minimum")
        values = bound(values, Tensor(initial, values.dtype))
    return values, indices


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(values, indices) of the maximum along `axis` (over every element when None, the index then into the
    flattened input); the first maximum's index on ties. `initial` bounds the values from below; with
    `where`, elements where it is False count as `initial`."""
    return _extreme("max", "ReduceMax", "Argmax", input, axis, keepdims, initial, where)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(values, indices) of the minimum along `axis`: as max, bounded from above by `initial`."""
    return _extreme("min", "ReduceMin", "Argmin", input, axis, keepdims, initial, where)


def median(input, axis=-1, keepdims=False):
    """(values, indices) of the median along `axis`: the lower of the two middle elements for an even
    count (as MindSpore and PyTorch), with its index in the input. A slice holding NaN has median NaN,
    at its first NaN's index (as PyTorch's median; nanmedian would skip them)."""
    _check_tensor("median", "input", input)
    axis = _axis("median", "axis", axis, input.ndim)
    if input.ndim == 0:
        return input, Tensor(0, mstype.int64)
    n = input.shape[axis]
    if n == 0:
        raise ValueError(f"median: axis {axis} of 'input' is empty")
    ordered, order = prim("Sort", axis=axis, descending=False)(input)
    middle = (n - 1) // 2
    values, indices = _narrow(ordered, axis, middle, 1), _cast(_narrow(order, axis, middle, 1), mstype.int64)
    if input.dtype in _FINITE_MAX:
        # The ascending sort puts NaN last, so the last element says whether the slice holds one.
        last = _narrow(ordered, axis, n - 1, 1)
        has_nan = prim("IsNan")(last)
        first_nan = prim("Argmax", axis=axis, output_type=mstype.int64)(_cast(prim("IsNan")(input), mstype.int32))
        values = prim("Select")(has_nan, last, values)
        indices = prim("Select")(has_nan, prim("ExpandDims")(first_nan, axis), indices)
    if not keepdims:
        values, indices = prim("Squeeze", axis=(axis,))(values), prim("Squeeze", axis=(axis,))(indices)
    return values, indices


def _scan_axis(api, input, axis):
    """`axis` of a scan over `input`, non-negative (0 for a 0-d input)."""
    rank = builtins.max(input.ndim, 1)
    if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank:
        raise ValueError(f"{api}: 'axis' must be an int in range for shape {input.shape}, but got {axis!r}")
    return axis % rank


def logcumsumexp(input, axis):
    """log(cumsum(exp(input))) along `axis`, without overflow or underflow: a log-space scan (each of
    log2(n) steps adds, by logaddexp, the running value `step` positions back)."""
    from sprout.ops.function.math_elementwise_func import logaddexp  # here: that module imports this one
    _check_floating("logcumsumexp", "input", input)
    axis = _scan_axis("logcumsumexp", input, axis)
    if input.ndim == 0:
        return input
    n, out, step = input.shape[axis], input, 1
    while step < n:
        out = logaddexp(out, _shift(out, axis, step, float("-inf")))  # -inf where nothing precedes
        step *= 2
    return out


def cummax(input, axis):
    """(values, indices) of the running maximum along `axis`; each index is where that maximum is (the
    latest position among equal ones). NaN counts as larger than any number, so it propagates. Int64
    indices."""
    _check_tensor("cummax", "input", input)
    return prim("Cummax", axis=_scan_axis("cummax", input, axis))(input)


def cummin(input, axis):
    """(values, indices) of the running minimum along `axis`, as cummax (NaN propagates here too)."""
    _check_tensor("cummin", "input", input)
    values, indices = prim("Cummin", axis=_scan_axis("cummin", input, axis))(input)
    return values, _cast(indices, mstype.int64)


def histc(input, bins=100, min=0.0, max=0.0):
    """Counts of `input`'s elements in `bins` equal bins over [min, max] (the data's range when both are
    0); elements outside are not counted; the last bin includes max. Same dtype as the input."""
    _check_floating("histc", "input", input)
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise ValueError(f"histc: 'bins' must be a positive int, but got {bins!r}")
    x = _reshape(input, (-1,))
    if x.size == 0:  # nothing to count, and no range to take from the data
        return Tensor(np.zeros(bins), x.dtype)
    if min == 0 and max == 0:
        low, high = _reduce("ReduceMin", x, (), False), _reduce("ReduceMax", x, (), False)
    else:
        if min > max:
            raise ValueError(f"histc: 'min' must not exceed 'max', but got {min} and {max}")
        low, high = Tensor(float(min), x.dtype), Tensor(float(max), x.dtype)
    width = prim("Maximum")(_sub(high, low), Tensor(np.finfo(np.float32).tiny, x.dtype))  # one bin when high == low
    position = prim("Floor")(_mul(_div(_sub(x, low), width), Tensor(float(bins), x.dtype)))
    index = _cast(_clip(position, Tensor(0.0, x.dtype), Tensor(bins - 1.0, x.dtype)), mstype.int32)
    inside = prim("LogicalAnd")(prim("GreaterEqual")(x, low), prim("LessEqual")(x, high))
    return prim("UnsortedSegmentSum")(_cast(inside, x.dtype), index, bins)


def bincount(input, weights=None, minlength=0):
    """Counts (or sums of `weights`) of each value of a 1-d non-negative integer `input`, over
    max(max(input) + 1, minlength) bins. The length depends on the values, so this reads them (eager)."""
    _check_tensor("bincount", "input", input)
    if input.ndim != 1 or input.dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8):
        raise TypeError(f"bincount: 'input' must be a 1-d integer tensor, but got {input.dtype} of shape {input.shape}")
    if isinstance(minlength, bool) or not isinstance(minlength, int) or minlength < 0:
        raise ValueError(f"bincount: 'minlength' must be an int >= 0, but got {minlength!r}")
    values = input.asnumpy()
    if values.size and values.min() < 0:
        raise ValueError(f"bincount: 'input' must be non-negative, but holds {int(values.min())}")
    length = builtins.max(int(values.max()) + 1 if values.size else 0, minlength)
    if weights is not None:
        _check_tensor("bincount", "weights", weights)
    counted = weights if weights is not None else prim("OnesLike")(_cast(input, mstype.float32))
    if weights is not None and tuple(weights.shape) != tuple(input.shape):
        raise ValueError(f"bincount: 'weights' must have the shape of 'input' {input.shape}, but got {weights.shape}")
    out = prim("UnsortedSegmentSum")(counted, _cast(input, mstype.int32), length)
    return out if weights is not None else _cast(out, mstype.int64)


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """The number of nonzero elements along `axis` (all axes when empty), as `dtype`."""
    _check_tensor("count_nonzero", "x", x)
    nonzero = _not_equal(x, Tensor(0, x.dtype))  # a sum of bools is Int64
    return _cast(_reduce("ReduceSum", nonzero, _axes(axis, "count_nonzero"), keep_dims), dtype)


def _drop_axes(x, shape, axes, keep):
    """The result of a keep-dims reduction reshaped as a reduction without keep-dims would give."""
    ndim = len(shape)
    if keep or ndim == 0:  # a 0-d input reduces to 0-d either way
        return x
    dropped = {a % ndim for a in axes} if axes else set(range(ndim))
    return _reshape(x, tuple(d for i, d in enumerate(shape) if i not in dropped))


def logsumexp(input, axis, keep_dims=False):
    """log(sum(exp(input), axis)), computed without overflow (shifted by the maximum)."""
    _check_tensor("logsumexp", "input", input)
    x = input if input.dtype in _FINITE_MAX else _cast(input, mstype.float32)
    axes = _axes(axis, "logsumexp")
    top = _reduce("ReduceMax", x, axes, True)
    # An infinite maximum would give inf - inf = NaN; shifting by the largest finite value instead
    # keeps +inf inputs at +inf and all -inf at -inf.
    limit = _FINITE_MAX[x.dtype]
    shift = _clip(top, Tensor(-limit, x.dtype), Tensor(limit, x.dtype))
    out = _add(_log(_reduce("ReduceSum", _exp(_sub(x, shift)), axes, True)), shift)
    return _drop_axes(out, x.shape, axes, keep_dims)


def _moments(api, input, axis, ddof, keepdims):
    _check_floating(api, "input", input)
    if not isinstance(ddof, int):  # a bool too: True is Bessel's correction (ddof 1), as MindSpore reads it
        raise TypeError(f"{api}: 'ddof' must be an int or a bool, but got {ddof!r}")
    ddof = int(ddof)
    axes = _axes(axis, api)
    mean = _reduce("ReduceMean", input, axes, True)
    squares = _reduce("ReduceSum", _square(_sub(input, mean)), axes, True)
    count = int(np.prod([input.shape[a] for a in axes])) if axes and input.ndim else input.size
    # N - ddof at least 0, as NumPy and PyTorch: too few elements give 0 / 0 = NaN (an empty input
    # included), not a variance of the wrong sign.
    var = _div(squares, Tensor(float(builtins.max(count - ddof, 0)), input.dtype))
    return _drop_axes(var, input.shape, axes, keepdims), _drop_axes(mean, input.shape, axes, keepdims)


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance over `axis` (all axes when None), dividing by N - ddof."""
    return _moments("var", input, axis, ddof, keepdims)[0]


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation over `axis` (all axes when None), dividing by N - ddof."""
    return _sqrt(_moments("std", input, axis, ddof, keepdims)[0])


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """(variance, mean) over `axis`."""
    return _moments("var_mean", input, axis, ddof, keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """(standard deviation, mean) over `axis`."""
    v, m = _moments("std_mean", input, axis, ddof, keepdims)
    return _sqrt(v), m


def _lp_norm(x, p, axes, keep):
    """The p-norm (an int p >= 1) in one pass over x, no temporary |x|^p for p = 1, 2."""
    return prim("LpNorm", axis=tuple(axes), p=int(p), keep_dims=bool(keep), epsilon=0.0)(x)


def _vector_norm(x, ord, axes, keep):
    if ord >= 1 and float(ord).is_integer():
        return _lp_norm(x, ord, axes, keep)
    if ord == float("inf"):
        return _reduce("ReduceMax", _abs(x), axes, keep)
    if ord == float("-inf"):
        return _reduce("ReduceMin", _abs(x), axes, keep)
    if ord == 0:
        return _reduce("ReduceSum", _cast(_not_equal(x, Tensor(0, x.dtype)), x.dtype), axes, keep)
    p = Tensor(float(ord), x.dtype)
    return _pow(_reduce("ReduceSum", _pow(_abs(x), p), axes, keep), Tensor(1.0 / float(ord), x.dtype))


def _matrix_norm(x, ord, rows, cols, keep):
    if ord == "fro":
        return _lp_norm(x, 2, (rows, cols), keep)
    if ord in (1, -1, float("inf"), float("-inf")):
        # ord 1: the largest column sum of |x|; inf: the largest row sum. Negative: the smallest.
        summed, across = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = _reduce("ReduceSum", _abs(x), (summed,), True)
        out = _reduce("ReduceMax" if ord > 0 else "ReduceMin", sums, (across,), True)
    elif ord in ("nuc", 2, -2):
        # The singular values' sum (nuclear), largest (spectral, 2) or smallest (-2), the matrix axes moved last.
        from sprout.ops.function.math_linalg_more_func import svd
        rows, cols = rows % x.ndim, cols % x.ndim
        others = [a for a in range(x.ndim) if a not in (rows, cols)]
        singular = svd(_transpose(x, tuple(others) + (rows, cols)), compute_uv=False)
        reduce = {"nuc": "ReduceSum", 2: "ReduceMax", -2: "ReduceMin"}[ord]
        out = _reduce(reduce, singular, (singular.ndim - 1,), False)
        if keep:
            for axis in sorted((rows, cols)):
                out = _expand_dims(out, axis)
        return out
    else:
        raise ValueError(f"norm: matrix 'ord' must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, -inf, but got "
                         f"{ord!r}")
    return _drop_axes(out, x.shape, (rows, cols), keep)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm. `dim` an int (or None with 1-d `A`): vector norm of order `ord` (default 2);
    a pair (or None with 2-d `A` and `ord` given): matrix norm ('fro' default, 'nuc', 1, -1, 2, -2, inf, -inf
    as NumPy defines them); `dim` and
    `ord` both None: the 2-norm of all elements."""
    x = _cast(A, dtype) if dtype is not None else A
    _check_floating("norm", "A", x)
    dims = _axes(dim, "norm") if dim is not None else None
    if dims is None and ord is None:
        return _vector_norm(x, 2, (), keepdim)
    if dims is None:
        if x.ndim not in (1, 2):
            raise ValueError(f"norm: with 'dim' None and 'ord' given, 'A' must be 1-d or 2-d, but has shape {x.shape}")
        dims = tuple(range(x.ndim))
    for d in dims:
        if not -x.ndim <= d < builtins.max(x.ndim, 1):
            raise ValueError(f"norm: 'dim' {d} is out of range for 'A' of shape {x.shape}")
    if len(dims) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: 'ord' {ord!r} is a matrix norm, but 'dim' names one axis")
        return _vector_norm(x, 2 if ord is None else ord, dims, keepdim)
    if len(dims) == 2:
        rows, cols = (d % builtins.max(x.ndim, 1) for d in dims)
        if rows == cols:
            raise ValueError(f"norm: 'dim' must name two different axes, but got {dim}")
        return _matrix_norm(x, "fro" if ord is None else ord, rows, cols, keepdim)
    raise ValueError(f"norm: 'dim' must be an int or a pair of ints, but got {dim}")


__all__ = ["prod", "all", "any", "max", "min", "median", "count_nonzero", "logsumexp", "logcumsumexp", "cummax",
           "cummin", "histc", "bincount", "var", "std", "var_mean", "std_mean", "norm"]

TENSOR_METHODS = ["prod", "all", "any", "median", "count_nonzero", "logsumexp", "logcumsumexp", "cummax", "cummin",
                  "var", "std", "norm"]
