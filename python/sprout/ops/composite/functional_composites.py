"""The functional-programming composites MindSpore optimizers and training loops are written with:
``ops.Partial`` (bind leading arguments), ``ops.MultitypeFuncGraph`` (one name, functions chosen by the
argument types), ``ops.HyperMap`` (apply over nested tuples/lists) and ``ops.Map`` (over flat ones).

They are plain Python in both modes. While a graph is being compiled they run as library code on the
staged values, and each user function they call goes through the stager (``call_function``): it is staged
from its source as if the compiled code called it directly, so the functions a MultitypeFuncGraph registers
may use everything graph mode allows, and a lambda defined in compiled code can be mapped too.
"""
import functools
import sys

from sprout.common.tensor import Tensor
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["Partial", "MultitypeFuncGraph", "HyperMap", "Map"]


def _stager():
    calls = sys.modules.get("sprout._frontend.calls")
    return calls.current_stager() if calls is not None else None


def call_function(fn, *args):
    """fn(*args); while a graph is being compiled, staged as if the compiled code made the call."""
    stager = _stager()
    if stager is None:
        return fn(*args)
    from sprout._frontend import calls
    return calls.call(stager, fn, list(args), {}, None)


def is_function(fn):
    """Callable, or a function defined inside compiled code (the stager's StagedClosure)."""
    if callable(fn):
        return True
    from sprout._frontend.context import StagedClosure
    return isinstance(fn, StagedClosure)


# --- Partial ----------------------------------------------------------------------------------------------

class _BoundFunction(functools.partial):
    """functools.partial whose call is staged while compiling (call_function)."""

    def __call__(self, *args, **kwargs):
        if kwargs or self.keywords:
            return self.func(*self.args, *args, **self.keywords, **kwargs)
        return call_function(self.func, *self.args, *args)


class Partial(Primitive):
    """``ops.Partial()(fn, *args)``: fn with its leading arguments bound (a functools.partial)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        if not args or not is_function(args[0]):
            raise TypeError(f"Partial: the first argument must be a function, but got "
                            f"{type(args[0]).__name__ if args else 'nothing'}")
        return _BoundFunction(args[0], *args[1:])


# --- MultitypeFuncGraph -----------------------------------------------------------------------------------

def _scalar_kind(x):
    """'bool', 'int', 'float' for a Python number or a number known only when the graph runs, else None."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    return getattr(x, "_scalar_kind", None) if isinstance(x, Tensor) else None


def _is_tensor(x):
    return isinstance(x, Tensor) and _scalar_kind(x) is None


def _is_function_value(x):
    return not isinstance(x, (Tensor, type)) and is_function(x)


def _tensor_of(dtype_name):
    def match(x):
        return _is_tensor(x) and str(x.dtype).lower() == dtype_name
    return match


# MindSpore's type names (mindspore.common.dtype's str_to_type): each a test of a Python value. Number takes
# bools too, as MindSpore's Bool is a Number.
_TYPE_TESTS = {
    "Tensor": _is_tensor,
    "Number": lambda x: _scalar_kind(x) is not None,
    "Int": lambda x: _scalar_kind(x) == "int",
    "Float": lambda x: _scalar_kind(x) == "float",
    "Bool": lambda x: _scalar_kind(x) == "bool",
    "String": lambda x: isinstance(x, str),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dictionary": lambda x: isinstance(x, dict),
    "None": lambda x: x is None,
    "Function": _is_function_value,
    "Slice": lambda x: isinstance(x, slice),
    "Ellipsis": lambda x: x is Ellipsis,
}


def _type_test(api, name):
    if not isinstance(name, str):
        raise TypeError(f"{api}: register takes type names (str) such as 'Tensor', 'Number', 'Tuple', but got "
                        f"{type(name).__name__} {name!r}")
    if name in _TYPE_TESTS:
        return _TYPE_TESTS[name]
    if name.startswith("Tensor[") and name.endswith("]"):  # 'Tensor[Float32]': a tensor of that dtype
        return _tensor_of(name[len("Tensor["):-1].lower())
    raise ValueError(f"{api}: unknown type name {name!r}; expected one of {', '.join(_TYPE_TESTS)} or "
                     f"'Tensor[<dtype>]'")


def _describe(x):
    if _is_tensor(x):
        return f"Tensor[{x.dtype}]"
    kind = _scalar_kind(x)
    return kind.capitalize() if kind else type(x).__name__


