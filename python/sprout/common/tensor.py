"""``sprout.Tensor``: the C++ tensor (sprout._C.Tensor) with the rest of MindSpore's Python API.

The class is the C++ one, so an op's result is a ``sprout.Tensor`` with no wrapping; the methods
below are added to it. Metadata, NumPy/DLPack interop, operators and basic indexing are in C++
(src/python/tensor*.cc); methods here are thin calls into ``sprout.ops``.
"""
import numpy as np

from sprout import _C
from sprout.common import dtype as mstype

Tensor = _C.Tensor
Tensor.__module__ = "sprout"


def _method(fn):
    setattr(Tensor, fn.__name__, fn)
    return fn


def _value_text(array, dtype):
    """The value part of MindSpore's repr: a scalar float in %g form (``value= 2``, ``value= 10.198``), an
    empty tensor as nothing, anything else as NumPy prints it with comma separators."""
    if array.ndim == 0:
        if dtype == mstype.bool_:
            return " " + str(bool(array))
        return " " + (f"{array.item():g}" if dtype in mstype.float_type else str(array.item()))
    if array.size == 0:
        return "\n" if array.ndim > 1 else " "
    if dtype in mstype.float_type:
        body = np.array2string(array, separator=", ", formatter={"float_kind": lambda v: f"{v: .8e}"},
                               threshold=1000, edgeitems=3)
    else:
        body = np.array2string(array, separator=", ", threshold=1000, edgeitems=3)
    return ("\n" if array.ndim > 1 else " ") + body


@_method
def __repr__(self):
    """MindSpore's form: ``Tensor(shape=[2, 3], dtype=Float32, value=...)``."""
    shape = "[" + ", ".join(str(d) for d in self.shape) + "]"
    return f"Tensor(shape={shape}, dtype={self.dtype}, value={_value_text(self.asnumpy(), self.dtype)})"


@_method
def __str__(self):
    return str(self.asnumpy())


@_method
def __format__(self, spec):
    if self.ndim == 0:
        return format(self.item(), spec)
    return format(str(self), spec)


@_method
def item(self, index=None):
    """The single element as a Python number (or the element at `index`)."""
    if isinstance(index, tuple):
        return self[index].item()
    if index is not None:  # a flat index, as NumPy's item()
        index = int(index)
        if not -self.size <= index < self.size:
            raise IndexError(f"Tensor.item: index {index} is out of bounds for a tensor of size {self.size}")
        return self._element(index % self.size)
    if self.size != 1:
        raise ValueError(f"Tensor.item: the tensor has {self.size} elements, only a tensor with one element "
                         f"can be converted to a Python scalar")
    return self._element(0)


@_method
def tolist(self):
    return self.asnumpy().tolist()


@_method
def __array__(self, dtype=None, copy=None):
    array = self.asnumpy()
    if dtype is not None and array.dtype != np.dtype(dtype):
        return array.astype(dtype)
    return array.copy() if copy else array


@_method
def __bool__(self):
    if self.size != 1:
        raise ValueError(f"The truth value of a Tensor with {self.size} elements is ambiguous; "
                         f"use .any() or .all()")
    return bool(self._element(0))


@_method
def __int__(self):
    return int(self.item())


@_method
def __float__(self):
    return float(self.item())


@_method
def __index__(self):
    if self.dtype not in mstype.int_type + mstype.uint_type or self.size != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return self._element(0)


@_method
def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(self.shape[0]))


_astype, _setitem = Tensor.astype, Tensor.__setitem__  # the C++ methods: a sprout dtype, a non-None value


@_method
def astype(self, dtype, copy=True):
    """`self` converted to `dtype`: a sprout dtype, a NumPy dtype (np.float32) or a dtype's name ('float32'),
    as MindSpore takes. A copy, unless copy=False and the dtype is already `dtype`."""
    return _astype(self, mstype._dtype_arg("Tensor.astype", "dtype", dtype), copy)


@_method
def __setitem__(self, index, value):
    # The C++ binding takes any object but None, whose refusal would be a signature dump.
    if value is None:
        raise TypeError("Tensor.__setitem__: 'value' must be a Tensor, NumPy array, Python number or a (nested) "
                        "list/tuple of numbers, but got None")
    if _C.is_recording() and (_C.is_tracked(self) or (isinstance(value, Tensor) and _C.is_tracked(value))):
        _setitem_with_gradient(self, index, value)
    else:
        _setitem(self, index, value)


def _setitem_with_gradient(target, index, value):
    """target[index] = value inside a grad scope, with a gradient: the update is computed as graph mode
    computes it (a TensorScatterUpdate, differentiable in the old target and in value), then written into
    the target, which takes the update's place in the gradient graph. Values an earlier op saved and this
    write overwrites make that op's backward fail clearly (Note [In-place writes and saved values])."""
    from sprout._frontend import indexing
    items = index if isinstance(index, tuple) else (index,)
    items = tuple(i.asnumpy() if isinstance(i, Tensor) else i for i in items)  # eager: index values are known
    updated = indexing.setitem(target, items if isinstance(index, tuple) else items[0], value)
    _C.write_tracked(target, updated)


@_method
def __copy__(self):
    return self


@_method
def __deepcopy__(self, memo):
    return self.copy()


def _shape_args(api, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for d in shape:
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool):
            raise TypeError(f"{api}: 'shape' entries must be ints, but got {shape!r}")
    return tuple(int(d) for d in shape)


@_method
def reshape(self, *shape):
    from sprout import ops
    return ops.reshape(self, _shape_args("Tensor.reshape", shape))


