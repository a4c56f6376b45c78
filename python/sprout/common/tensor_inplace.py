"""MindSpore 2.x in-place Tensor methods (x.add_(y), x.masked_fill_(m, v), x.index_put_(...) ...): each
computes the new value with ops and writes it into the tensor's own memory, so views see it, and returns
the tensor. Out-of-place forms MindSpore has that Sprout lacked (index_put, masked_scatter, scatter_add,
index_copy) are here too, next to their in-place twins. Attached by sprout/__init__.py after the ops.

How a write happens (`_write`): outside a grad scope, `Tensor._copy_from`; inside one, when the tensor or
the value carries a gradient, `_C.write_tracked`, as `Tensor.__setitem__` does, so the tensor takes the
value's place in the gradient graph. While a graph is being staged, a GraphTensor stands for the tensor:
the write is an `ops.assign` (which updates a Parameter, or the caller's tensor, in place when the
compiled graph runs) and the name then stands for the computed value, which keeps the gradient flowing
through the computation rather than through Assign.
"""
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor


def _ops():
    from sprout import ops
    return ops


def _is_graph_tensor(x):
    from sprout._frontend.graph_tensor import GraphTensor
    return isinstance(x, GraphTensor)


# --- argument checks ---------------------------------------------------------------------------------

def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _check_int(api, arg, x):
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {type(x).__name__}")
    return int(x)


def _check_number(api, arg, x):
    if not isinstance(x, numbers.Number):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {type(x).__name__}")
    return x


def _check_bool(api, arg, x):
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {type(x).__name__}")
    return bool(x)


def _check_dim(api, dim, ndim, arg="dim"):
    dim = _check_int(api, arg, dim)
    rank = max(ndim, 1)
    if not -rank <= dim < rank:
        raise ValueError(f"{api}: '{arg}' must be in [{-rank}, {rank}), but got {dim}")
    return dim % rank


def _check_index(api, arg, index, ndims=(0, 1)):
    _check_tensor(api, arg, index)
    if index.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: '{arg}' must be an int32 or int64 Tensor, but got {index.dtype}")
    if ndims is not None and index.ndim not in ndims:
        raise ValueError(f"{api}: '{arg}' must have {' or '.join(map(str, ndims))} dimensions, "
                         f"but got shape {index.shape}")
    return index


def _operand(api, arg, x):
    """A Tensor, a Python number or bool: what the arithmetic in-place methods take."""
    if isinstance(x, (Tensor, numbers.Number, np.bool_)):
        return x
    raise TypeError(f"{api}: '{arg}' must be a Tensor, a number or a bool, but got {type(x).__name__}")


