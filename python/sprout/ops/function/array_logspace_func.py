"""logspace: numbers spaced evenly on a log scale. MindSpore 2.x name and arguments."""
import numbers

import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_F64 = mstype.float64


def _end(arg, value):
    """start or end as a float64 0-d tensor: a number, or a Tensor of one element (a graph tensor too)."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"logspace: '{arg}' must be a number or a Tensor of one element, but got shape "
                             f"{value.shape}")
        value = prim("Reshape")(value, ())
        return value if value.dtype == _F64 else prim("Cast")(value, _F64)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"logspace: '{arg}' must be a number or a Tensor, but got {type(value).__name__}")
    return Tensor(float(value), _F64)


def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    """`steps` numbers base ** v for v evenly spaced from `start` to `end` (both included), as `dtype` (a
    floating dtype, as MindSpore's); computed in float64."""
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
        raise TypeError(f"logspace: 'steps' must be an int, but got {steps!r}")
    if steps < 0:
        raise ValueError(f"logspace: 'steps' must be >= 0, but got {steps}")
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise TypeError(f"logspace: 'base' must be a number, but got {base!r}")
    if dtype not in (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64):
        raise TypeError(f"logspace: 'dtype' must be a floating-point dtype (float16, bfloat16, float32, float64), "
                        f"but got {dtype!r}")
    first, last = _end("start", start), _end("end", end)
    fractions = Tensor(np.arange(steps, dtype=np.float64) / max(steps - 1, 1))  # 0 ... 1, a constant
    exponents = prim("Add")(first, prim("Mul")(prim("Sub")(last, first), fractions))
    out = prim("Pow")(Tensor(float(base), _F64), exponents)
    return out if dtype == _F64 else prim("Cast")(out, dtype)


__all__ = ["logspace"]
