"""Random sampling functions (MindSpore 2.x names): standard_normal, uniform, rand, randn, randint,
bernoulli, multinomial, randperm, shuffle.

Each call draws the seeds of its primitive from the global generator (``ms.set_seed``), as
ops.dropout does (Note [Random ops] in src/ops/random.h): a seeded script is reproducible and
successive calls differ. A `seed` argument fixes the first of the two seeds.
"""
import numbers

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common import seed as _seed
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

__all__ = ["standard_normal", "standard_laplace", "random_categorical", "normal", "uniform", "rand", "randn",
           "randint", "bernoulli", "multinomial", "randperm", "shuffle"]

_INT_DTYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)
_FLOAT_DTYPES = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


def _seeds(api, seed):
    """(seed0, seed1): `seed` (or a draw) and a draw from the global generator; never both 0."""
    rng = _seed._global_rng()
    if seed is None:
        return int(rng.integers(1, 2**31)), int(rng.integers(1, 2**31))
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{api}: 'seed' must be a non-negative int or None, but got {seed!r}")
    return int(seed), int(rng.integers(1, 2**31))


def _shape(api, shape):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"{api}: 'shape' must be a tuple of ints, but got {shape!r}")
    if any(d < 0 for d in shape):
        raise ValueError(f"{api}: 'shape' must have non-negative dimensions, but got {tuple(shape)}")
    return tuple(int(d) for d in shape)


def _int_value(api, arg, value):
    if isinstance(value, Tensor):
        if value.size != 1 or value.dtype not in _INT_DTYPES:
            raise TypeError(f"{api}: '{arg}' must be an int or a one-element integer Tensor, but got "
                            f"a {value.dtype} Tensor of shape {value.shape}")
        return int(value.asnumpy().reshape(-1)[0])
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {type(value).__name__}")
    return int(value)


def _int_bound(api, arg, value):
    """A bound of UniformInt: an int, or a one-element integer Tensor taken as 0-d (its value is not read,
    so the bound may be computed in graph mode; the kernel checks minval < maxval)."""
    if isinstance(value, Tensor):
        if value.size != 1 or value.dtype not in _INT_DTYPES:
            raise TypeError(f"{api}: '{arg}' must be an int or a one-element integer Tensor, but got "
                            f"a {value.dtype} Tensor of shape {value.shape}")
        if value.dtype not in (mstype.int32, mstype.int64):
            value = prim("Cast")(value, mstype.int64)
        return value if value.ndim == 0 else prim("Reshape")(value, ())
    return Tensor(_int_value(api, arg, value), mstype.int64)


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def standard_normal(shape, seed=None):
    """Float32 samples of the standard normal distribution N(0, 1)."""
    s0, s1 = _seeds("standard_normal", seed)
    return _C.Primitive("StandardNormal", {"seed": s0, "seed2": s1})(_shape("standard_normal", shape))


def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """Samples uniform in [minval, maxval): floats (minval/maxval broadcast) or integers (int32)."""
    shape = _shape("uniform", shape)
    s0, s1 = _seeds("uniform", seed)
    if dtype == mstype.int32:
        low, high = _int_bound("uniform", "minval", minval), _int_bound("uniform", "maxval", maxval)
        return _C.Primitive("UniformInt", {"seed": s0, "seed2": s1})(low, high, shape)
    if dtype not in _FLOAT_DTYPES:
        raise TypeError(f"uniform: 'dtype' must be int32 or a floating-point type, but got {dtype}")
    u = _C.Primitive("UniformReal", {"seed": s0, "seed2": s1})(shape)
    span = prim("Sub")(maxval, minval)
    return prim("Cast")(prim("Add")(prim("Mul")(u, span), minval), dtype)


def _size_args(size):
    """rand(2, 3) and rand((2, 3)) alike."""
    return size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def _float_dtype(api, dtype):
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in _FLOAT_DTYPES:
        raise TypeError(f"{api}: 'dtype' must be a floating-point type, but got {dtype}")
    return dtype


def rand(*size, dtype=None, seed=None):
    """Samples uniform in [0, 1) of shape `size` (Float32 unless `dtype` says otherwise)."""
    dtype = _float_dtype("rand", dtype)
    s0, s1 = _seeds("rand", seed)
    u = _C.Primitive("UniformReal", {"seed": s0, "seed2": s1})(_shape("rand", _size_args(size)))
    return u if dtype == mstype.float32 else prim("Cast")(u, dtype)


def randn(*size, dtype=None, seed=None):
    """Samples of the standard normal distribution of shape `size` (Float32 unless `dtype` says otherwise)."""
    dtype = _float_dtype("randn", dtype)
    z = standard_normal(_size_args(size), seed)
    return z if dtype == mstype.float32 else prim("Cast")(z, dtype)


def normal(shape, mean, stddev, seed=None):
    """Float32 samples of N(mean, stddev^2) of shape `shape` (mean and stddev broadcast against it)."""
    z = standard_normal(shape, seed)
    return prim("Add")(prim("Mul")(z, stddev), mean)


