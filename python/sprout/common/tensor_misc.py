"""MindSpore 2.x Tensor methods of several kinds that Sprout's Tensor lacked: copies and conversions (clone,
to, type, new_empty, new_full, fill), layout queries (stride, data_ptr, is_signed, is_complex), selections
(select, take, choose, kthvalue, top_k), reductions (ptp, sum_to_size), resize, itemset, allclose, the
transposes H / mT / mH, and requires_grad_. Attached by tensor_inplace.attach()."""
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.tensor_inplace import _check_bool, _check_dim, _check_int, _check_tensor, _is_graph_tensor


def _ops():
    from sprout import ops
    return ops


def _size_arg(api, arg, size, allow_int=True):
    """A shape given as ints, a tuple or a list (size(2, 3), size((2, 3)))."""
    if not allow_int and not (len(size) == 1 and isinstance(size[0], (tuple, list))):
        raise TypeError(f"{api}: '{arg}' must be a tuple or list of ints, but got {size[0]!r}")
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for d in size:
        if isinstance(d, bool) or not isinstance(d, numbers.Integral):
            raise TypeError(f"{api}: '{arg}' must be ints, a tuple or a list of ints, but got {size!r}")
        if d < 0:
            raise ValueError(f"{api}: '{arg}' must be non-negative, but got {tuple(size)}")
    return tuple(int(d) for d in size)


# --- copies and conversions ------------------------------------------------------------------------------

def clone(self):
    """A copy of the tensor (the gradient flows through it)."""
    return self.copy()


def _is_device(value):
    return isinstance(value, str)


def _check_device(api, device):
    if device is not None and str(device).split(":")[0].lower() != "cpu":
        raise ValueError(f"{api}: 'device' must be None or 'CPU' (Sprout runs on the CPU), but got {device!r}")