def _scalar_value(api, arg, value):
    """A fill value: a number or bool, or a Tensor of one element (as 0-d)."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}: a Tensor '{arg}' must have one element, but got shape {value.shape}")
        return value.reshape(())
    if isinstance(value, (numbers.Number, np.bool_)):
        return value
    raise TypeError(f"{api}: '{arg}' must be a number, a bool or a one-element Tensor, but got "
                    f"{type(value).__name__}")


# --- the write -----------------------------------------------------------------------------------------

def _fitted(api, self, value):
    """`value` as a Tensor of self's shape and dtype. A floating result is not written into an integer or
    bool tensor (PyTorch's rule: x.div_(2) on int32 would silently truncate), nor a result of another
    shape than self's that does not broadcast to it."""
    ops = _ops()
    if not isinstance(value, Tensor):
        value = ops.full(self.shape, value, dtype=self.dtype)
    if value.dtype in mstype.float_type and self.dtype not in mstype.float_type:
        raise TypeError(f"{api}: the result is {value.dtype}, which cannot be written into a {self.dtype} tensor "
                        f"in place; use the out-of-place method instead")
    if value.dtype != self.dtype:
        value = ops.cast(value, self.dtype)
    if tuple(value.shape) != tuple(self.shape):
        try:
            value = ops.broadcast_to(value, self.shape)
        except (ValueError, RuntimeError):
            raise ValueError(f"{api}: the result has shape {tuple(value.shape)}, which cannot be written into "
                             f"the tensor of shape {tuple(self.shape)}") from None
    return value


def _write(api, self, value):
    """Writes `value` into self in place (see the module's note) and returns self."""
    value = _fitted(api, self, value)
    if _is_graph_tensor(self):
        _ops().assign(self, value)
        if not _is_graph_tensor(value):  # a value known while compiling (fill_, zero_): a constant node
            from sprout._frontend import calls
            from sprout._frontend.graph_tensor import GraphTensor
            value = GraphTensor(calls.active_context().current_graph.constant(value))
        object.__setattr__(self, "_node", value._node)
        return self
    if _C.is_recording() and (_C.is_tracked(self) or _C.is_tracked(value)):
        try:
            _C.write_tracked(self, value)
        except RuntimeError as e:
            raise RuntimeError(f"{api}: {e}") from None
    else:
        self._copy_from(value)
    return self


def _inplace(name, compute, doc):
    """Tensor.<name>: compute(self, ...) written into self."""
    api = f"Tensor.{name}"

    def method(self, *args, **kwargs):
        source = self
        if not _is_graph_tensor(self) and _C.is_recording() and _C.is_tracked(self):
            # The computation may save self for its backward (y.mul_(x) saves y for x's gradient), and the
            # write would then overwrite what it saved: compute from a recorded copy, as PyTorch does.
            source = self.copy()
        return _write(api, self, compute(api, source, *args, **kwargs))
    method.__name__ = name
    method.__doc__ = doc
    return method


# --- arithmetic ----------------------------------------------------------------------------------------

def _add(api, self, other, *, alpha=1):
    other = _operand(api, "other", other)
    _check_number(api, "alpha", alpha)
    return _ops().add(self, other if alpha == 1 else _ops().mul(other, alpha))


def _sub(api, self, other, *, alpha=1):
    other = _operand(api, "other", other)
    _check_number(api, "alpha", alpha)
    return _ops().sub(self, other if alpha == 1 else _ops().mul(other, alpha))


def _mul(api, self, other):
    return _ops().mul(self, _operand(api, "other", other))


def _divide(api, self, other, rounding_mode):
    """MindSpore's div with rounding_mode None (true division), 'floor' or 'trunc'."""
    ops = _ops()
    other = _operand(api, "other", other)
    if rounding_mode is None:
        return ops.div(self, other)
    if rounding_mode == "floor":
        return ops.floor_divide(self, other)
    if rounding_mode == "trunc":
        exact = self.dtype not in mstype.float_type and not (isinstance(other, Tensor) and
                                                             other.dtype in mstype.float_type)
        if exact:  # integers: truncate a float64 quotient, exact for |values| < 2^53
            quotient = ops.trunc(ops.div(ops.cast(self, mstype.float64), other))
            return ops.cast(quotient, self.dtype)
        return ops.trunc(ops.div(self, other))
    raise ValueError(f"{api}: 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}")


def _div(api, self, other, *, rounding_mode=None):
    return _divide(api, self, other, rounding_mode)


def _remainder(api, self, other):
    return _ops().remainder(self, _operand(api, "other", other))


def _floor_divide(api, self, other):
    return _ops().floor_divide(self, _operand(api, "other", other))


def _clamp(api, self, min=None, max=None):
    if min is None and max is None:
        raise ValueError(f"{api}: 'min' and 'max' cannot both be None")
    return _ops().clamp(self, min, max)


def _unary(op_name):
    def compute(api, self):
        return getattr(_ops(), op_name)(self)
    return compute


# --- fills and copies -------------------------------------------------------------------------------------

def _fresh(value):
    """value, or in a grad scope a recorded copy of it: the tensor written takes the value's place in the
    gradient graph, which must not be a grad input itself (later writes into the tensor would be refused)."""
    return value.copy() if _C.is_recording() and _C.is_tracked(value) else value


def _fill(api, self, value):
    value = _scalar_value(api, "value", value)
    if isinstance(value, Tensor):
        return _fresh(_ops().broadcast_to(_ops().cast(value, self.dtype), self.shape))
    return _ops().full(self.shape, value, dtype=self.dtype)


def _zero(api, self):
    return _ops().zeros(self.shape, self.dtype)


def _copy(api, self, src, non_blocking=False):
    _check_tensor(api, "src", src)
    _check_bool(api, "non_blocking", non_blocking)  # no asynchronous devices: every copy is synchronous
    return _fresh(src if src.dtype == self.dtype else _ops().cast(src, self.dtype))


def _masked_fill(api, self, mask, value):
    _check_tensor(api, "mask", mask)
    if mask.dtype != mstype.bool_:
        raise TypeError(f"{api}: 'mask' must be a bool Tensor, but got {mask.dtype}")
    value = _scalar_value(api, "value", value)
    if isinstance(value, Tensor):
        value = _ops().cast(value, self.dtype)
    return _ops().masked_fill(self, mask, value)


def _diagonal_mask(api, shape, wrap):
    """A constant bool array marking the main diagonal (PyTorch's fill_diagonal_: for a tall matrix with
    wrap=True the diagonal starts again every columns + 1 rows)."""
    if len(shape) < 2:
        raise ValueError(f"{api}: the tensor must have at least 2 dimensions, but got shape {tuple(shape)}")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"{api}: a tensor of more than 2 dimensions must have all dimensions equal, but got "
                         f"shape {tuple(shape)}")
    mask = np.zeros(int(np.prod(shape)), bool)
    strides = np.cumprod((1,) + tuple(shape[:0:-1]))[::-1]  # element strides of a contiguous layout
    step = int(strides.sum())
    end = mask.size if len(shape) == 2 and wrap else min(shape) * step
    mask[0:end:step] = True
    return mask.reshape(shape)