@_method
def view(self, *shape):
    """The tensor in another shape (a reshape), or with view(dtype) its bytes read as another dtype (the last
    axis scaled by the itemsizes' ratio), sharing memory, as MindSpore's and PyTorch's view."""
    from sprout import ops
    if len(shape) == 1 and isinstance(shape[0], mstype.Type):
        return _view_as_dtype(self, shape[0])
    return ops.reshape(self, _shape_args("Tensor.view", shape))


def _view_as_dtype(tensor, dtype):
    if mstype.bfloat16 in (tensor.dtype, dtype):
        raise TypeError(f"Tensor.view: bfloat16 has no NumPy form to reinterpret, but got {tensor.dtype} -> {dtype}")
    old, new = tensor.itemsize, np.dtype(mstype.dtype_to_nptype(dtype)).itemsize
    if tensor.ndim == 0 and old != new or tensor.ndim and (tensor.shape[-1] * old) % new:
        raise ValueError(f"Tensor.view: the last axis of shape {tensor.shape} in {tensor.dtype} does not hold a whole "
                         f"number of {dtype} elements")
    return from_numpy(np.ascontiguousarray(tensor.asnumpy()).view(mstype.dtype_to_nptype(dtype)))


@_method
def transpose(self, *axes):
    from sprout import ops
    if not axes or axes == (None,):
        axes = tuple(range(self.ndim - 1, -1, -1))
    return ops.transpose(self, _shape_args("Tensor.transpose", axes))


@_method
def permute(self, *axis):
    from sprout import ops
    return ops.transpose(self, _shape_args("Tensor.permute", axis))


Tensor.T = property(lambda self: self.transpose(), doc="The tensor with its axes reversed.")


@_method
def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
    from sprout import ops
    out = ops.sum(self, axis, keepdims, dtype=dtype)
    return out if initial is None else out + initial


@_method
def mean(self, axis=None, keep_dims=False):
    from sprout import ops
    return ops.mean(self, axis, keep_dims)


@_method
def max(self, axis=None, keepdims=False):
    from sprout import ops
    return ops.amax(self, axis, keepdims)


@_method
def min(self, axis=None, keepdims=False):
    from sprout import ops
    return ops.amin(self, axis, keepdims)


def register_hook(self, hook):
    """Registers ``hook(grad) -> new gradient or None`` on this tensor's gradient; returns a handle whose
    ``remove()`` takes it off (python/sprout/common/grad_hooks.py)."""
    from sprout.common import grad_hooks
    return grad_hooks.register_hook(self, hook)


Tensor.register_hook = register_hook


def _attach_functional_methods():
    """Adds the functions each ops.function module lists in TENSOR_METHODS as Tensor methods."""
    from sprout.ops import function

    def make(fn):
        def method(self, *args, **kwargs):
            return fn(self, *args, **kwargs)
        method.__name__ = fn.__name__
        method.__doc__ = f"Same as ``ops.{fn.__name__}(self, ...)``."
        return method

    for name in function.TENSOR_METHODS:
        if hasattr(Tensor, name):  # a method defined in C++ or above wins
            continue
        fn = getattr(function, name)
        # An op function binds like a def, without a wrapper's frame (Note [Functional ops without a
        # Python frame]).
        setattr(Tensor, name, fn if isinstance(fn, _C.OpFunction) else make(fn))


@_method
def __matmul__(self, other):
    from sprout import ops
    return ops.matmul(self, other)


@_method
def __rmatmul__(self, other):
    from sprout import ops
    return ops.matmul(other, self)


# &, | and ^ are bitwise (logical on Bool tensors); ~ is logical not for every dtype, as MindSpore's
# (~int_tensor is a Bool tensor; Tensor.bitwise_not flips bits). The same methods serve compiled code.
def _bitwise(name, reflected=False):
    def method(self, other):
        from sprout.ops.function import math_bitwise_func as bits
        fn = getattr(bits, name)
        return fn(other, self) if reflected else fn(self, other)
    return method


for _name, _op in (("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor")):
    setattr(Tensor, f"__{_name}__", _bitwise(_op))
    setattr(Tensor, f"__r{_name}__", _bitwise(_op, reflected=True))


@_method
def __invert__(self):
    from sprout import ops
    return ops.logical_not(self)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """MindSpore's `tensor`: Tensor(input_data, dtype, shape, init, const_arg) as a function, which compiled
    code may call as well (on a traced tensor it is a cast to dtype)."""
    from sprout._frontend.graph_tensor import GraphTensor
    if device not in (None, "CPU", "cpu"):
        raise ValueError(f"tensor: 'device' must be None or 'CPU' on this build, but got {device!r}")
    if isinstance(input_data, GraphTensor):
        return input_data if dtype is None else input_data.astype(dtype)
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg)


def from_numpy(array):
    """A Tensor sharing memory with a NumPy array (no copy): writes through either are seen by both. A
    read-only array is copied instead, so that writes to the tensor cannot reach it."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy: 'array' must be a numpy.ndarray, but got {type(array).__name__}")
    if array.dtype not in mstype._FROM_NUMPY:
        raise TypeError(f"from_numpy: NumPy dtype {array.dtype} is not supported")
    if not array.flags.writeable:  # a tensor is always writable: share only memory NumPy lets us write
        array = array.copy()
    return _C.from_numpy(array)


def from_dlpack(ext_tensor):
    """A Tensor sharing memory with any DLPack producer (PyTorch, JAX, NumPy, another Sprout tensor)."""
    if not hasattr(ext_tensor, "__dlpack__"):
        raise TypeError(f"from_dlpack: 'ext_tensor' must support the DLPack protocol (__dlpack__), "
                        f"but got {type(ext_tensor).__name__}")
    return _C.from_dlpack(ext_tensor)