def to(self, *args, **kwargs):
    """The tensor converted: to(dtype), to(device, dtype) or to(other) (other's dtype); non_blocking has no
    effect (every copy is synchronous) and copy=True copies even when nothing changes."""
    api = "Tensor.to"
    args = list(args)
    device = kwargs.pop("device", None)
    other = kwargs.pop("other", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    copy = kwargs.pop("copy", False)
    if kwargs:
        raise TypeError(f"{api}: unexpected keyword argument(s) {sorted(kwargs)}")
    if args and isinstance(args[0], Tensor):
        other = args.pop(0)
    elif args and (_is_device(args[0]) and not _is_dtype_name(args[0])):
        device = args.pop(0)
    if args and not isinstance(args[0], bool) and args[0] is not None and dtype is None and other is None:
        dtype = args.pop(0)
    elif args and args[0] is None:
        args.pop(0)
    positional = ("non_blocking", "copy")
    if len(args) > len(positional):
        raise TypeError(f"{api}: too many positional arguments")
    values = dict(zip(positional, args))
    non_blocking, copy = values.get("non_blocking", non_blocking), values.get("copy", copy)
    _check_bool(api, "non_blocking", non_blocking)
    _check_bool(api, "copy", copy)
    _check_device(api, device)
    if other is not None:
        dtype = other.dtype
    dtype = self.dtype if dtype is None else mstype._dtype_arg(api, "dtype", dtype)
    if dtype == self.dtype:
        return self.copy() if copy else self
    return self.astype(dtype)


def _is_dtype_name(value):
    try:
        mstype._dtype_arg("", "", value)
        return True
    except TypeError:
        return False


def _type(self, dtype=None):
    """The dtype's name ('Float32') when dtype is None, else the tensor cast to dtype."""
    if dtype is None:
        return str(self.dtype)
    return self.astype(mstype._dtype_arg("Tensor.type", "dtype", dtype))


def new_empty(self, size, *, dtype=None, device=None):
    """A tensor of shape `size` and this tensor's dtype unless given. Sprout fills it with zeros: reading
    memory nobody wrote would give different numbers from run to run."""
    api = "Tensor.new_empty"
    _check_device(api, device)
    dtype = self.dtype if dtype is None else mstype._dtype_arg(api, "dtype", dtype)
    return _ops().zeros(_size_arg(api, "size", (size,)), dtype)


def new_full(self, size, fill_value, *, dtype=None):
    """A tensor of shape `size` filled with fill_value, of this tensor's dtype unless given."""
    api = "Tensor.new_full"
    if not isinstance(fill_value, (numbers.Number, np.bool_)):
        raise TypeError(f"{api}: 'fill_value' must be a number or a bool, but got {type(fill_value).__name__}")
    dtype = self.dtype if dtype is None else mstype._dtype_arg(api, "dtype", dtype)
    return _ops().full(_size_arg(api, "size", (size,), allow_int=False), fill_value, dtype=dtype)


def fill(self, value):
    """A tensor of this one's shape and dtype filled with `value` (a number, a bool or a one-element Tensor)."""
    from sprout.common.tensor_inplace import _fill
    return _fill("Tensor.fill", self, value)


# --- queries ------------------------------------------------------------------------------------------

def is_signed(self):
    """Whether the dtype holds negative numbers (signed integers and floats)."""
    return self.dtype in mstype.int_type + mstype.float_type


def is_complex(self):
    """Whether the dtype is complex: never, Sprout has no complex dtypes."""
    return False


def stride(self, dim=None):
    """The step, in elements, from one element to the next along each dimension (a list), or along `dim`."""
    steps = [s // self.itemsize for s in self.strides]
    if dim is None:
        return steps
    return steps[_check_dim("Tensor.stride", dim, self.ndim)] if self.ndim else 1


def data_ptr(self):
    """The address of the tensor's first element in host memory."""
    return self._data_ptr()


def requires_grad_(self, requires_grad=True):
    """Sets a Parameter's requires_grad (whether optimizers and Cell.trainable_params see it); returns self.
    A plain Tensor has no such flag: ms.grad chooses what to differentiate by grad_position, so there is
    nothing to set (MindSpore's Tensor has no requires_grad attribute either)."""
    requires_grad = _check_bool("Tensor.requires_grad_", "requires_grad", requires_grad)
    from sprout.common.parameter import Parameter
    if isinstance(self, Parameter):
        self.requires_grad = requires_grad
    return self


# --- selections -------------------------------------------------------------------------------------------

def select(self, *args, **kwargs):
    """select(dim, index): the slice at `index` along `dim` (one dimension fewer). The older form
    select(condition, y) gives self where condition is True, else y."""
    if (args and isinstance(args[0], Tensor)) or "condition" in kwargs:
        return _ops().select(*(args[:1] or (kwargs.pop("condition"),)), self, *args[1:], **kwargs)
    api = "Tensor.select"
    names = ("dim", "index")
    values = dict(zip(names, args), **kwargs)
    if set(values) != set(names):
        raise TypeError(f"{api}: takes (dim, index), but got arguments {sorted(values)}")
    if self.ndim == 0:
        raise ValueError(f"{api}: a 0-d tensor has no dimension to select from")
    dim = _check_dim(api, values["dim"], self.ndim)
    index = _check_int(api, "index", values["index"])
    size = self.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"{api}: 'index' {index} is out of range for dimension {dim} of size {size}")
    return self[(slice(None),) * dim + (index % size,)]


def _mode_index(api, index, n, mode):
    """Integer `index` into n choices under NumPy's mode: 'clip' (negative counted from the end, as
    MindSpore does, then clipped), 'wrap' (modulo n) or 'raise' (out of range is an error; eager only)."""
    ops = _ops()
    index = ops.cast(index, mstype.int64)
    if mode == "clip":
        return ops.clamp(ops.where(index < 0, index + n, index), 0, n - 1)
    if mode == "wrap":
        return ops.remainder(index, n)
    if mode == "raise":
        if _is_graph_tensor(index):
            raise ValueError(f"{api}: mode='raise' checks index values, which graph mode only knows at run time; "
                             f"use 'clip' or 'wrap'")
        values = index.asnumpy()
        if values.size and (values.min() < -n or values.max() >= n):
            raise IndexError(f"{api}: an index is out of range [{-n}, {n}): values from {values.min()} to "
                             f"{values.max()}")
        return ops.where(index < 0, index + n, index)
    raise ValueError(f"{api}: 'mode' must be 'raise', 'wrap' or 'clip', but got {mode!r}")


def take(self, indices, axis=None, mode="clip"):
    """Elements at `indices` of the flattened tensor (axis None) or along `axis` (NumPy's take)."""
    api = "Tensor.take"
    _check_tensor(api, "indices", indices)
    if indices.dtype not in mstype.int_type + mstype.uint_type:
        raise TypeError(f"{api}: 'indices' must be an integer Tensor, but got {indices.dtype}")
    source = self.reshape(-1) if axis is None else self
    axis = 0 if axis is None else _check_dim(api, axis, self.ndim, "axis")
    n = source.shape[axis]
    if n == 0:
        raise IndexError(f"{api}: cannot take from an empty dimension")
    return _ops().gather(source, _mode_index(api, indices, n, mode), axis)


def choose(self, choices, mode="clip"):
    """Element-wise choices[self[i]][i]: the tensor (integers) picks among the choice tensors, all broadcast
    together (NumPy's choose)."""
    api = "Tensor.choose"
    if self.dtype not in mstype.int_type + mstype.uint_type:
        raise TypeError(f"{api}: the tensor must hold integers, but got {self.dtype}")
    if isinstance(choices, Tensor):
        choices = [choices[i] for i in range(choices.shape[0])]
    elif isinstance(choices, (tuple, list)) and choices:
        choices = [c if isinstance(c, Tensor) else Tensor(c) for c in choices]
    else:
        raise TypeError(f"{api}: 'choices' must be a non-empty tuple, list or Tensor, but got {choices!r}")
    ops = _ops()
    dtype = choices[0].dtype
    for c in choices[1:]:
        dtype = _C.promote_types(dtype, c.dtype)
    try:
        shape = np.broadcast_shapes(tuple(self.shape), *(tuple(c.shape) for c in choices))
    except ValueError:
        raise ValueError(f"{api}: the tensor and the choices do not broadcast together: shapes "
                         f"{[tuple(self.shape)] + [tuple(c.shape) for c in choices]}") from None
    stacked = ops.stack([ops.broadcast_to(ops.cast(c, dtype), shape) for c in choices], 0)
    index = ops.broadcast_to(_mode_index(api, self, len(choices), mode), shape)
    return ops.gather_elements(stacked, 0, index.reshape((1,) + tuple(shape))).reshape(shape)


def kthvalue(self, k, dim=-1, keepdim=False):
    """(values, indices): the k-th smallest element along `dim` and its position (int64)."""
    api = "Tensor.kthvalue"
    k = _check_int(api, "k", k)
    _check_bool(api, "keepdim", keepdim)
    if self.size == 0:
        raise ValueError(f"{api}: the tensor is empty")
    dim = _check_dim(api, dim, self.ndim)
    n = self.shape[dim] if self.ndim else 1
    if not 1 <= k <= n:
        raise ValueError(f"{api}: 'k' must be in [1, {n}], but got {k}")
    ops = _ops()
    source = self if self.ndim else self.reshape(1)
    values, indices = ops.topk(source, k, dim, largest=False, sorted=True)
    pick = (slice(None),) * dim + (slice(k - 1, k),)
    values, indices = values[pick], ops.cast(indices[pick], mstype.int64)
    if not keepdim or self.ndim == 0:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def top_k(self, k, sorted=True):
    """(values, indices) of the k largest elements along the last dimension (MindSpore's older name of topk)."""
    return _ops().topk(self, k, -1, largest=True, sorted=sorted)


# --- reductions and reshapes ---------------------------------------------------------------------------

def ptp(self, axis=None, keepdims=False):
    """max - min along `axis` (over every element when None)."""
    _check_bool("Tensor.ptp", "keepdims", keepdims)
    ops = _ops()
    return ops.sub(ops.amax(self, axis, keepdims), ops.amin(self, axis, keepdims))


def sum_to_size(self, *size):
    """The tensor summed down to `size`, a shape the tensor broadcasts from (leading dimensions summed away,
    dimensions of size 1 summed with keepdims)."""
    api = "Tensor.sum_to_size"
    size = _size_arg(api, "size", size)
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s not in (1, d) for s, d in zip(size, shape[lead:])):
        raise ValueError(f"{api}: 'size' {size} is not expandable to the tensor's shape {shape}")
    out = self
    if lead:
        out = _ops().sum(out, tuple(range(lead)), False)
    squashed = tuple(i for i, (s, d) in enumerate(zip(size, shape[lead:])) if s == 1 and d != 1)
    if squashed:
        out = _ops().sum(out, squashed, True)
    return out


