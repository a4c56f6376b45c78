"""The built-in Primitive classes, generated from the C++ op registry (``ops.Add``, ``ops.MatMul``...).

Each class takes its registry attributes as constructor arguments (defaults and types from the
registry); attributes marked "call" in the registry are given when calling, as MindSpore does
(``ops.ReduceSum(keep_dims=True)(x, axis)``, ``ops.Reshape()(x, shape)``).
"""
from sprout import _C
from sprout.common import dtype as mstype
from sprout.ops.primitive import Primitive


def _make_primitive_class(record):
    name = record["name"]
    init_attrs = [a for a in record["attrs"] if not a["call_arg"]]
    call_attrs = [a for a in record["attrs"] if a["call_arg"]]
    init_names = [a["name"] for a in init_attrs]

    def __init__(self, *args, **kwargs):
        if len(args) > len(init_names):
            raise TypeError(f"{name}() takes {len(init_names)} positional argument(s) but {len(args)} were given")
        given = dict(zip(init_names, args))
        for key, value in kwargs.items():
            if key not in init_names:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'; "
                                f"its attributes are: {', '.join(init_names) or 'none'}")
            if key in given:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            given[key] = value
        Primitive.__init__(self, name)
        self._c = _C.Primitive(name, given)
        self.attrs.update(self._c.attrs())
        self.init_attrs = dict(given)
        self.init_prim_io_names(record["inputs"], record["outputs"])

    def __call__(self, *args):
        return self._c(*args)

    def infer_shape(self, *shapes):
        return _infer(self, shapes, None)[0]

    def infer_dtype(self, *dtypes):
        return _infer(self, None, dtypes)[1]

    attr_doc = "\n".join(f"        {a['name']} ({a['kind']}): {a['doc']} Default: {a['default']!r}." for a in init_attrs)
    call_doc = "".join(f", {a['name']}" for a in call_attrs)
    doc = (f"{record['doc']}\n\n    Inputs: {', '.join(record['inputs']) or '(any number of tensors)'}{call_doc}\n"
           + (f"    Args:\n{attr_doc}\n" if attr_doc else ""))
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": "sprout.ops", "infer_shape": infer_shape,
                                     "infer_dtype": infer_dtype})


def _infer(prim, shapes, dtypes):
    """Runs the registry's infer function on shapes and/or dtypes (missing ones default to Float32 / ())."""
    n = len(shapes if shapes is not None else dtypes)
    specs = [(tuple(shapes[i]) if shapes is not None else (), dtypes[i] if dtypes is not None else _C.DType.Float32)
             for i in range(n)]
    out = prim._c.infer(specs)
    shapes_out = [s for s, _ in out]
    dtypes_out = [d for _, d in out]
    return (shapes_out[0] if len(out) == 1 else shapes_out), (dtypes_out[0] if len(out) == 1 else dtypes_out)


OP_RECORDS = _C.op_records()
__all__ = []
for _record in OP_RECORDS:
    globals()[_record["name"]] = _make_primitive_class(_record)
    __all__.append(_record["name"])


class OneHot(globals()["OneHot"]):
    """``ops.OneHot(axis=-1)(indices, depth, on_value, off_value)``: MindSpore's input order (the registry
    takes depth, an attribute, after the tensors)."""

    def __call__(self, indices, depth, on_value, off_value):
        return self._c(indices, on_value, off_value, depth)


def _none_keeps_input_size(cls):
    """An adaptive pooling primitive whose output_size may hold None (MindSpore's "keep the input's size"),
    which the registry attribute spells -1."""
    base_init = cls.__init__

    def __init__(self, output_size=(1,)):
        if isinstance(output_size, (tuple, list)):
            output_size = tuple(-1 if v is None else v for v in output_size)
        base_init(self, output_size)

    return type(cls.__name__, (cls,), {"__init__": __init__, "__doc__": cls.__doc__, "__module__": cls.__module__})


