"""Primitive: the Python face of an operator (``mindspore.ops.Primitive``).

Built-in primitives (``ops.Add()``, ``ops.MatMul(transpose_b=True)``) are generated from the C++
registry in operations.py and call straight into C++. User-defined ones subclass PrimitiveWithInfer
(shape/dtype inference in Python, plus a ``compute`` method on NumPy arrays) or use ``ops.Custom``.
"""
import functools
import inspect

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.parallel import operator_sharding


class Primitive:
    """Base class of all primitives: a name and attributes (``attrs``), readable as ``prim.attr_name``."""

    def __init__(self, name):
        self.name = name
        self.attrs = {}
        self.init_attrs = {}
        self.instance_name = ""
        self._c = None

    def add_prim_attr(self, name, value):
        """Adds or replaces an attribute; registry attributes also update the C++ primitive."""
        self.__dict__.setdefault("attrs", {})[name] = value
        c = self.__dict__.get("_c")
        if c is not None and name in c.attrs():
            c.set_attr(name, value)
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Records the names of the inputs and outputs (MindSpore keeps them as attributes)."""
        self.add_prim_attr("input_names", list(inputs))
        self.add_prim_attr("output_names", list(outputs))

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def __getattr__(self, item):
        attrs = self.__dict__.get("attrs", {})
        if item in attrs:
            return attrs[item]
        raise AttributeError(f"'{type(self).__name__}' primitive has no attribute '{item}'")

    def __call__(self, *args):
        c = self.__dict__.get("_c")
        if c is None:
            raise RuntimeError(f"{self.name}: this primitive has no kernel; define `compute` on a "
                               f"PrimitiveWithInfer subclass, or use ops.Custom")
        return c(*args)

    def shard(self, in_strategy=None, out_strategy=None):
        """How many parts to split each axis of each tensor input into, one tuple per input, under
        SEMI_AUTO_PARALLEL (Note [Sharded primitives]); ignored in the other parallel modes. Returns self."""
        if self.__dict__.get("_c") is None or isinstance(self, PrimitiveWithInfer):
            raise ValueError(f"{self.name}.shard: only built-in primitives can be sharded")
        self.add_prim_attr("in_strategy", operator_sharding.check_strategy(self, in_strategy, out_strategy))
        # The class of every instance keeps its plain __call__, the fast path of eager dispatch.
        self.__class__ = _sharded_class(type(self))
        return self

    def __repr__(self):
        return f"Prim[{self.name}]"

    def __deepcopy__(self, memo):
        # Primitives are descriptions of an op, shared safely between copies of a network.
        return self


_SHARDED_CLASSES = {}


def _sharded_class(cls):
    """cls with a __call__ that splits the call across the ranks under SEMI_AUTO_PARALLEL."""
    if getattr(cls, "_sharded", False):
        return cls
    sharded = _SHARDED_CLASSES.get(cls)
    if sharded is None:
        base_call = cls.__call__

        def __call__(self, *args):
            if operator_sharding.active():
                return operator_sharding.sharded_call(self, args)
            return base_call(self, *args)

        sharded = _SHARDED_CLASSES[cls] = type(cls.__name__, (cls,), {"__call__": __call__, "_sharded": True,
                                                                      "__module__": cls.__module__})
    return sharded


def prim_attr_register(fn):
    """Decorator for a primitive's ``__init__``: records every argument as an attribute."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        name = self.__class__.__name__
        Primitive.__init__(self, name)
        if _C_has_op(name):
            self._c = _C.Primitive(name)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for key, value in list(bound.arguments.items())[1:]:
            if key in ("args", "kwargs"):
                continue
            self.add_prim_attr(key, value)
            self.init_attrs[key] = value
        fn(self, *args, **kwargs)

    return wrapper


_REGISTERED = None


def _C_has_op(name):
    global _REGISTERED
    if _REGISTERED is None:
        _REGISTERED = {r["name"] for r in _C.op_records()}
    return name in _REGISTERED


def _as_numpy(x):
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


class PrimitiveWithInfer(Primitive):
    """A primitive whose shape and dtype inference are Python methods.

    Subclasses define ``infer_shape(*input_shapes)`` and ``infer_dtype(*input_dtypes)`` (one argument
    per input, as in MindSpore) and either share their name with a built-in op (its kernel runs) or
    define ``compute(*arrays)`` taking and returning NumPy arrays. The result is checked against the
    inferred shape and dtype.
    """

    def infer_shape(self, *args):
        return args[0] if args else None

    def infer_dtype(self, *args):
        return args[0] if args else None

    def infer_value(self, *args):
        return None

    def __call__(self, *args):
        tensors = [a if isinstance(a, Tensor) else Tensor(a) for a in args]
        shape = self.infer_shape(*[t.shape for t in tensors])
        dtype = self.infer_dtype(*[t.dtype for t in tensors])
        compute = getattr(type(self), "compute", None)
        if compute is not None:
            result = compute(self, *[t.asnumpy() for t in tensors])
            out = Tensor(result, dtype=dtype if isinstance(dtype, mstype.Type) else None)
        elif self.__dict__.get("_c") is not None:
            out = self._c(*tensors)
        else:
            raise RuntimeError(f"{self.name}: define a `compute(self, *arrays)` method returning a NumPy array, "
                               f"or name the class after a built-in op")
        if isinstance(out, Tensor):
            if shape is not None and tuple(out.shape) != tuple(shape):
                raise ValueError(f"{self.name}: infer_shape returned {tuple(shape)} but the computed output has "
                                 f"shape {out.shape}")
            if isinstance(dtype, mstype.Type) and out.dtype != dtype:
                raise TypeError(f"{self.name}: infer_dtype returned {dtype} but the computed output is {out.dtype}")
        return out


class PrimitiveWithCheck(PrimitiveWithInfer):
    """A primitive with ``check_shape``/``check_dtype`` validators instead of inference."""

    def check_shape(self, *args):
        return None

    def check_dtype(self, *args):
        return None

    def infer_shape(self, *args):
        self.check_shape(*args)
        return None

    def infer_dtype(self, *args):
        self.check_dtype(*args)
        return None


class Custom(Primitive):
    """``ops.Custom(func, out_shape, out_dtype, func_type="pyfunc")``: an op from a Python function.

    `func` takes and returns NumPy arrays. `out_shape` and `out_dtype` are either values or callables
    of the input shapes / dtypes (MindSpore's convention); the output is checked against them.
    """

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        super().__init__("Custom")
        if func_type != "pyfunc":
            raise ValueError(f"Custom: 'func_type' must be 'pyfunc' on the CPU build, but got {func_type!r}")
        if not callable(func):
            raise TypeError(f"Custom: 'func' must be callable, but got {type(func).__name__}")
        self.func = func
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.func_type = func_type
        self.bprop = bprop
        self.add_prim_attr("func_type", func_type)

    def __call__(self, *args):
        tensors = [a if isinstance(a, Tensor) else Tensor(a) for a in args]
        shape = self.out_shape(*[t.shape for t in tensors]) if callable(self.out_shape) else self.out_shape
        dtype = self.out_dtype(*[t.dtype for t in tensors]) if callable(self.out_dtype) else self.out_dtype
        result = np.asarray(self.func(*[t.asnumpy() for t in tensors]))
        if dtype is not None:
            result = result.astype(mstype.dtype_to_nptype(dtype), copy=False)
        if shape is not None and tuple(result.shape) != tuple(shape):
            raise ValueError(f"Custom({getattr(self.func, '__name__', 'func')}): out_shape says {tuple(shape)} but "
                             f"the function returned shape {result.shape}")
        return Tensor(result, dtype=dtype)
