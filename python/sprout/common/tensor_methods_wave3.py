"""MindSpore 2.x Tensor methods met in MindSpore's own examples: add with alpha, min/max/median with the
keyword spellings of 2.10 (dim, keepdim: the (values, indices) overload), argmax_with_value /
argmin_with_value, assign_value and the `data` property, the raw bytes of a tensor and back
(get_bytes, convert_bytes_to_tensor), and the device and memory queries that have one answer on a CPU
(move_to, is_pinned, has_init, flush_from_cache, value, set_const_arg).

Random methods taking ``generator=`` draw from that ms.Generator (common/generator.py).
Attached by tensor_methods_wave2.attach(); min, max, median, add and the random methods replace the earlier
definitions, which the new ones call.
"""
import functools
import inspect
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.tensor_inplace import _check_bool, _check_tensor, _is_graph_tensor


def _ops():
    from sprout import ops
    return ops


def _prim(name, **attrs):
    from sprout.ops.function._prims import prim
    return prim(name, **attrs)


# --- add(other, *, alpha) --------------------------------------------------------------------------------

def _is_int_operand(value):
    if isinstance(value, Tensor):
        return value.dtype in mstype.int_type or value.dtype in mstype.uint_type or value.dtype == mstype.bool_
    return isinstance(value, numbers.Integral)


def _add_with_keywords(input, other, **kwargs):
    """input + alpha * other (Tensor.add's keyword form; the plain call is the Add primitive)."""
    unknown = sorted(set(kwargs) - {"alpha"})
    if unknown:
        raise TypeError(f"Tensor.add() got an unexpected keyword argument {unknown[0]!r}")
    alpha = kwargs.get("alpha", 1)
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Number):
        raise TypeError(f"Tensor.add: 'alpha' must be a number, but got {type(alpha).__name__}")
    if alpha == 1 and isinstance(alpha, numbers.Integral):
        return _prim("Add")(input, other)
    if isinstance(alpha, float) and _is_int_operand(input) and _is_int_operand(other):
        # MindSpore's rule: a float alpha would silently truncate an integer sum.
        raise TypeError(f"Tensor.add: a float 'alpha' needs a floating-point input or other, but both are integers "
                        f"(alpha={alpha})")
    return _prim("Add")(input, _prim("Mul")(other, alpha) if isinstance(other, Tensor) else other * alpha)


# A C++ callable as ops.add, so x.add(y) stays as cheap as before; only a call with alpha runs Python.
_add = _C.op_function(_prim("Add"), ["input", "other"], _add_with_keywords)
_add.__name__ = _add.__qualname__ = "add"
_add.__doc__ = "self + alpha * other, with broadcasting and implicit type promotion (alpha: keyword, default 1)."


# --- min / max / median with MindSpore 2.10's overloads ------------------------------------------------------

