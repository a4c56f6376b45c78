"""One shared C++ primitive per registry op, for the functional API's hot path."""
import functools

from sprout import _C


@functools.lru_cache(maxsize=None)
def prim(name, **attrs):
    """The C++ primitive `name` with `attrs` (cached: functional calls reuse it)."""
    return _C.Primitive(name, attrs)
