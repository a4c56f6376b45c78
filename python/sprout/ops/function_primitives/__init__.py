"""Primitive classes carried out by functional ops (``ops.BiasAdd()``, ``ops.ArgMaxWithValue()`` ...).

The C++ registry gives most primitives (operations.py). MindSpore's others are thin classes over a
functional op: ``@prim_attr_register`` records the constructor's arguments as attributes, ``__call__``
passes them to the function, which runs eagerly or emits graph nodes like any library code. One module
per family (``*_prims.py``), each listing its classes in ``__all__``; every such module here is collected.
"""
import importlib
import pkgutil

__all__ = []
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name.endswith("_prims"):
        _module = importlib.import_module(f"{__name__}.{_info.name}")
        for _name in _module.__all__:
            globals()[_name] = getattr(_module, _name)
        __all__ += _module.__all__