def _is_dim(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _extreme(name, base):
    """Tensor.min / Tensor.max: ``()`` the extreme of all elements; ``(dim, keepdim=False)`` or ``dim=`` the pair
    (values, Int64 indices) along dim; ``(axis=None, keepdims=False, *, initial, where, return_indices)`` the
    NumPy-style reduction of the earlier definition (`base`), with indices if asked."""
    api = f"Tensor.{name}"
    reduce_with_index = getattr(_ops(), name)  # ops.min / ops.max: (values, indices)

    def method(self, *args, **kwargs):
        if "dim" in kwargs or "keepdim" in kwargs or (args and _is_dim(args[0]) and not kwargs.keys() & {
                "axis", "keepdims", "initial", "where", "return_indices"}):
            return _by_dim(self, args, kwargs)
        return _numpy_style(self, *args, **kwargs)

    def _by_dim(self, args, kwargs):
        names = ("dim", "keepdim")
        if len(args) > 2:
            raise TypeError(f"{api}() takes at most 2 positional arguments (dim, keepdim), but got {len(args)}")
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{api}() got an unexpected keyword argument {key!r} with 'dim'")
            if key in bound:
                raise TypeError(f"{api}() got multiple values for argument {key!r}")
            bound[key] = value
        if "dim" not in bound:
            raise TypeError(f"{api}: 'keepdim' needs 'dim'")
        dim, keepdim = bound["dim"], bound.get("keepdim", False)
        if not _is_dim(dim):
            raise TypeError(f"{api}: 'dim' must be an int, but got {type(dim).__name__}")
        _check_bool(api, "keepdim", keepdim)
        return reduce_with_index(self, int(dim), keepdim)

    def _numpy_style(self, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
        _check_bool(api, "keepdims", keepdims)
        _check_bool(api, "return_indices", return_indices)
        if return_indices and isinstance(axis, (tuple, list)):
            raise ValueError(f"{api}: 'return_indices' needs 'axis' None or an int, but got axis={axis!r}")
        if where is not None and initial is None:
            raise ValueError(f"{api}: 'where' needs 'initial' (the value of an empty selection)")
        if not return_indices and initial is None and where is None:
            return base(self, axis, keepdims)
        values, indices = reduce_with_index(self, axis, keepdims, initial=initial, where=where)
        if not return_indices:
            return values
        if axis is None:
            # As MindSpore documents: with axis None the index is fixed to 0.
            return values, _ops().zeros(values.shape, mstype.int64)
        return values, indices

    method.__name__ = method.__qualname__ = name
    method.__doc__ = _extreme.__doc__.replace("Tensor.min / Tensor.max", api)
    return method


def _median(base):
    def median(self, *args, **kwargs):
        """(values, Int64 indices) of the median along an axis (default -1): ``median(axis=-1, keepdims=False)`` or
        MindSpore 2.10's ``median(dim=-1, keepdim=False)``."""
        for new, old in (("dim", "axis"), ("keepdim", "keepdims")):
            if new in kwargs:
                if old in kwargs:
                    raise TypeError(f"Tensor.median: give '{new}' or '{old}', not both")
                kwargs[old] = kwargs.pop(new)
        return base(self, *args, **kwargs)
    return median


def _with_value(api, reduce_with_index):
    def method(self, axis=0, keep_dims=False):
        _check_bool(api, "keep_dims", keep_dims)
        if axis is None:
            # As MindSpore: the extreme of all elements, a 0-d tensor whatever keep_dims, and the index 0.
            values = reduce_with_index(self.reshape(-1), 0, False)[0]
            return values, _ops().zeros((), mstype.int64)
        if not _is_dim(axis):
            raise TypeError(f"{api}: 'axis' must be an int or None, but got {type(axis).__name__}")
        return reduce_with_index(self, int(axis), keep_dims)
    return method


def argmax_with_value(self, axis=0, keep_dims=False):
    """(the maximum values, their Int64 indices) along `axis`; axis None: over all elements, index 0."""
    return _with_value("Tensor.argmax_with_value", _ops().max)(self, axis, keep_dims)


def argmin_with_value(self, axis=0, keep_dims=False):
    """(the minimum values, their Int64 indices) along `axis`; axis None: over all elements, index 0."""
    return _with_value("Tensor.argmin_with_value", _ops().min)(self, axis, keep_dims)


# --- assignment and aliases of the tensor itself --------------------------------------------------------------

def assign_value(self, value):
    """Makes the tensor hold `value` (a Tensor of the same shape), taking its dtype too; returns the tensor.

    MindSpore also lets the shape change; a Sprout tensor's shape is fixed once made (other views and saved
    gradient inputs rely on it), so a value of another shape is refused."""
    api = "Tensor.assign_value"
    _check_tensor(api, "value", value)
    if _is_graph_tensor(self):
        raise RuntimeError(f"{api}: cannot rebind a tensor while compiling (ms.jit, GRAPH_MODE); use ops.assign")
    if tuple(value.shape) != tuple(self.shape):
        raise ValueError(f"{api}: 'value' must have the tensor's shape {tuple(self.shape)} (Sprout does not change a "
                         f"tensor's shape in place), but got shape {tuple(value.shape)}")
    if value.dtype != self.dtype:
        self.set_dtype(value.dtype)
    self._assign_value(value)
    return self


def _data(self):
    return self


def _set_data(self, value):
    assign_value(self, value if isinstance(value, Tensor) else Tensor(value))


def value(self):
    """The tensor itself (MindSpore's value of a Tensor or Parameter)."""
    return self


# --- bytes -------------------------------------------------------------------------------------------------

def get_bytes(self):
    """The tensor's elements in row-major order as bytes (little-endian, the dtype's own encoding)."""
    if _is_graph_tensor(self):
        raise RuntimeError("Tensor.get_bytes: needs the tensor's value, which a value being compiled does not have")
    array = self.asnumpy()
    if self.dtype == mstype.bfloat16:
        # asnumpy widens bfloat16 to float32 exactly, so its upper 16 bits are the bfloat16 encoding.
        array = (np.ascontiguousarray(array).view(np.uint32) >> 16).astype(np.uint16)
    return np.ascontiguousarray(array).tobytes()


def convert_bytes_to_tensor(bytes_data, shape, dtype):
    """A tensor of `shape` and `dtype` whose elements are `bytes_data` (as get_bytes gives them)."""
    api = "Tensor.convert_bytes_to_tensor"
    if not isinstance(bytes_data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{api}: 'bytes_data' must be bytes, but got {type(bytes_data).__name__}")
    if not isinstance(shape, (tuple, list)) or not all(_is_dim(d) and d >= 0 for d in shape):
        raise TypeError(f"{api}: 'shape' must be a tuple of non-negative ints, but got {shape!r}")
    dtype = mstype._dtype_arg(api, "dtype", dtype)
    np_dtype = np.uint16 if dtype == mstype.bfloat16 else np.dtype(mstype.dtype_to_nptype(dtype))
    count = int(np.prod(shape, dtype=np.int64))
    expected = count * np.dtype(np_dtype).itemsize
    if len(bytes_data) != expected:
        raise ValueError(f"{api}: shape {tuple(shape)} of {dtype} needs {expected} bytes, but got {len(bytes_data)}")
    array = np.frombuffer(bytes(bytes_data), np_dtype).reshape(tuple(shape))
    if dtype == mstype.bfloat16:
        return Tensor((array.astype(np.uint32) << 16).view(np.float32), mstype.float32).astype(mstype.bfloat16)
    return Tensor(array.copy(), dtype)


# --- device and memory queries, one answer on a CPU ----------------------------------------------------------

_DEVICES = ("Ascend", "GPU", "CPU")


def move_to(self, to, blocking=True):
    """A copy of the tensor on device `to`: "CPU" (Sprout's only device); "Ascend" and "GPU" are refused."""
    api = "Tensor.move_to"
    if to not in _DEVICES:
        raise ValueError(f"{api}: 'to' must be one of {list(_DEVICES)}, but got {to!r}")
    _check_bool(api, "blocking", blocking)
    if to != "CPU":
        raise RuntimeError(f"{api}: 'to' must be the device target, CPU (Sprout runs on the CPU), but got {to!r}")
    return self.copy()


def is_pinned(self):
    """False: Sprout's tensors live in ordinary host memory (pinned memory is for copies to an accelerator)."""
    return False


def _has_init(self):
    """False: Sprout computes a tensor's data when the tensor is made, never later (MindSpore's lazy init)."""
    return False


def flush_from_cache(self):
    """Nothing to do: Sprout has no device cache of host tensors (MindSpore's cache-enabled parameters); None."""
    return None


def set_const_arg(self, const_arg=True):
    """Marks the tensor as a constant of compiled functions; returns it. Sprout compiles one graph per dtype and
    shape, never per value, so the mark changes nothing it computes."""
    _check_bool("Tensor.set_const_arg", "const_arg", const_arg)
    return self


# --- random methods with generator= ---------------------------------------------------------------------------

_RANDOM_METHODS = ("uniform_", "normal_", "exponential_", "bernoulli_", "random_", "bernoulli", "uniform")


def _drawing_from_generator(name, base):
    """`base` (which draws from the default generator) run with its draws taken from `generator`."""
    api = f"Tensor.{name}"
    params = list(inspect.signature(base).parameters.values())
    positional = [p.name for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    # Tensor.uniform(from_, to, generator) takes it by position too: its index among the arguments after self.
    at = positional.index("generator") - 1 if "generator" in positional else None

    @functools.wraps(base)
    def method(self, *args, **kwargs):
        generator = kwargs.pop("generator", None)
        if at is not None and len(args) > at:
            args, generator = args[:at] + args[at + 1:], args[at]
        from sprout.common.generator import drawing_from
        with drawing_from(api, generator):
            return base(self, *args, **kwargs)
    return method


def attach():
    """Adds the methods above to Tensor; add, min, max, median and the random methods replace (and call) the
    earlier definitions."""
    def add(name, fn):
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)

    for fn in (argmax_with_value, argmin_with_value, assign_value, value, get_bytes, move_to, is_pinned,
               flush_from_cache, set_const_arg):
        add(fn.__name__, fn)
    add("convert_bytes_to_tensor", staticmethod(convert_bytes_to_tensor))
    add("data", property(_data, _set_data, doc="The tensor itself; assigning to it is assign_value."))
    add("has_init", property(_has_init, doc=_has_init.__doc__))
    if getattr(Tensor.add, "__name__", None) == "add" and Tensor.add is not _add:
        Tensor.add = _add
    for name in ("min", "max"):
        base = getattr(Tensor, name)
        if not getattr(base, "_mindspore_overloads", False):
            method = _extreme(name, base)
            method._mindspore_overloads = True
            setattr(Tensor, name, method)
    if not getattr(Tensor.median, "_mindspore_overloads", False):
        median = _median(Tensor.median)
        median._mindspore_overloads = True
        Tensor.median = median
    for name in _RANDOM_METHODS:
        base = getattr(Tensor, name, None)
        if base is not None and not getattr(base, "_takes_generators", False):
            method = _drawing_from_generator(name, base)
            method._takes_generators = True
            setattr(Tensor, name, method)


__all__ = ["attach"]