def standard_laplace(shape, seed=None):
    """Float32 samples of the standard Laplace distribution (density exp(-|x|) / 2): -sign(u) log(1 - 2|u|)
    for u uniform in (-1/2, 1/2)."""
    s0, s1 = _seeds("standard_laplace", seed)
    u = _C.Primitive("UniformReal", {"seed": s0, "seed2": s1})(_shape("standard_laplace", shape))
    u = prim("Sub")(u, Tensor(0.5, mstype.float32))
    # log1p keeps the small |u| accurate; 1 - 2|u| > 0 because UniformReal stays below 1.
    return prim("Mul")(prim("Neg")(prim("Sign")(u)), prim("Log1p")(prim("Mul")(prim("Abs")(u), Tensor(-2.0))))


def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """For each row of 2-d (batch, classes) `logits`, `num_sample` class indices drawn with probabilities
    softmax(logits)."""
    return prim("RandomCategorical", dtype=dtype)(_check_tensor("random_categorical", "logits", logits),
                                                  _int_value("random_categorical", "num_sample", num_sample),
                                                  _int_value("random_categorical", "seed", seed))


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers uniform in [low, high) of shape `size` (dtype: int64 unless given)."""
    dtype = mstype.int64 if dtype is None else dtype
    if dtype not in _INT_DTYPES:
        raise TypeError(f"randint: 'dtype' must be an integer type, but got {dtype}")
    low, high = _int_value("randint", "low", low), _int_value("randint", "high", high)
    if low >= high:
        raise ValueError(f"randint: 'low' must be less than 'high', but got low={low} and high={high}")
    s0, s1 = _seeds("randint", seed)
    bounds = Tensor(low, mstype.int64), Tensor(high, mstype.int64)
    out = _C.Primitive("UniformInt", {"seed": s0, "seed2": s1})(*bounds, _shape("randint", size))
    return out if dtype == mstype.int32 else prim("Cast")(out, dtype)


def bernoulli(input, p=0.5, seed=None):
    """1 with probability `p` (a number or a Tensor broadcasting to `input`), else 0, in input's dtype."""
    _check_tensor("bernoulli", "input", input)
    if isinstance(p, numbers.Real) and not isinstance(p, bool):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"bernoulli: 'p' must be in [0, 1], but got {p}")
        p = Tensor(float(p), mstype.float32)
    s0, s1 = _seeds("bernoulli", seed)
    return _C.Primitive("Bernoulli", {"seed": s0, "offset": s1})(input, p)


def multinomial(input, num_samples, replacement=True, seed=None):
    """Int32 indices drawn from each row of weights `input` (1-d or 2-d, non-negative).

    Without replacement, the `num_samples` categories with the largest keys log(u) / w are taken
    (Efraimidis-Spirakis), which samples successively without replacement in proportion to w.
    """
    _check_tensor("multinomial", "input", input)
    num_samples = _int_value("multinomial", "num_samples", num_samples)
    s0, s1 = _seeds("multinomial", seed)
    if replacement:
        return _C.Primitive("Multinomial", {"seed": s0, "seed2": s1})(input, num_samples)
    if input.ndim not in (1, 2):
        raise ValueError(f"multinomial: 'input' must be 1-d or 2-d, but got shape {input.shape}")
    if not 0 < num_samples <= input.shape[-1]:
        raise ValueError(f"multinomial: without replacement 'num_samples' must be in [1, {input.shape[-1]}], "
                         f"but got {num_samples}")
    u = _C.Primitive("UniformReal", {"seed": s0, "seed2": s1})(input.shape)
    # log of a value in (0, 1) strictly, so a zero weight always gets key -inf (never NaN): in float64,
    # 1 - 2^-25 - u lies in [2^-25, 1 - 2^-25] for the 24-bit u.
    open_u = prim("Sub")(1.0 - 2.0**-25, prim("Cast")(u, mstype.float64))
    keys = prim("RealDiv")(prim("Log")(open_u), prim("Cast")(input, mstype.float64))
    return prim("Cast")(prim("TopK")(keys, num_samples)[1], mstype.int32)


def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """A random permutation of 0 .. n - 1. seed = offset = 0 draws both seeds from the global
    generator; otherwise (seed, offset) are the generator's seeds."""
    n = _int_value("randperm", "n", n)
    if n < 0:
        raise ValueError(f"randperm: 'n' must be non-negative, but got {n}")
    if dtype not in _INT_DTYPES:
        raise TypeError(f"randperm: 'dtype' must be an integer type, but got {dtype}")
    for arg, value in (("seed", seed), ("offset", offset)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise ValueError(f"randperm: '{arg}' must be a non-negative int, but got {value!r}")
    s0, s1 = _seeds("randperm", None) if seed == 0 and offset == 0 else (int(seed), int(offset))
    if n == 0:
        return prim("Zeros")((0,), dtype)
    attrs = {"max_length": n, "pad": -1, "dtype": dtype, "seed": s0, "seed2": s1}
    return _C.Primitive("Randperm", attrs)(Tensor(n, mstype.int64))


def shuffle(x, seed=None):
    """The slices of `x` along axis 0 in a random order."""
    _check_tensor("shuffle", "x", x)
    s0, s1 = _seeds("shuffle", seed)
    return _C.Primitive("RandomShuffle", {"seed": s0, "seed2": s1})(x)
