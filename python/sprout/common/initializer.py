"""Initial values for ``Tensor(shape=..., dtype=..., init=...)``.

Only the constant initializers live here so far; the random ones (Normal, XavierUniform ...) come
with nn (they share this entry point).
"""
import numbers

import numpy as np

from sprout.common import dtype as mstype

_CONSTANTS = {"zeros": 0, "zero": 0, "ones": 1, "one": 1}


def initializer_array(init, shape, dtype):
    """A NumPy array of `shape` filled as `init` says: 'zeros', 'ones' or a number."""
    nptype = mstype.dtype_to_nptype(dtype)
    if isinstance(init, str) and init.lower() in _CONSTANTS:
        return np.full(shape, _CONSTANTS[init.lower()], dtype=nptype)
    if isinstance(init, numbers.Number) and not isinstance(init, bool):
        return np.full(shape, init, dtype=nptype)
    raise ValueError(f"Tensor: 'init' must be 'zeros', 'ones' or a number, but got {init!r}")