AdaptiveAvgPool2D = _none_keeps_input_size(globals()["AdaptiveAvgPool2D"])
AdaptiveMaxPool2D = _none_keeps_input_size(globals()["AdaptiveMaxPool2D"])


class MaxPoolWithArgmaxV2(globals()["MaxPoolWithArgmaxV2"]):
    """``ops.MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
    argmax_type=mindspore.int64)(x)``: MindSpore's signature, strides None meaning the kernel size. The
    registry op takes floating-point x; integer x pools by gathered windows (Note [Max pooling indices])."""

    def __init__(self, kernel_size=1, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        super().__init__(kernel_size, kernel_size if strides is None else strides, pads, dilation, ceil_mode,
                         argmax_type)

    def __call__(self, x):
        from sprout.ops.function import nn_conv_func  # imports this module
        if getattr(x, "dtype", None) in mstype.int_type + mstype.uint_type:
            a = self.attrs
            pair = lambda v: tuple(v) * 2 if len(v) == 1 else tuple(v[-2:])  # noqa: E731
            return nn_conv_func._max_pool2d_with_argmax(
                "MaxPoolWithArgmaxV2", x, pair(a["kernel_size"]), pair(a["strides"]), pair(a["pads"]),
                pair(a["dilation"]), a["ceil_mode"], a["argmax_type"])
        return self._c(x)


class SearchSorted(globals()["SearchSorted"]):
    """``ops.SearchSorted(dtype=mindspore.int64, right=False)(sorted_sequence, values, sorter=None)``: for each
    value, the index where inserting it keeps the innermost rows of sorted_sequence sorted (ops.searchsorted's
    checks and messages)."""

    def __init__(self, dtype=mstype.int64, right=False):
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"SearchSorted: 'dtype' must be mindspore.int32 or mindspore.int64, but got {dtype!r}")
        if not isinstance(right, bool):
            raise TypeError(f"SearchSorted: 'right' must be a bool, but got {type(right).__name__}")
        super().__init__(dtype, right)

    def __call__(self, sorted_sequence, values, sorter=None):
        from sprout.ops.function import array_search_func  # imports this module
        return array_search_func.searchsorted(sorted_sequence, values, out_int32=self.attrs["dtype"] == mstype.int32,
                                              right=self.attrs["right"], sorter=sorter)


class Polygamma(globals()["Polygamma"]):
    """``ops.Polygamma()(a, x)``: the a-th derivative of digamma at x, elementwise, `a` an int or a 0-d
    integer Tensor known when the call is made (the registry op takes it as its attribute n >= 1; a = 0 is
    Digamma)."""

    def __init__(self):
        super().__init__()

    def __call__(self, a, x):
        from sprout.ops.function import math_special_func  # imports this module
        return math_special_func.polygamma(a, x)


class NanToNum(globals()["NanToNum"]):
    """``ops.NanToNum(nan=0.0, posinf=None, neginf=None)(x)``: NaN, +inf and -inf replaced, None meaning the
    dtype's largest and lowest finite values (resolved at the call, where the dtype is known)."""

    def __init__(self, nan=0.0, posinf=None, neginf=None):
        from sprout.ops.function_primitives._attr_checks import check_float
        for arg, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
            if value is not None:
                check_float("NanToNum", arg, value)
        super().__init__()
        self.nan, self.posinf, self.neginf = 0.0 if nan is None else nan, posinf, neginf

    def __call__(self, x):
        from sprout.ops.function import math_elementwise_func  # imports this module
        return math_elementwise_func.nan_to_num(x, self.nan, self.posinf, self.neginf)


def _running_extreme(base, api):
    """The registry's Cummax / Cummin with MindSpore's check of 'axis' (an int, given to the constructor)."""

    class Running(base):
        def __init__(self, axis=0):
            if isinstance(axis, bool) or not isinstance(axis, int):
                raise TypeError(f"{api}: 'axis' must be an int, but got {type(axis).__name__}")
            super().__init__(axis)

    Running.__name__ = Running.__qualname__ = api
    Running.__doc__ = (f"``ops.{api}(axis)(x)``: (values, indices) of the running "
                       f"{'maximum' if api == 'Cummax' else 'minimum'} along `axis` "
                       f"({'Int64' if api == 'Cummax' else 'Int32'} indices, as MindSpore's primitive gives).")
    return Running