def _fill_diagonal(api, self, fill_value, wrap=False):
    _check_number(api, "fill_value", fill_value)
    mask = Tensor(_diagonal_mask(api, tuple(self.shape), _check_bool(api, "wrap", wrap)))
    return _ops().masked_fill(self, mask, fill_value)


# --- indexed updates ---------------------------------------------------------------------------------------

def _along_front(x, dim):
    """x with axis `dim` moved to the front (an involution: applying it again moves it back)."""
    return x if dim == 0 else _ops().swapaxes(x, 0, dim)


def _index_add(api, self, dim, index, source, *, alpha=1):
    dim = _check_dim(api, dim, self.ndim)
    index = _check_index(api, "index", index)
    _check_tensor(api, "source", source)
    _check_number(api, "alpha", alpha)
    expected = tuple(self.shape[:dim]) + (index.size,) + tuple(self.shape[dim + 1:])
    if tuple(source.shape) != expected:
        raise ValueError(f"{api}: 'source' must have shape {expected} (the tensor's, with index's length along "
                         f"dim), but got {tuple(source.shape)}")
    if alpha != 1:
        source = _ops().mul(source, alpha)
    return _ops().index_add(self, _ops().cast(index.reshape(-1), mstype.int32), _ops().cast(source, self.dtype), dim)


def _index_fill(api, self, dim, index, value):
    dim = _check_dim(api, dim, self.ndim)
    index = _check_index(api, "index", index)
    value = _scalar_value(api, "value", value)
    if isinstance(value, Tensor):
        value = _ops().cast(value, self.dtype)
    return _ops().index_fill(self, dim, index.reshape(-1), value)


def index_copy(self, dim, index, tensor):
    """A copy of the tensor whose slices index[i] along `dim` are tensor's slices i (PyTorch's index_copy;
    MindSpore has the in-place index_copy_)."""
    return _index_copy("Tensor.index_copy", self, dim, index, tensor)