def resize(self, *new_shape):
    """A new tensor of shape new_shape holding the tensor's elements in order, cut short or padded with
    zeros (NumPy's ndarray.resize, without changing the tensor itself)."""
    shape = _size_arg("Tensor.resize", "new_shape", new_shape)
    n = int(np.prod(shape))
    ops = _ops()
    flat = self.reshape(-1)
    if n <= self.size:
        flat = flat[:n]
    else:
        flat = ops.concat([flat, ops.zeros((n - self.size,), self.dtype)], 0)
    return flat.reshape(shape)


def itemset(self, *args):
    """A copy of the tensor with one element set: itemset(value) for a one-element tensor, itemset(index,
    value) with a flat index or a tuple of indices."""
    api = "Tensor.itemset"
    if len(args) not in (1, 2):
        raise TypeError(f"{api}: takes (value) or (index, value), but got {len(args)} arguments")
    value = args[-1]
    if not isinstance(value, (numbers.Number, np.bool_)):
        raise TypeError(f"{api}: the value must be a number, but got {value!r}")
    out = self.copy()
    if len(args) == 1:
        if self.size != 1:
            raise IndexError(f"{api}: itemset(value) needs a one-element tensor, but it has {self.size}")
        index = (0,) * self.ndim
    elif isinstance(args[0], tuple):
        index = args[0]
        if len(index) != self.ndim:
            raise ValueError(f"{api}: the index {index} must have {self.ndim} entries, one per dimension")
    else:
        flat = _check_int(api, "index", args[0])
        if not -self.size <= flat < self.size:
            raise IndexError(f"{api}: index {flat} is out of bounds for a tensor of size {self.size}")
        index = tuple(int(i) for i in np.unravel_index(flat % self.size, self.shape))
    out[index] = value
    return out


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element satisfies |self - other| <= atol + rtol * |other| (a Python bool; in graph mode
    a bool tensor)."""
    api = "Tensor.allclose"
    _check_tensor(api, "other", other)
    if other.dtype != self.dtype:
        raise TypeError(f"{api}: 'other' must have the tensor's dtype {self.dtype}, but got {other.dtype}")
    for arg, value in (("rtol", rtol), ("atol", atol)):
        if not isinstance(value, (int, float, bool)):
            raise TypeError(f"{api}: '{arg}' must be a float, int or bool, but got {value!r}")
    _check_bool(api, "equal_nan", equal_nan)
    close = _ops().isclose(self, other, rtol, atol, equal_nan).all()
    return close if _is_graph_tensor(close) else bool(close)


# --- transposes -----------------------------------------------------------------------------------------

def _matrix_transpose(api):
    def get(self):
        if self.ndim < 2:
            raise ValueError(f"{api}: the tensor must have at least 2 dimensions, but got shape {self.shape}")
        return _ops().swapaxes(self, -2, -1)
    return get


def _h(self):
    if self.ndim != 2:
        raise ValueError(f"Tensor.H: only 2-d tensors are supported, but got {self.ndim}-d")
    return _ops().swapaxes(self, 0, 1)  # real dtypes only: the conjugate is the tensor itself


_PROPERTIES = {
    "H": property(_h, doc="A 2-d tensor transposed (conjugated too, for the complex dtypes Sprout lacks)."),
    "mT": property(_matrix_transpose("Tensor.mT"), doc="The last two dimensions swapped."),
    "mH": property(_matrix_transpose("Tensor.mH"), doc="The adjoint: the last two dimensions swapped (and "
                                                       "conjugated, for the complex dtypes Sprout lacks)."),
}


def scatter_sub(self, indices, updates):
    """A copy of the tensor with `updates` subtracted at the positions `indices` (index vectors along its last
    axis) names: ops.tensor_scatter_sub."""
    return _ops().tensor_scatter_sub(self, indices, updates)


def attach():
    if not hasattr(Tensor, "type"):
        Tensor.type = _type
        Tensor.type.__name__ = "type"
    for fn in (clone, to, new_empty, new_full, fill, is_signed, is_complex, stride, data_ptr, requires_grad_,
               select, take, choose, kthvalue, top_k, ptp, sum_to_size, resize, itemset, allclose, scatter_sub):
        if not hasattr(Tensor, fn.__name__):
            setattr(Tensor, fn.__name__, fn)
    for name, prop in _PROPERTIES.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, prop)


__all__ = ["attach"]
