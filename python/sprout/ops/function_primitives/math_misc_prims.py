"""Math primitives carried out by functional ops: scans, statistics, counts, distances and window functions
(``ops.Median()``, ``ops.ReduceStd()``, ``ops.Histogram()``, ``ops.HammingWindow()`` ...)."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function import math_stats_more_func as _stats
from sprout.ops.function_primitives._attr_checks import (FLOAT_DTYPES, check_bool, check_dtype, check_float,
                                                         check_int)
from sprout.ops.function_primitives.array_prims import int_argument
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["Addcdiv", "TensorAdd", "LerpScalar", "Ger", "Trace", "Renorm", "Pdist",
           "CumulativeLogsumexp", "Median", "ReduceStd", "SquareSumAll", "EqualCount",
           "CountNonZero", "Histogram", "Bincount", "BartlettWindow", "BlackmanWindow", "HammingWindow"]


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _axis(api, arg, axis, ndim):
    check_int(api, arg, axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{api}: '{arg}' must be in [{-max(ndim, 1)}, {max(ndim, 1)}), but got {axis}")
    return axis % max(ndim, 1)


class Addcdiv(Primitive):
    """``Addcdiv()(input_data, x1, x2, value)``: input_data + value * x1 / x2."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_data", "x1", "x2", "value"], ["y"])

    def __call__(self, input_data, x1, x2, value):
        return F.addcdiv(input_data, x1, x2, value)


class TensorAdd(Primitive):
    """``TensorAdd()(x, y)``: MindSpore's deprecated name of Add."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "y"], ["output"])

    def __call__(self, x, y):
        return F.add(x, y)


class LerpScalar(Primitive):
    """``LerpScalar()(input, end, weight)``: input + weight * (end - input) with a float weight."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input", "end", "weight"], ["output"])

    def __call__(self, input, end, weight):
        return F.lerp(input, end, check_float("LerpScalar", "weight", weight))


class Ger(Primitive):
    """``Ger()(x1, x2)``: the outer product of two 1-d tensors."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x1", "x2"], ["y"])

    def __call__(self, x1, x2):
        return F.ger(x1, x2)


class Trace(Primitive):
    """``Trace()(x)``: the sum of a matrix's main diagonal."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input"], ["output"])

    def __call__(self, input):
        return F.trace(input)


class Renorm(Primitive):
    """``Renorm(p, dim, maxnorm)(x)``: x's slices along `dim` whose p-norm exceeds maxnorm scaled to it."""

    @prim_attr_register
    def __init__(self, p, dim, maxnorm):
        check_int("Renorm", "p", p, minimum=1)
        check_int("Renorm", "dim", dim)
        if check_float("Renorm", "maxnorm", maxnorm) < 0:
            raise ValueError(f"Renorm: 'maxnorm' must be non-negative, but got {maxnorm}")
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return F.renorm(x, self.p, self.dim, float(self.maxnorm))


class Pdist(Primitive):
    """``Pdist(p=2.0)(x)``: the p-norm distances between every pair of x's rows i < j."""

    @prim_attr_register
    def __init__(self, p=2.0):
        if check_float("Pdist", "p", p) < 0:
            raise ValueError(f"Pdist: 'p' must be non-negative, but got {p}")
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _stats.pdist(x, float(self.p))


class CumulativeLogsumexp(Primitive):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: log of the running sum of exp(x)
    along `axis`; `exclusive` leaves each element out of its own sum, `reverse` runs from the end."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        check_bool("CumulativeLogsumexp", "exclusive", exclusive)
        check_bool("CumulativeLogsumexp", "reverse", reverse)
        self.init_prim_io_names(["x", "axis"], ["y"])

    def __call__(self, x, axis=0):
        x = _tensor("CumulativeLogsumexp", "x", x)
        check_dtype("CumulativeLogsumexp", "x's dtype", x.dtype, FLOAT_DTYPES)
        if x.ndim == 0:
            raise ValueError("CumulativeLogsumexp: 'x' must have at least one dimension, but got a 0-d tensor")
        axis = _axis("CumulativeLogsumexp", "axis", int_argument("CumulativeLogsumexp", "axis", axis), x.ndim)
        return _stats.cumulative_logsumexp(x, axis, self.exclusive, self.reverse)