def _index_copy(api, self, dim, index, tensor):
    dim = _check_dim(api, dim, self.ndim)
    index = _check_index(api, "index", index).reshape(-1)
    _check_tensor(api, "tensor", tensor)
    expected = tuple(self.shape[:dim]) + (index.shape[0],) + tuple(self.shape[dim + 1:])
    if tuple(tensor.shape) != expected and not (self.ndim == 0 and tensor.size == index.shape[0]):
        raise ValueError(f"{api}: 'tensor' must have shape {expected}, but got {tuple(tensor.shape)}")
    if self.ndim == 0:
        return _ops().cast(tensor.reshape(()), self.dtype)
    front = _along_front(self, dim)
    updates = _along_front(_ops().cast(tensor, self.dtype), dim)
    return _along_front(_ops().tensor_scatter_update(front, index.reshape(-1, 1), updates), dim)


def _scatter_index(api, self, dim, index):
    dim = _check_dim(api, dim, self.ndim)
    _check_index(api, "index", index, ndims=None)
    if index.size and index.ndim != self.ndim:
        raise ValueError(f"{api}: 'index' must have the tensor's rank {self.ndim}, but got shape {index.shape}")
    for d, (n, m) in enumerate(zip(index.shape, self.shape)):
        if d != dim and n > m:
            raise ValueError(f"{api}: 'index' shape {tuple(index.shape)} exceeds the tensor's shape "
                             f"{tuple(self.shape)} along dimension {d}")
    return dim


def _scatter_source(api, self, index, src):
    """src cut to index's shape (src may be larger), or a value filled to it, in self's dtype."""
    if isinstance(src, Tensor):
        if src.ndim != index.ndim or any(s < n for s, n in zip(src.shape, index.shape)):
            raise ValueError(f"{api}: 'src' must have index's rank and at least its size along every "
                             f"dimension, but got shapes src {tuple(src.shape)} and index {tuple(index.shape)}")
        if tuple(src.shape) != tuple(index.shape):
            src = src[tuple(slice(0, n) for n in index.shape)]
        return _ops().cast(src, self.dtype)
    if isinstance(src, (numbers.Number, np.bool_)):
        return _ops().full(index.shape, src, dtype=self.dtype)
    raise TypeError(f"{api}: 'src' must be a Tensor or a number, but got {type(src).__name__}")


def _scatter(api, self, dim, index, src, *, reduce=None):
    dim = _scatter_index(api, self, dim, index)
    if index.size == 0:
        return self
    src = _scatter_source(api, self, index, src)
    ops = _ops()
    if reduce is None:
        return ops.tensor_scatter_elements(self, index, src, dim, "none")
    if reduce == "add":
        return ops.tensor_scatter_elements(self, index, src, dim, "add")
    if reduce == "multiply":
        # MindSpore leaves positions that several indices hit undefined under reduce too: one factor each.
        factors = ops.tensor_scatter_elements(ops.ones(self.shape, self.dtype), index, src, dim, "none")
        return ops.mul(self, factors)
    raise ValueError(f"{api}: 'reduce' must be 'add' or 'multiply', but got {reduce!r}")


def _scatter_add_elements(api, self, dim, index, src):
    dim = _scatter_index(api, self, dim, index)
    if index.size == 0:
        return self
    _check_tensor(api, "src", src)
    return _ops().tensor_scatter_elements(self, index, _scatter_source(api, self, index, src), dim, "add")


def scatter_add(self, *args, **kwargs):
    """scatter_add(dim, index, src): src's elements added at the positions index names along dim (the
    out-of-place scatter_add_). The older form scatter_add(indices, updates) is ops.tensor_scatter_add."""
    if args and isinstance(args[0], Tensor) or "indices" in kwargs:
        return _ops().tensor_scatter_add(self, *args, **kwargs)
    return _scatter_add_elements("Tensor.scatter_add", self, *args, **kwargs)


def _normalized(index, size):
    """index with negative entries counted from the end (values must lie in [-size, size))."""
    return _ops().where(index < 0, index + size, index)


