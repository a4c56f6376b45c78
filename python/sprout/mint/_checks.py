"""Argument checks shared by the mint modules: PyTorch argument names (input, dim, keepdim), MindSpore's
error style (the API, the argument, what was expected, what was given)."""
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import _tensor

INDEX_DTYPE = mstype.int64  # mint, like PyTorch, returns int64 indices


def tensor(x, api, arg="input"):
    """`x` as a Tensor (numbers, lists and arrays converted), else TypeError."""
    return _tensor(x, api, arg)


def is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def check_int(x, api, arg):
    if not is_int(x):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {x!r}")
    return int(x)


def check_bool(x, api, arg):
    if not isinstance(x, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {x!r}")
    return x


def check_number(x, api, arg):
    if isinstance(x, bool) or not isinstance(x, numbers.Number):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {x!r}")
    return x


def check_dim(dim, ndim, api, arg="dim"):
    """A dimension in [-ndim, ndim) (a 0-d tensor takes 0 and -1), normalized to be non-negative."""
    dim = check_int(dim, api, arg)
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise ValueError(f"{api}: '{arg}' must be in [{-bound}, {bound}) for a {ndim}-d input, but got {dim}")
    return dim % bound


def check_dims(dim, ndim, api, arg="dim"):
    """None, an int or a sequence of ints, as a tuple of normalized dimensions (None stays None)."""
    if dim is None:
        return None
    if is_int(dim):
        return (check_dim(dim, ndim, api, arg),)
    if isinstance(dim, (tuple, list)):
        dims = tuple(check_dim(d, ndim, api, arg) for d in dim)
        if len(set(dims)) != len(dims):
            raise ValueError(f"{api}: '{arg}' must not repeat a dimension, but got {tuple(dim)}")
        return dims
    raise TypeError(f"{api}: '{arg}' must be None, an int or a tuple of ints, but got {dim!r}")


def check_size(size, api, arg="size"):
    """A shape given as ints, a tuple/list of ints, or one tuple/list (PyTorch's `*size`)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if not all(is_int(d) for d in size):
        raise TypeError(f"{api}: '{arg}' must be ints or a tuple of ints, but got {tuple(size)!r}")
    if any(d < 0 for d in size):
        raise ValueError(f"{api}: '{arg}' must have non-negative dimensions, but got {tuple(size)}")
    return tuple(int(d) for d in size)


def check_dtype(dtype, api, arg="dtype"):
    if dtype is not None and not isinstance(dtype, type(mstype.float32)):
        raise TypeError(f"{api}: '{arg}' must be a mindspore dtype or None, but got {dtype!r}")
    return dtype


def check_reduction(reduction, api):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{api}: 'reduction' must be 'none', 'mean' or 'sum', but got {reduction!r}")
    return reduction


def is_tensor(x):
    return isinstance(x, Tensor)