class Median(Primitive):
    """``Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)``: (values, indices) of the
    lower median along `axis`, or of all elements (`global_median`: the index is 0, as MindSpore's gives).
    With `ignore_nan`, NaN elements are left out; otherwise a NaN makes the median NaN."""

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        check_bool("Median", "global_median", global_median)
        check_int("Median", "axis", axis)
        check_bool("Median", "keep_dims", keep_dims)
        check_bool("Median", "ignore_nan", ignore_nan)
        self.init_prim_io_names(["x"], ["y", "indices"])

    def __call__(self, x):
        x = _tensor("Median", "x", x)
        if self.global_median:
            value, _ = Median(False, 0, False, self.ignore_nan)(F.reshape(x, (-1,)))
            return value, Tensor(0, mstype.int64)
        else:
            axis, keep_dims = _axis("Median", "axis", self.axis, x.ndim), self.keep_dims
        if x.ndim == 0:
            return x, Tensor(0, mstype.int64)
        if self.ignore_nan:
            return _stats.median_skipping_nan(x, axis, keep_dims)
        return F.median(x, axis, keep_dims)


class ReduceStd(Primitive):
    """``ReduceStd(axis=[], unbiased=True, keep_dims=False)(x)``: (standard deviation, mean) over `axis`
    (all axes when empty)."""

    @prim_attr_register
    def __init__(self, axis=[], unbiased=True, keep_dims=False):  # noqa: B006 (MindSpore's default)
        if isinstance(axis, int) and not isinstance(axis, bool):
            axis = (axis,)
        if not isinstance(axis, (tuple, list)) or not all(isinstance(a, int) and not isinstance(a, bool)
                                                          for a in axis):
            raise TypeError(f"ReduceStd: 'axis' must be an int or a tuple/list of ints, but got {axis!r}")
        self.add_prim_attr("axis", tuple(axis))
        check_bool("ReduceStd", "unbiased", unbiased)
        check_bool("ReduceStd", "keep_dims", keep_dims)
        self.init_prim_io_names(["input_x"], ["output_std", "output_mean"])

    def __call__(self, input_x):
        x = _tensor("ReduceStd", "input_x", input_x)
        return F.std_mean(x, self.axis or None, 1 if self.unbiased else 0, self.keep_dims)


class SquareSumAll(Primitive):
    """``SquareSumAll()(x, y)``: (sum of x**2, sum of y**2) as 0-d tensors."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "y"], ["output_x", "output_y"])

    def __call__(self, x, y):
        x, y = _tensor("SquareSumAll", "x", x), _tensor("SquareSumAll", "y", y)
        if x.shape != y.shape or x.dtype != y.dtype:
            raise ValueError(f"SquareSumAll: 'x' and 'y' must have one shape and dtype, but got {x.shape} "
                             f"{x.dtype} and {y.shape} {y.dtype}")
        return (x * x).sum(), (y * y).sum()


class EqualCount(Primitive):
    """``EqualCount()(x, y)``: the number of equal elements, as a shape-(1,) tensor of x's dtype."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "y"], ["output"])

    def __call__(self, x, y):
        x, y = _tensor("EqualCount", "x", x), _tensor("EqualCount", "y", y)
        if x.shape != y.shape or x.dtype != y.dtype:
            raise ValueError(f"EqualCount: 'x' and 'y' must have one shape and dtype, but got {x.shape} "
                             f"{x.dtype} and {y.shape} {y.dtype}")
        return F.reshape(F.cast(F.equal(x, y), x.dtype).sum(), (1,))


class CountNonZero(Primitive):
    """``CountNonZero(dims=None)(x)``: the number of non-zero elements over `dims` (all when None), Int64."""

    @prim_attr_register
    def __init__(self, dims=None):
        if dims is not None:
            if isinstance(dims, int) and not isinstance(dims, bool):
                dims = (dims,)
            if not isinstance(dims, (tuple, list)) or not all(isinstance(d, int) and not isinstance(d, bool)
                                                              for d in dims):
                raise TypeError(f"CountNonZero: 'dims' must be None, an int or a tuple of ints, but got {dims!r}")
            self.add_prim_attr("dims", tuple(dims))
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        x = _tensor("CountNonZero", "x", x)
        return F.cast(x != 0, mstype.int64).sum(self.dims if self.dims else None)


