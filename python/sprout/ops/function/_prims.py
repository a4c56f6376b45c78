"""One shared C++ primitive per registry op, for the functional API's hot path."""
import functools
import inspect
import re
import sys

from sprout import _C


@functools.lru_cache(maxsize=None)
def prim(name, **attrs):
    """The C++ primitive `name` with `attrs` (cached: functional calls reuse it)."""
    return _C.Primitive(name, attrs)


_SIGNATURE = re.compile(r"(\w+)\(((?:\w+, )*\w+)\)$")


def op_function(op, signature, doc=None, with_keywords=None):
    """The function `signature` ("add(input, other)"), which runs primitive `op` on its arguments, as a
    C++ callable (Note [Functional ops without a Python frame] in src/python/op_function.cc). Named,
    documented and pickled as a function defined where this is called. A call with other keywords goes to
    the Python function `with_keywords` (ops.div's rounding_mode)."""
    match = _SIGNATURE.match(signature)
    if not match:
        raise ValueError(f"op_function: 'signature' must look like 'name(a, b)', but got {signature!r}")
    name, params = match[1], match[2].split(", ")
    fn = _C.op_function(prim(op), params, with_keywords)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = sys._getframe(1).f_globals["__name__"]
    fn.__doc__ = doc
    fn.__signature__ = inspect.Signature(
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in params])
    return fn
