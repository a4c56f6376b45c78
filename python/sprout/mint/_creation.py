"""mint's tensor creation and random sampling: PyTorch's `*size` and keyword `dtype`, and a `generator` to
draw from (Note: a random op draws its seeds from the default generator, or from `generator` when given)."""
import numbers

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.generator import drawing_from
from sprout.mint._checks import check_dtype, check_int, check_size, is_int, is_tensor, tensor
from sprout.ops.function._prims import prim
from sprout.ops import arange, full, full_like  # noqa: F401 (same arguments as mint's)

__all__ = ["arange", "bernoulli", "clone", "empty", "empty_like", "eye", "full", "full_like", "item", "linspace",
           "multinomial", "normal", "ones", "ones_like", "rand", "rand_like", "randint", "randint_like", "randn",
           "randn_like", "randperm", "zeros", "zeros_like"]

_FLOAT32 = mstype.float32
_identity = prim("Identity")  # a copy in a new storage


def _device(api, device):
    if device not in (None, "cpu", "CPU"):
        raise ValueError(f"{api}: 'device' must be None, 'cpu' or 'CPU' (Sprout runs on the CPU), but got {device!r}")


def _shape_of(size, api):
    """`size` of zeros/ones/full: an int or a tuple/list of ints (or a 1-d integer tensor)."""
    if is_tensor(size):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    if is_int(size):
        size = (size,)
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{api}: 'size' must be an int or a tuple of ints, but got {size!r}")
    return check_size(tuple(size), api)


def zeros(size, *, dtype=None):
    """A tensor of zeros of shape `size` (float32 unless `dtype`)."""
    return ops.zeros(_shape_of(size, "mint.zeros"), check_dtype(dtype, "mint.zeros") or _FLOAT32)


def ones(size, *, dtype=None):
    """A tensor of ones of shape `size` (float32 unless `dtype`)."""
    return ops.ones(_shape_of(size, "mint.ones"), check_dtype(dtype, "mint.ones") or _FLOAT32)


def zeros_like(input, *, dtype=None):
    """Zeros of input's shape, in `dtype` (input's when None)."""
    x = tensor(input, "mint.zeros_like")
    return ops.zeros(x.shape, check_dtype(dtype, "mint.zeros_like") or x.dtype)


def ones_like(input, *, dtype=None):
    """Ones of input's shape, in `dtype` (input's when None)."""
    x = tensor(input, "mint.ones_like")
    return ops.ones(x.shape, check_dtype(dtype, "mint.ones_like") or x.dtype)


def empty(*size, dtype=None, device=None, pin_memory=False):
    """A tensor of shape `size` (float32 unless `dtype`); its values are unspecified (Sprout fills zeros)."""
    _device("mint.empty", device)
    return ops.zeros(check_size(size, "mint.empty"), check_dtype(dtype, "mint.empty") or _FLOAT32)


def empty_like(input, *, dtype=None, device=None, pin_memory=False):
    """A tensor of input's shape and `dtype` (input's when None); its values are unspecified (zeros)."""
    _device("mint.empty_like", device)
    return zeros_like(input, dtype=dtype)


def eye(n, m=None, dtype=None):
    """The n x m (n x n) identity matrix, float32 unless `dtype`."""
    n = check_int(n, "mint.eye", "n")
    m = n if m is None else check_int(m, "mint.eye", "m")
    if n < 0 or m < 0:
        raise ValueError(f"mint.eye: 'n' and 'm' must be non-negative, but got n={n}, m={m}")
    return ops.eye(n, m, check_dtype(dtype, "mint.eye") or _FLOAT32)


def linspace(start, end, steps, *, dtype=None):
    """`steps` evenly spaced values from start to end inclusive (float32 unless `dtype`)."""
    steps = check_int(steps, "mint.linspace", "steps")
    if steps < 0:
        raise ValueError(f"mint.linspace: 'steps' must be non-negative, but got {steps}")
    out = ops.linspace(float(start) if isinstance(start, numbers.Number) else start,
                       float(end) if isinstance(end, numbers.Number) else end, steps)
    dtype = check_dtype(dtype, "mint.linspace")
    return out if dtype is None or dtype == out.dtype else ops.cast(out, dtype)


def clone(input):
    """A copy of `input` with its own storage (the gradient flows through)."""
    return _identity(tensor(input, "mint.clone"))


def item(input):
    """The value of a one-element tensor as a Python number."""
    return tensor(input, "mint.item").item()


# ---- random ----------------------------------------------------------------------------------------