def _put(api, self, index, source, accumulate=False):
    _check_index(api, "index", index, ndims=None)
    _check_tensor(api, "source", source)
    accumulate = _check_bool(api, "accumulate", accumulate)
    if index.size != source.size:
        raise ValueError(f"{api}: 'index' and 'source' must have the same number of elements, but got "
                         f"{index.size} and {source.size}")
    ops = _ops()
    flat = self.reshape(-1)
    positions = _normalized(ops.cast(index.reshape(-1, 1), mstype.int64), max(self.size, 1))
    updates = ops.cast(source.reshape(-1), self.dtype)
    scatter = ops.tensor_scatter_add if accumulate else ops.tensor_scatter_update
    return scatter(flat, positions, updates).reshape(self.shape)


def _index_tensors(api, self, indices):
    """index_put's `indices` as integer Tensors, one per indexed dimension (a bool mask stands for the
    dimensions it covers: its nonzero positions, which needs its values, so eager mode only)."""
    if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor) for i in indices):
        raise TypeError(f"{api}: 'indices' must be a tuple or list of Tensors, but got {indices!r}")
    out = []
    for i in indices:
        if i.dtype in (mstype.bool_, mstype.uint8):
            if _is_graph_tensor(i):
                raise ValueError(f"{api}: a bool index has a shape known only at run time; use masked_fill_ or "
                                 f"masked_scatter_ in graph mode")
            out.extend(_ops().nonzero(i, as_tuple=True))
        elif i.dtype in (mstype.int32, mstype.int64):
            out.append(i)
        else:
            raise TypeError(f"{api}: 'indices' must hold bool, uint8, int32 or int64 Tensors, but got {i.dtype}")
    if len(out) > self.ndim:
        raise ValueError(f"{api}: 'indices' index {len(out)} dimensions of a tensor with only {self.ndim}")
    return out


def _index_put_value(api, self, indices, values, accumulate=False):
    accumulate = _check_bool(api, "accumulate", accumulate)
    _check_tensor(api, "values", values)
    index = _index_tensors(api, self, indices)
    if not index:
        return _ops().add(self, values) if accumulate else _ops().broadcast_to(values, self.shape)
    ops = _ops()
    try:
        batch = np.broadcast_shapes(*(tuple(i.shape) for i in index))
    except ValueError:
        raise ValueError(f"{api}: the index tensors do not broadcast together: shapes "
                         f"{[tuple(i.shape) for i in index]}") from None
    columns = [_normalized(ops.broadcast_to(ops.cast(i, mstype.int64), batch), self.shape[d])
               for d, i in enumerate(index)]
    positions = ops.stack(columns, -1)
    update_shape = tuple(batch) + tuple(self.shape[len(index):])
    try:
        updates = ops.broadcast_to(ops.cast(values, self.dtype), update_shape)
    except (ValueError, RuntimeError):
        raise ValueError(f"{api}: 'values' of shape {tuple(values.shape)} does not broadcast to the indexed "
                         f"shape {update_shape}") from None
    scatter = ops.tensor_scatter_add if accumulate else ops.tensor_scatter_update
    return scatter(self, positions, updates)


def index_put(self, indices, values, accumulate=False):
    """A copy of the tensor with tensor[indices] = values (or += values when accumulate): the
    out-of-place index_put_."""
    return _index_put_value("Tensor.index_put", self, indices, values, accumulate)


def _masked_scatter_value(api, self, mask, source):
    _check_tensor(api, "mask", mask)
    _check_tensor(api, "source", source)
    if mask.dtype != mstype.bool_:
        raise TypeError(f"{api}: 'mask' must be a bool Tensor, but got {mask.dtype}")
    if mask.ndim > self.ndim:
        raise TypeError(f"{api}: 'mask' has more dimensions ({mask.ndim}) than the tensor ({self.ndim})")
    ops = _ops()
    try:
        mask = ops.broadcast_to(mask, self.shape)
    except (ValueError, RuntimeError):
        raise ValueError(f"{api}: 'mask' of shape {tuple(mask.shape)} does not broadcast to the tensor's shape "
                         f"{tuple(self.shape)}") from None
    if self.size == 0:
        return self
    # The k-th True position (row-major) takes source's k-th element: k = running count of Trues - 1.
    flat_mask = mask.reshape(-1)
    rank = ops.cumsum(ops.cast(flat_mask, mstype.int64), 0) - 1
    picked = ops.gather(ops.cast(source.reshape(-1), self.dtype), ops.clamp(rank, 0, None), 0)
    return ops.where(flat_mask, picked, self.reshape(-1)).reshape(self.shape)


