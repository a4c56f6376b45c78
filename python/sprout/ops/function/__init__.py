"""The functional API (``ops.add``, ``ops.matmul`` ...), MindSpore 2.x names and arguments.

One module per op family (``*_func.py``); each lists its public functions in ``__all__`` and the ones
that are also Tensor methods in ``TENSOR_METHODS``. Every such module here is collected.
"""
import importlib
import pkgutil

__all__ = []
TENSOR_METHODS = []
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name.endswith("_func"):
        _module = importlib.import_module(f"{__name__}.{_info.name}")
        for _name in _module.__all__:
            globals()[_name] = getattr(_module, _name)
        __all__ += _module.__all__
        TENSOR_METHODS += getattr(_module, "TENSOR_METHODS", [])