def _float_dtype(api, dtype):
    dtype = check_dtype(dtype, api) or _FLOAT32
    if not mstype.is_floating_type(dtype):
        raise TypeError(f"{api}: 'dtype' must be a floating-point type, but got {dtype}")
    return dtype


def rand(*size, generator=None, dtype=None, device=None):
    """Samples uniform in [0, 1) of shape `size`."""
    _device("mint.rand", device)
    with drawing_from("mint.rand", generator):
        return ops.rand(check_size(size, "mint.rand"), dtype=_float_dtype("mint.rand", dtype))


def rand_like(input, *, dtype=None, device=None):
    """Samples uniform in [0, 1) of input's shape, in `dtype` (input's when None)."""
    x = tensor(input, "mint.rand_like")
    return rand(x.shape, dtype=dtype or x.dtype, device=device)


def randn(*size, generator=None, dtype=None, device=None):
    """Samples of the standard normal distribution of shape `size`."""
    _device("mint.randn", device)
    with drawing_from("mint.randn", generator):
        return ops.randn(check_size(size, "mint.randn"), dtype=_float_dtype("mint.randn", dtype))


def randn_like(input, *, dtype=None, device=None):
    """Standard normal samples of input's shape, in `dtype` (input's when None)."""
    x = tensor(input, "mint.randn_like")
    return randn(x.shape, dtype=dtype or x.dtype, device=device)


def _low_high(api, args):
    if len(args) == 1:
        return 0, args[0]
    if len(args) == 2:
        return args
    raise TypeError(f"{api}: expected (high) or (low, high) before the size, but got {len(args)} values")


def randint(*args, generator=None, dtype=None, device=None):
    """randint(low=0, high, size): integers uniform in [low, high) of shape `size` (int64 unless `dtype`)."""
    _device("mint.randint", device)
    if len(args) not in (2, 3):
        raise TypeError(f"mint.randint: expected (high, size) or (low, high, size), but got {len(args)} arguments")
    low, high = _low_high("mint.randint", args[:-1])
    size = args[-1]
    with drawing_from("mint.randint", generator):
        return ops.randint(low, high, _shape_of(size, "mint.randint"),
                           dtype=check_dtype(dtype, "mint.randint") or mstype.int64)


def randint_like(input, *args, dtype=None, device=None):
    """randint_like(input, low=0, high): integers uniform in [low, high) of input's shape, in `dtype` (input's
    when None)."""
    x = tensor(input, "mint.randint_like")
    low, high = _low_high("mint.randint_like", args)
    dtype = check_dtype(dtype, "mint.randint_like") or x.dtype
    out = randint(low, high, x.shape, device=device)
    return out if out.dtype == dtype else ops.cast(out, dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of 0 .. n - 1."""
    with drawing_from("mint.randperm", generator):
        return ops.randperm(check_int(n, "mint.randperm", "n"), dtype=check_dtype(dtype, "mint.randperm"))


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Samples of N(mean, std^2): `mean` and `std` numbers (then `size` gives the shape) or tensors
    (broadcast together; their shape is the result's)."""
    api = "mint.normal"
    if is_tensor(mean) or is_tensor(std):
        shape = np.broadcast_shapes(*(t.shape for t in (mean, std) if is_tensor(t)))
        dtype = mean.dtype if is_tensor(mean) else std.dtype
    else:
        if size is None:
            raise TypeError(f"{api}: with a number 'mean' and 'std', 'size' must be given")
        shape, dtype = _shape_of(size, api), _FLOAT32
    if not is_tensor(std) and std < 0:
        raise ValueError(f"{api}: 'std' must be non-negative, but got {std}")
    with drawing_from(api, generator):
        z = ops.randn(shape, dtype=dtype)
    return ops.add(ops.mul(z, std), mean)


def bernoulli(input, *, generator=None):
    """1 with probability input[i] (in [0, 1]), else 0, in input's dtype."""
    x = tensor(input, "mint.bernoulli")
    if not mstype.is_floating_type(x.dtype):
        raise TypeError(f"mint.bernoulli: 'input' must be a floating-point tensor of probabilities, but got {x.dtype}")
    with drawing_from("mint.bernoulli", generator):
        u = ops.rand(x.shape, dtype=x.dtype)
    return ops.cast(ops.less(u, x), x.dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """int64 category indices drawn from each row of non-negative weights `input` (1-d or 2-d)."""
    x = tensor(input, "mint.multinomial")
    with drawing_from("mint.multinomial", generator):
        out = ops.multinomial(x, check_int(num_samples, "mint.multinomial", "num_samples"), replacement)
    return ops.cast(out, mstype.int64)