Cummax = _running_extreme(globals()["Cummax"], "Cummax")
Cummin = _running_extreme(globals()["Cummin"], "Cummin")


class Print(globals()["Print"]):
    """``ops.Print()(*args)``: prints its arguments one per line, tensors in their repr form
    (``Tensor(shape=[2], dtype=Float32, value= [...])``) as MindSpore's Print does, in program order in graph
    mode too (Note [Print] in src/ops/debug_print.cc). Non-tensor arguments become part of the text."""

    def __call__(self, *args):
        return _print(args, sep="\n", tensor_form="{!r}")


def _print(args, sep=" ", tensor_form="{}"):
    """The Print op writing args: tensors become its inputs, put in the text as str ("{}", what Python's
    print shows) or repr ("{!r}"); everything else is folded into the format now."""
    from sprout.common.tensor import Tensor
    parts, tensors = [], []
    for a in args:
        if isinstance(a, Tensor):
            parts.append(tensor_form)
            tensors.append(a)
        else:
            parts.append(str(a).replace("{", "{{").replace("}", "}}"))
    return _C.Primitive("Print", {"format": sep.replace("{", "{{").replace("}", "}}").join(parts)})(*tensors)


class _PrintedTensor:
    """A tensor in Print's format: str for "{}", repr for "{!r}"."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __format__(self, spec):
        return str(self.tensor)

    def __repr__(self):
        return repr(self.tensor)


def _print_sink(format, tensors):
    """Where Print's text goes: Python's print."""
    print(format.format(*[_PrintedTensor(t) for t in tensors]), flush=True)


_C.set_print_sink(_print_sink)


def _follow_global_seed(cls, first, second):
    """A random primitive created with both seeds 0 draws them, call by call, from the global generator
    (``ms.set_seed``), as MindSpore does: a seeded script is reproducible and successive calls differ."""
    base_call = cls.__call__

    def __call__(self, *args):
        if self.attrs.get(first, 0) or self.attrs.get(second, 0):
            return base_call(self, *args)
        from sprout.common import seed as _seed
        rng = _seed._global_rng()
        c = _C.Primitive(self.name, dict(self.init_attrs))
        c.set_attr(first, int(rng.integers(1, 2**31)))
        c.set_attr(second, int(rng.integers(1, 2**31)))
        return c(*args)

    cls.__call__ = __call__


for _record in OP_RECORDS:
    _names = {a["name"] for a in _record["attrs"]}
    for _pair in (("seed", "seed2"), ("seed", "offset"), ("Seed0", "Seed1")):
        if set(_pair) <= _names:
            _follow_global_seed(globals()[_record["name"]], *_pair)


class UniformInt(globals()["UniformInt"]):
    """``ops.UniformInt(seed, seed2)(shape, minval, maxval)``: Int32 samples uniform in [minval, maxval).

    As MindSpore, the bounds are 0-d Int32 tensors (Int64 too); Python ints are accepted and become such
    tensors. The registry op takes the bounds as its tensor inputs and `shape` as its call attribute.
    """

    def __call__(self, shape, minval, maxval):
        return super().__call__(_bound_tensor("UniformInt", "minval", minval),
                                _bound_tensor("UniformInt", "maxval", maxval), shape)


def _bound_tensor(api, arg, value):
    """An int bound as a 0-d Int64 tensor; tensors pass unchanged (the op's infer checks them)."""
    import numbers
    from sprout.common.tensor import Tensor
    from sprout.common import dtype as mstype
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{arg}' must be an int or a 0-d Int32/Int64 Tensor, but got "
                        f"{type(value).__name__} {value!r}")
    if not -2**63 <= int(value) < 2**63:
        raise ValueError(f"{api}: '{arg}' must bound Int32 values, but got {value}")
    return Tensor(int(value), mstype.int64)
