"""Data types, with MindSpore's names: ``ms.float32``, ``ms.int64``, ``ms.bool_`` ...

Each dtype is a member of the C++ enum ``sprout._C.DType``, so a tensor's ``dtype`` is the very
object ``ms.float32`` (compare with ``==`` or ``is``). They print as MindSpore does: ``Float32``.
"""
import builtins

import numpy as np

from sprout._C import DType as Type

bool_ = Type.Bool
int8 = Type.Int8
int16 = Type.Int16
int32 = Type.Int32
int64 = Type.Int64
uint8 = Type.UInt8
uint16 = Type.UInt16
uint32 = Type.UInt32
uint64 = Type.UInt64
float16 = Type.Float16
bfloat16 = Type.BFloat16
float32 = Type.Float32
float64 = Type.Float64

# MindSpore's aliases.
half = float16
single = float32
double = float64
short = int16
intc = int32
intp = int64
byte = int8
ubyte = uint8
ushort = uint16
uintc = uint32
uintp = uint64
float_ = float32
int_ = int64
# ms.bool (MindSpore 2.x). It shadows the builtin in this module: code here spells that builtins.bool.
globals()["bool"] = bool_

Type.__repr__ = lambda self: self.name
Type.__str__ = lambda self: self.name

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, bfloat16, float32, float64)
number_type = int_type + uint_type + float_type
all_types = (bool_,) + number_type

_TO_NUMPY = {
    bool_: np.bool_, int8: np.int8, int16: np.int16, int32: np.int32, int64: np.int64,
    uint8: np.uint8, uint16: np.uint16, uint32: np.uint32, uint64: np.uint64, float16: np.float16,
    float32: np.float32, float64: np.float64,
}
_FROM_NUMPY = {np.dtype(v): k for k, v in _TO_NUMPY.items()}


# A dtype by name, as Tensor.astype("float32") takes it (MindSpore's lower-case names and aliases, and "bool").
_BY_NAME = {name: t for name, t in globals().items() if isinstance(t, Type) and not name.startswith("_")}
_BY_NAME["bool"] = bool_


def _dtype_arg(api, arg, value):
    """`value` as a sprout dtype: a dtype, a NumPy dtype or scalar type (np.float32), or a dtype's name
    ('float32'; MindSpore's 'Float32' too). Anything else is a TypeError naming `api` and `arg`."""
    if isinstance(value, Type):
        return value
    if isinstance(value, str):
        if value.lower() in _BY_NAME:
            return _BY_NAME[value.lower()]
        raise TypeError(f"{api}: '{arg}' must be a mindspore dtype or its name (such as 'float32'), but got "
                        f"{value!r}")
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        if np.dtype(value) in _FROM_NUMPY:
            return _FROM_NUMPY[np.dtype(value)]
        raise TypeError(f"{api}: '{arg}' must be a dtype sprout supports, but got NumPy dtype {np.dtype(value)}")
    raise TypeError(f"{api}: '{arg}' must be a mindspore dtype such as ms.float32, a NumPy dtype or a dtype name, "
                    f"but got {type(value).__name__} {value!r}")


def dtype_to_nptype(type_):
    """The NumPy scalar type of a Sprout dtype (bfloat16 has none: NumPy computes it as float32)."""
    if type_ == bfloat16:
        return np.float32
    try:
        return _TO_NUMPY[type_]
    except (KeyError, TypeError):
        raise TypeError(f"dtype_to_nptype: 'type_' must be a sprout dtype, but got {type_!r}") from None


def nptype_to_dtype(nptype):
    """The Sprout dtype of a NumPy dtype or scalar type; TypeError for types Sprout does not hold."""
    try:
        return _FROM_NUMPY[np.dtype(nptype)]
    except (KeyError, TypeError):
        raise TypeError(f"nptype_to_dtype: NumPy dtype {nptype!r} has no Sprout equivalent; supported: "
                        + ", ".join(str(np.dtype(t)) for t in _TO_NUMPY.values())) from None


def pytype_to_dtype(obj):
    """The dtype of a Python type: bool -> Bool, int -> Int64, float -> Float32."""
    if isinstance(obj, Type):
        return obj
    if obj is builtins.bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float32
    return nptype_to_dtype(obj)


def dtype_to_pytype(type_):
    """The Python type a scalar of this dtype converts to."""
    if type_ == bool_:
        return builtins.bool
    if type_ in int_type or type_ in uint_type:
        return int
    if type_ in float_type:
        return float
    raise TypeError(f"dtype_to_pytype: 'type_' must be a sprout dtype, but got {type_!r}")


def get_py_obj_dtype(obj):
    """The dtype Sprout gives a Python object: Tensors keep theirs, Python numbers get the defaults."""
    if hasattr(obj, "dtype") and isinstance(getattr(obj, "dtype"), Type):
        return obj.dtype
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


def is_floating_type(type_):
    return type_ in float_type


__all__ = ["Type", "bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "bfloat16", "float32", "float64", "half", "single", "double", "short", "intc", "intp", "byte", "ubyte",
           "ushort", "uintc", "uintp", "float_", "int_",
           "int_type", "uint_type", "float_type", "number_type", "all_types", "dtype_to_nptype",
           "nptype_to_dtype", "pytype_to_dtype", "dtype_to_pytype", "get_py_obj_dtype", "is_floating_type"]