class Histogram(Primitive):
    """``Histogram(bins=100, min=0.0, max=0.0)(x)``: counts of x's elements in `bins` equal bins over
    [min, max] (the data's range when both are 0): Int32 for an int32 x, Float32 otherwise."""

    @prim_attr_register
    def __init__(self, bins=100, min=0.0, max=0.0):  # noqa: A002 (MindSpore's names)
        check_int("Histogram", "bins", bins, minimum=1)
        low, high = check_float("Histogram", "min", min), check_float("Histogram", "max", max)
        if low > high:
            raise ValueError(f"Histogram: 'min' must not exceed 'max', but got {min} and {max}")
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        x = _tensor("Histogram", "x", x)
        check_dtype("Histogram", "x's dtype", x.dtype, (mstype.float16, mstype.float32, mstype.int32))
        counts = F.histc(F.cast(x, mstype.float32), self.bins, float(self.attrs["min"]), float(self.attrs["max"]))
        return F.cast(counts, mstype.int32) if x.dtype == mstype.int32 else counts


class Bincount(Primitive):
    """``Bincount()(array, size, weights)``: counts (sums of weights; an empty weights counts 1 each) of the
    values 0..size-1 of a non-negative integer array; the result has weights' dtype."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["array", "size", "weights"], ["bins"])

    def __call__(self, array, size, weights):
        array, weights = _tensor("Bincount", "array", array), _tensor("Bincount", "weights", weights)
        if array.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"Bincount: 'array' must be an int32 tensor, but got {array.dtype}")
        if weights.size and weights.shape != array.shape:
            raise ValueError(f"Bincount: 'weights' must be empty or of the shape of 'array' {array.shape}, but got "
                             f"{weights.shape}")
        size = int_argument("Bincount", "size", size)
        if size < 0:
            raise ValueError(f"Bincount: 'size' must be non-negative, but got {size}")
        return _stats.bincount_fixed(array, size, weights)


class _Window(Primitive):
    _function = None

    def _window_length(self, window_length):
        api = type(self).__name__
        if isinstance(window_length, Tensor) and window_length.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"{api}: 'window_length' must be an int32 or int64 tensor, but got {window_length.dtype}")
        length = int_argument(api, "window_length", window_length)
        if not 0 <= length <= 1000000:
            raise ValueError(f"{api}: 'window_length' must be in [0, 1000000], but got {length}")
        return length


class BartlettWindow(_Window):
    """``BartlettWindow(periodic=True, dtype=ms.float32)(window_length)``: the triangular window."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        check_bool("BartlettWindow", "periodic", periodic)
        check_dtype("BartlettWindow", "dtype", dtype, FLOAT_DTYPES)
        self.init_prim_io_names(["window_length"], ["y"])

    def __call__(self, window_length):
        return F.bartlett_window(self._window_length(window_length), self.periodic, dtype=self.dtype)


class BlackmanWindow(_Window):
    """``BlackmanWindow(periodic=True, dtype=ms.float32)(window_length)``: the Blackman window."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        check_bool("BlackmanWindow", "periodic", periodic)
        check_dtype("BlackmanWindow", "dtype", dtype, FLOAT_DTYPES)
        self.init_prim_io_names(["window_length"], ["y"])

    def __call__(self, window_length):
        return F.blackman_window(self._window_length(window_length), self.periodic, dtype=self.dtype)


class HammingWindow(_Window):
    """``HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=ms.float32)(length)``: the generalized
    Hamming window alpha - beta cos(2 pi n / N)."""

    @prim_attr_register
    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
        check_bool("HammingWindow", "periodic", periodic)
        check_float("HammingWindow", "alpha", alpha)
        check_float("HammingWindow", "beta", beta)
        check_dtype("HammingWindow", "dtype", dtype, FLOAT_DTYPES)
        self.init_prim_io_names(["length"], ["y"])

    def __call__(self, length):
        return F.hamming_window(self._window_length(length), self.periodic, float(self.alpha), float(self.beta),
                                dtype=self.dtype)