def masked_scatter(self, mask, source):
    """A copy of the tensor whose True positions of `mask` (broadcast) take source's elements in order."""
    return _masked_scatter_value("Tensor.masked_scatter", self, mask, source)


_INPLACE = [
    ("add_", _add, "self += alpha * other, in place; returns self."),
    ("sub_", _sub, "self -= alpha * other, in place; returns self."),
    ("mul_", _mul, "self *= other, in place; returns self."),
    ("div_", _div, "self /= other in place (rounding_mode None, 'floor' or 'trunc'); returns self."),
    ("remainder_", _remainder, "self = remainder(self, other) (the divisor's sign), in place; returns self."),
    ("floor_divide_", _floor_divide, "self = floor(self / other), in place; returns self."),
    ("clamp_", _clamp, "self clamped to [min, max], in place; returns self."),
    ("exp_", _unary("exp"), "self = exp(self), in place; returns self."),
    ("erfinv_", _unary("erfinv"), "self = erfinv(self), in place; returns self."),
    ("log_", _unary("log"), "self = log(self), in place; returns self."),
    ("floor_", _unary("floor"), "self = floor(self), in place; returns self."),
    ("sigmoid_", _unary("sigmoid"), "self = sigmoid(self), in place; returns self."),
    ("tanh_", _unary("tanh"), "self = tanh(self), in place; returns self."),
    ("sign_", _unary("sign"), "self = sign(self), in place; returns self."),
    ("fill_", _fill, "Every element set to `value` (a number or a one-element Tensor); returns self."),
    ("zero_", _zero, "Every element set to 0; returns self."),
    ("copy_", _copy, "src's elements (broadcast, converted to self's dtype) written into self; returns self."),
    ("masked_fill_", _masked_fill, "value written where `mask` (broadcast) is True; returns self."),
    ("fill_diagonal_", _fill_diagonal, "fill_value written on the main diagonal; returns self."),
    ("index_add_", _index_add, "alpha * source's slices added to self's slices index[i] along dim; returns self."),
    ("index_fill_", _index_fill, "value written into self's slices `index` along dim; returns self."),
    ("index_copy_", _index_copy, "tensor's slices i written into self's slices index[i] along dim; returns self."),
    ("scatter_", _scatter, "self[..index[i][j]..] = src[i][j] along dim (or += / *= with reduce 'add' / "
                           "'multiply'; src may be a number); returns self."),
    ("scatter_add_", _scatter_add_elements, "src's elements added at the positions index names along dim; "
                                            "returns self."),
    ("put_", _put, "source's elements written (or added) at flat positions `index` of self; returns self."),
    ("index_put_", _index_put_value, "self[indices] = values (or += values when accumulate); returns self."),
    ("masked_scatter_", _masked_scatter_value, "The True positions of mask take source's elements in order; "
                                               "returns self."),
]


def attach():
    """Adds the methods above (and those of tensor_misc and tensor_random_fills) to Tensor, never replacing
    one it already has."""
    from sprout.common import tensor_methods_wave2, tensor_misc, tensor_random_fills

    def add(name, fn):
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)

    for name, compute, doc in _INPLACE:
        add(name, _inplace(name, compute, doc))
    for fn in (index_copy, scatter_add, index_put, masked_scatter):
        add(fn.__name__, fn)
    tensor_misc.attach()
    tensor_random_fills.attach()
    tensor_methods_wave2.attach()


__all__ = ["attach"]
