"""MindSpore 2.x Tensor methods that are another name for, or one call of, an existing op: dtype casts
(x.float() ...), comparisons by name (x.gt(y) ...), shape helpers (x.flatten(), x.expand_as(y) ...) and
constructors of the same dtype (x.new_zeros(shape) ...). Attached by sprout/__init__.py after the ops."""
from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor


def _ops():
    from sprout import ops
    return ops


def _cast_method(name, dtype):
    def method(self):
        return self if self.dtype == dtype else _ops().cast(self, dtype)
    method.__name__ = name
    method.__doc__ = f"The tensor as {dtype}."
    return method


_CASTS = {"float": mstype.float32, "double": mstype.float64, "half": mstype.float16, "int": mstype.int32,
          "long": mstype.int64, "short": mstype.int16, "bool": mstype.bool_, "bfloat16": mstype.bfloat16,
          "byte": mstype.uint8}

# name -> ops function of the same arguments (self first).
_SAME_AS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal", "greater": "greater", "greater_equal": "greater_equal", "less": "less",
            "less_equal": "less_equal", "not_equal": "not_equal", "negative": "neg", "true_divide": "div",
            "subtract": "sub", "multiply": "mul", "divide": "div", "amax": "amax", "amin": "amin",
            "expand": "broadcast_to", "scatter": "scatter"}


def flatten(self, order="C", *, start_dim=0, end_dim=-1):
    """The tensor with axes start_dim..end_dim merged (all of them by default: 1-d)."""
    return _ops().flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def ravel(self):
    """The tensor as 1-d."""
    return self.reshape(-1)


def expand_as(self, other):
    """The tensor broadcast to `other`'s shape; a view."""
    return _ops().broadcast_to(self, other.shape)


def view_as(self, other):
    """The tensor reshaped to `other`'s shape."""
    return self.reshape(other.shape)


def reshape_as(self, other):
    """The tensor reshaped to `other`'s shape."""
    return self.reshape(other.shape)


def type_as(self, other):
    """The tensor cast to `other`'s dtype."""
    return self.astype(other.dtype)


def t(self):
    """A 2-d tensor transposed (1-d and 0-d ones unchanged)."""
    if self.ndim > 2:
        raise ValueError(f"Tensor.t: the tensor must have at most 2 dimensions, but got shape {self.shape}")
    return self.transpose() if self.ndim == 2 else self


def repeat(self, repeats, axis=None):
    """Each element repeated `repeats` times along `axis` (over the flattened tensor when None): NumPy's
    repeat, as MindSpore's Tensor.repeat (ops.tile repeats the whole tensor)."""
    return _ops().repeat_interleave(self, repeats, axis)


def where(self, condition, y):
    """self where `condition` is True, else y."""
    return _ops().where(condition, self, y)


def new_zeros(self, size, dtype=None):
    """Zeros of shape `size`, of this tensor's dtype unless given."""
    return _ops().zeros(size, dtype or self.dtype)


def new_ones(self, size, dtype=None):
    """Ones of shape `size`, of this tensor's dtype unless given."""
    return _ops().ones(size, dtype or self.dtype)


def nelement(self):
    """The number of elements."""
    return self.size


def ndimension(self):
    """The number of dimensions."""
    return self.ndim


def numpy(self):
    """Same as asnumpy()."""
    return self.asnumpy()


def init_data(self, slice_index=None, shape=None, opt_shape=None):
    """The tensor itself: Sprout allocates a tensor's data when it is created, so there is nothing to
    initialize later (MindSpore's lazy initialization)."""
    return self


def _from_numpy(array):
    from sprout.common.tensor import from_numpy
    return from_numpy(array)


def attach():
    """Adds the methods above to Tensor, never replacing one it already has."""
    def add(name, fn):
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)

    for name, dtype in _CASTS.items():
        add(name, _cast_method(name, dtype))
    ops = _ops()
    for name, target in _SAME_AS.items():
        fn = getattr(ops, target)
        add(name, fn if isinstance(fn, _C.OpFunction) else (lambda f: lambda self, *a, **k: f(self, *a, **k))(fn))
    for fn in (flatten, ravel, expand_as, view_as, reshape_as, type_as, t, repeat, where, new_zeros, new_ones, nelement,
               ndimension, numpy, init_data):
        add(fn.__name__, fn)
    add("from_numpy", staticmethod(_from_numpy))


__all__ = ["attach"]