class MultitypeFuncGraph:
    """``MultitypeFuncGraph(name, read_value=False)``: a function overloaded on its arguments' types. Each
    ``@f.register("Tensor", "Number")`` adds an overload; a call runs the first one registered whose type
    names match all the arguments. Type names: Tensor (also 'Tensor[Float32]' ...), Number, Int, Float, Bool,
    String, Tuple, List, Dictionary, None, Function, Slice, Ellipsis."""

    def __init__(self, name, read_value=False):
        if not isinstance(name, str):
            raise TypeError(f"MultitypeFuncGraph: 'name' must be a str, but got {type(name).__name__}")
        if not isinstance(read_value, bool):
            raise TypeError(f"MultitypeFuncGraph: 'read_value' must be a bool, but got {type(read_value).__name__}")
        self.name = name
        self.read_value = read_value
        self.entries = []  # (type names, tests, fn), in registration order

    def register(self, *type_names):
        """A decorator adding `fn` as the overload for arguments of these type names."""
        api = f"MultitypeFuncGraph('{self.name}')"
        tests = tuple(_type_test(api, n) for n in type_names)

        def deco(fn):
            if not is_function(fn):
                raise TypeError(f"{api}: register decorates a function, but got {type(fn).__name__}")
            self.entries.append((tuple(type_names), tests, fn))
            return fn
        return deco

    def __call__(self, *args):
        for names, tests, fn in self.entries:
            if len(tests) == len(args) and all(test(a) for test, a in zip(tests, args)):
                return call_function(fn, *args)
        registered = "; ".join("(" + ", ".join(names) + ")" for names, _, _ in self.entries) or "none"
        raise ValueError(f"MultitypeFuncGraph('{self.name}'): no overload for arguments "
                         f"({', '.join(_describe(a) for a in args)}); registered: {registered}")

    def __repr__(self):
        return f"MultitypeFuncGraph('{self.name}')"


# --- HyperMap and Map -------------------------------------------------------------------------------------

def _check_map_args(api, ops, reverse):
    if ops is not None and not is_function(ops):
        raise TypeError(f"{api}: 'ops' must be a MultitypeFuncGraph, a function or None, but got "
                        f"{type(ops).__name__}")
    if not isinstance(reverse, bool):
        raise TypeError(f"{api}: 'reverse' must be a bool, but got {type(reverse).__name__}")


def _split(api, ops, args):
    if ops is not None:
        return ops, args
    if not args or not is_function(args[0]):
        raise TypeError(f"{api}: without 'ops', the first input must be the function to apply, but got "
                        f"{type(args[0]).__name__ if args else 'nothing'}")
    return args[0], args[1:]


def _rows(api, sequences):
    lengths = {len(s) for s in sequences}
    if len(lengths) != 1:
        raise ValueError(f"{api}: the sequences must have the same length, but got lengths "
                         f"{[len(s) for s in sequences]}")
    return list(zip(*sequences))


def _apply_rows(fn, rows, reverse):
    """fn over the rows, called last row first when `reverse` (the order of any side effects), in order."""
    order = range(len(rows) - 1, -1, -1) if reverse else range(len(rows))
    out = [None] * len(rows)
    for i in order:
        out[i] = fn(*rows[i])
    return tuple(out)


class HyperMap:
    """``HyperMap(ops=None, reverse=False)(*args)``: ops applied to the leaves of nested tuples/lists of the
    same structure, ``ops(args[0][i]..., args[1][i]...)`` recursively; the result has the nesting (as
    tuples). Without `ops`, the first input is the function."""

    def __init__(self, ops=None, reverse=False):
        _check_map_args("HyperMap", ops, reverse)
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        fn, args = _split("HyperMap", self.ops, args)
        if not args:
            raise TypeError("HyperMap: needs at least one input to map over")
        return self._map(fn, args)

    def _map(self, fn, args):
        if not isinstance(args[0], (tuple, list)):  # a leaf
            return call_function(fn, *args)
        if not all(isinstance(a, (tuple, list)) for a in args):
            raise TypeError(f"HyperMap: the inputs must have the same nesting, but got "
                            f"{', '.join(type(a).__name__ for a in args)} at the same place")
        return _apply_rows(lambda *row: self._map(fn, row), _rows("HyperMap", args), self.reverse)


class Map:
    """``Map(ops=None, reverse=False)(*args)``: ops applied along equally long sequences,
    ``(ops(args[0][0], args[1][0], ...), ops(args[0][1], ...), ...)``; no recursion into nested ones. Without
    `ops`, the first input is the function."""

    def __init__(self, ops=None, reverse=False):
        _check_map_args("Map", ops, reverse)
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        fn, args = _split("Map", self.ops, args)
        if not args or not all(isinstance(a, (tuple, list)) for a in args):
            raise TypeError(f"Map: the inputs must be tuples or lists, but got "
                            f"{', '.join(type(a).__name__ for a in args) or 'nothing'}")
        return _apply_rows(lambda *row: call_function(fn, *row), _rows("Map", args), self.reverse)
